// What a worker thread does once started, before anybody waits on it: the code it will run
// compiled, harfbuzz loaded, every script's faces read. Measured on 2 cores (2026-11-27): a thread's
// first Persona of a demo book took 310–650 ms, the same book's first Persona on a warm thread 60–100
// ms; its first preview 190 ms against 15. Paid orders arriving as the service starts (or as a
// thread is replaced) queued behind that cost, which `npm run bench`'s `latency` group counted in its
// p99. What the warm-up makes is thrown away (its books are dropped from the prepared-book cache at the end).
// BUILD_WARM_UP=false skips it (the end-to-end suites' shops, which start often and make few Personas).
import { PERSONA_PREVIEW_WIDTH } from '@persona/contracts';
import { buildPersona } from './build-persona';
import { clearPersonaPdfCache } from '../pdf-engine/build-persona-pdf';
import { warmPreviews } from '../pdf-engine/dedication-preview';
import { leakMark, markSecret } from '../leak-mark/mark-code';
import { generateSigningKey, signPersona } from '../signing/persona-signature';

/** What a thread warms up for: the Personas of PDF_WORKERS, or the previews of PREVIEW_WORKERS. */
export type WarmUp = 'personas' | 'previews';

/** A book of `chapters` chapters in every script the fonts set, so that each face is read and each code path taken. */
function book(seed: number, chapters: number): string[] {
  const words = 'the evening light lay long across the water and nobody on the bank said a word while the river carried leaves past quiet houses'.split(' ');
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  const paragraphs: string[] = [];
  for (let chapter = 1; chapter <= chapters; chapter += 1) {
    paragraphs.push(`# Chapter ${chapter}`);
    paragraphs.push('सूरज उगा और सबको शुभकामनाएँ मिलीं। সূর্য উঠল। சூரியன் உதித்தது. طلعت الشمس، وقال: مرحبا. Ελληνικά, русский.');
    for (let p = 0; p < 10; p += 1) {
      const count = 50 + (next() % 80);
      paragraphs.push(`${Array.from({ length: count }, () => words[next() % words.length]).join(' ')}, “quoted”; and so on.`);
    }
  }
  return paragraphs;
}

/**
 * Enough work for V8 to have compiled the hot paths optimised (a thread's code runs slowly until a
 * function has run often): a thread's first 14 books (the demo's) took 660–840 ms cold, and 275 ms
 * after this warm-up, which takes about a second of one core before the service reports ready.
 */
export async function warmUp(kind: WarmUp): Promise<void> {
  if (kind === 'previews') {
    await warmPreviews(PERSONA_PREVIEW_WIDTH);
    return;
  }
  const key = generateSigningKey();
  let pdf: Uint8Array | null = null;
  for (let index = 0; index < 12; index += 1) {
    const record = {
      personaId: `PRS-0000-0000-0000-${String(index).padStart(4, '0')}`,
      bookId: '00000000-0000-4000-8000-000000000000',
      title: `Warm-up ${index % 3}`,
      author: index % 2 ? 'सूरज Persona' : 'Persona Books',
      buyerName: ['Zoë Ünal', 'अनन्या শর্মা', 'Ravi Kumar', 'مريم أحمد'][index % 4]!,
      purchaseDate: '2026-01-01',
      ...(index % 3 === 0 ? { recipientName: 'மீரா தமிழ்', message: 'With love\nजन्मदिन मुबारक' } : {}),
    };
    const common = {
      record,
      signature: signPersona(record, key),
      keyId: key.keyId,
      verifyUrl: `https://persona-books.in/verify/${record.personaId}`,
      mark: leakMark(markSecret(key.privateKey), record.personaId),
    };
    // Three books, four Personas each: three typeset, every one stamped.
    const built = await buildPersona({
      ...common,
      source: { kind: 'text', paragraphs: book(index % 3, 3) },
      epub: { privateKey: key.privateKey, language: 'English' },
    });
    pdf ??= built.bytes;
    // A book's own PDF: the stamping of an uploaded file.
    if (index % 4 === 0) await buildPersona({ ...common, source: { kind: 'pdf', bytes: pdf } });
  }
  // The warm-up's books are nobody's: the prepared-book cache is left to the shop's.
  clearPersonaPdfCache();
}
