import {
  bookPrintProblem,
  giftMessageProblem,
  personaPrintProblem,
  isPrintable,
  normalizeGiftMessage,
  normalizePrintedName,
  printableTextProblem,
  printedNameProblem,
  scriptOf,
  unprintableCharacters,
} from './printable-text';

describe('what a Persona can print', () => {
  it('accepts names in every script the fonts set, with accents, marks and joiners', () => {
    for (const name of ['Zoë Ünal', 'Ñandú Çelik-Øster', 'अनन्या शर्मा', 'क्षत्रिय', 'অনন্যা', 'தமிழ்செல்வி', 'مريم الحسن', 'Σοφία', 'Анна', "O'Brien Jr."]) {
      expect({ name, problem: printedNameProblem(name) }).toEqual({ name, problem: null });
    }
  });

  it('refuses control characters, blank names, overlong names, unprintable characters and words mixing scripts', () => {
    expect(printedNameProblem('Ravi\u0007')).toMatch(/without control characters/);
    expect(printedNameProblem('Ravi\u200bKumar')).toMatch(/without control characters/);
    expect(printedNameProblem(' \u00a0  ')).toBe('The name is required');
    expect(printedNameProblem('x'.repeat(121))).toMatch(/at most 120 characters/);
    expect(printedNameProblem('Ravi 😀')).toMatch(/^We cannot print “😀”: use letters of Latin, Greek, Cyrillic, Devanagari, Bengali, Tamil or Arabic script$/);
    expect(printedNameProblem('王芳')).toMatch(/We cannot print “王”/);
    expect(printedNameProblem('Аnna')).toBe('Write each word in one script: “Аnna” mixes Cyrillic and Latin letters');
    expect(printedNameProblem('रविKumar', 'Your name')).toMatch(/mixes Devanagari and Latin/);
  });

  it('takes messages of several lines and scripts, within 300 characters and 6 lines', () => {
    expect(giftMessageProblem('Happy birthday, अनन्या!\nநன்றி — عيد ميلاد سعيد')).toBeNull();
    expect(giftMessageProblem('m'.repeat(300))).toBeNull();
    expect(giftMessageProblem('m'.repeat(301))).toMatch(/at most 300 characters/);
    expect(giftMessageProblem('1\n2\n3\n4\n5\n6\n7')).toMatch(/at most 6 lines/);
    expect(giftMessageProblem('tab\there')).toMatch(/control characters/);
    expect(giftMessageProblem('Hi 🎉')).toMatch(/We cannot print “🎉”/);
  });

  it('keeps text as it is printed: NFC, spaces collapsed, lines trimmed, no blank lines', () => {
    expect(normalizePrintedName('  Zoe\u0308   Ünal ')).toBe('Zoë Ünal');
    expect(normalizeGiftMessage(' Dear  Ravi,\r\n\r\n  with love \n')).toBe('Dear Ravi,\nwith love');
    expect(scriptOf('्')).toBe('Devanagari');
    expect(scriptOf('\u0301')).toBe('neutral');
    expect(scriptOf('\u064e')).toBe('neutral');
  });
});

describe('what any field of a Persona may hold', () => {
  it('is what the fonts print in every style: every script the shop sells in, punctuation and symbols the faces share', () => {
    for (const text of ['सूरज प्रकाश', 'শ্রীকান্ত', 'தமிழ்செல்வி', 'فاطمة الزهراء', 'Zoë Ünal — “naïve” façade…', 'Ἀθῆναι', 'Чехов', '₹499 · №5 ™', 'Ñandú n̈']) {
      expect(unprintableCharacters(text)).toEqual([]);
      expect(printableTextProblem(text, 'The author')).toBeNull();
    }
    // White space of any kind is printed as a space; the joiners Indic and Arabic text use are kept.
    expect(unprintableCharacters('a\tb\u00a0c\u2003d क्‍ष')).toEqual([]);
  });

  it('names the field and each character no shipped face prints, once, with its code point', () => {
    expect(printableTextProblem('Sunrise 🌅 in 東京', 'The title')).toBe(
      'The title has characters no Persona can print: “🌅” (U+1F305), “東” (U+6771), “京” (U+4EAC)',
    );
    expect(printableTextProblem('Bell\u0007 Jar', 'The author')).toBe('The author has a character no Persona can print: U+0007');
    expect(printableTextProblem('中文中文中文 한국어 日本', 'Paragraph 3')).toMatch(
      /^Paragraph 3 has characters no Persona can print: “中” \(U\+4E2D\), “文” \(U\+6587\), “한” \(U\+D55C\), “국” \(U\+AD6D\), “어” \(U\+C5B4\) and 2 more$/,
    );
    expect(isPrintable(0xe000)).toBe(false);
    expect(isPrintable('A'.codePointAt(0)!)).toBe(true);
  });

  it('judges a book by its title and author, the parts of it every Persona prints', () => {
    expect(bookPrintProblem({ title: 'सूरज की किरण', author: 'सूरज प्रकाश' })).toBeNull();
    expect(bookPrintProblem({ title: 'Love 💖', author: 'A' })).toBe('The title has a character no Persona can print: “💖” (U+1F496)');
    expect(bookPrintProblem({ title: 'Dawn', author: 'Li Bai 李白' })).toBe('The author has characters no Persona can print: “李” (U+674E), “白” (U+767D)');
  });

  it('is the one check of a whole Persona: its book, the name printed and the message', () => {
    expect(personaPrintProblem({ title: 'Dawn', author: 'सूरज प्रकाश', name: 'فاطمة', message: 'শুভ জন্মদিন' })).toBeNull();
    expect(personaPrintProblem({ title: 'Dawn', author: 'Mira', name: 'Ana', message: 'Hi 🎉' })).toBe(
      'The message has a character no Persona can print: “🎉” (U+1F389)',
    );
    expect(personaPrintProblem({ title: 'Dawn', author: 'Mira', name: 'Ana\u0000' })).toBe('The name has a character no Persona can print: U+0000');
  });

  it('holds names and messages to it as well as to their scripts', () => {
    expect(printedNameProblem('Ana 𝒜')).toMatch(/^We cannot print “𝒜”/);
  });
});
