// The made-up book the PDF benchmarks typeset: `chapters` chapters of 28 paragraphs of 60–150
// words each, the same words in the same order every run (a seeded generator). 30 chapters set a
// book of about 276 pages; 33 a little over 300.
const WORDS = 'the evening light lay long across water and nobody on the bank said a word while the river carried leaves past quiet houses of the town'.split(
  ' ',
);

function bookParagraphs(chapters = 30) {
  const out = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let chapter = 1; chapter <= chapters; chapter += 1) {
    out.push(`# Chapter ${chapter}`);
    for (let p = 0; p < 28; p += 1) {
      const words = [];
      const n = 60 + (next() % 90);
      for (let w = 0; w < n; w += 1) words.push(WORDS[next() % WORDS.length]);
      out.push(`${words.join(' ')}.`);
    }
  }
  return out;
}

module.exports = { bookParagraphs };
