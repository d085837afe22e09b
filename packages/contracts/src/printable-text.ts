// What a Persona can print (DESIGN §12). One rule for every field that reaches a Persona: each
// character is one the engine's fonts draw in every style (PRINTABLE_RANGES, generated from the
// fonts and checked against them). Names and gift messages are held to more: letters of the
// scripts the shop prints, each word in one script. Schema-free, so the checkout and the admin's
// book form check as people type with the very rules the services apply to the request, and the
// preview with the rule the engine applies.
import { PRINTABLE_RANGES } from './printable-ranges';

export { PRINTABLE_RANGES } from './printable-ranges';

/** The scripts the Persona's fonts set, as people name them (the order of the error message). */
export const PRINTED_SCRIPTS = ['Latin', 'Greek', 'Cyrillic', 'Devanagari', 'Bengali', 'Tamil', 'Arabic'] as const;
export type PrintedScript = (typeof PRINTED_SCRIPTS)[number];

/** A gift message's length, in characters (code points), and its lines. */
export const GIFT_MESSAGE_MAX_CHARS = 300;
export const GIFT_MESSAGE_MAX_LINES = 6;
/** A printed name's length, in characters. */
export const PRINTED_NAME_MAX_CHARS = 120;

const SCRIPT_TESTS: ReadonlyArray<readonly [PrintedScript, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Tamil', /\p{Script=Tamil}/u],
  ['Arabic', /\p{Script=Arabic}/u],
];

/**
 * Characters of no script that the fonts print: digits, punctuation, spaces, the rupee sign,
 * combining marks and the joiners Indic and Arabic text uses. Anything else outside the scripts
 * above (an emoji, Chinese) has no glyph in the fonts we ship.
 */
const NEUTRAL_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x40],
  [0x5b, 0x60],
  [0x7b, 0x7e],
  [0xa0, 0xbf],
  [0xd7, 0xd7],
  [0xf7, 0xf7],
  [0x2b0, 0x36f], // modifier letters, combining diacritical marks
  [0x60c, 0x60c], // Arabic comma
  [0x61b, 0x61b],
  [0x61f, 0x61f],
  [0x640, 0x640], // tatweel
  [0x64b, 0x65f], // Arabic vowel marks
  [0x66a, 0x66d],
  [0x670, 0x670],
  [0x964, 0x965], // dandas
  [0x200c, 0x200d], // the joiners
  [0x2010, 0x2027],
  [0x202f, 0x205e],
  [0x20a0, 0x20c0], // currency signs, the rupee's among them
  [0x2116, 0x2116],
  [0x2122, 0x2122],
  [0x25cc, 0x25cc],
];
const isNeutral = (codePoint: number) => NEUTRAL_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to);
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
/** Format characters that belong in Indic and Arabic text: the zero-width joiner and non-joiner. */
const JOINERS = /[\u200c\u200d]/gu;

/** The script of one character, 'neutral' for punctuation and marks, or null when no font prints it. */
export function scriptOf(char: string): PrintedScript | 'neutral' | null {
  if (isNeutral(char.codePointAt(0) as number)) return 'neutral';
  for (const [script, test] of SCRIPT_TESTS) if (test.test(char)) return script;
  return null;
}

const quote = (text: string) => `“${text}”`;

let starts: Uint32Array | null = null;
let ends: Uint32Array | null = null;

/** Whether the Persona's fonts draw a code point in every style (white space is always printed: as a space). */
export function isPrintable(codePoint: number): boolean {
  if (!starts || !ends) {
    const ranges = PRINTABLE_RANGES.split(' ').map((range) => range.split('-').map((n) => parseInt(n, 36)));
    starts = Uint32Array.from(ranges, ([from]) => from!);
    ends = Uint32Array.from(ranges, ([from, to]) => to ?? from!);
  }
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < starts[middle]!) high = middle - 1;
    else if (codePoint > ends[middle]!) low = middle + 1;
    else return true;
  }
  return false;
}

const WHITE_SPACE = /\s/u;

/** The characters of a text no Persona can print, each once, in the order they first appear. */
export function unprintableCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) if (!WHITE_SPACE.test(char) && !isPrintable(char.codePointAt(0) as number)) found.add(char);
  return [...found];
}

/** A character as a message shows it: itself in quotes when it can be seen, and its code point. */
function described(char: string): string {
  const code = `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) ? `${quote(char)} (${code})` : code;
}

/**
 * What is wrong with a text to print in a Persona (a book's title, author or text, a category's
 * name), or null: the characters no shipped face prints, named, after the field's label.
 */
export function printableTextProblem(text: string, label: string): string | null {
  const unprintable = unprintableCharacters(text);
  if (!unprintable.length) return null;
  const shown = unprintable.slice(0, 5).map(described).join(', ');
  const more = unprintable.length > 5 ? ` and ${unprintable.length - 5} more` : '';
  return `${label} has ${unprintable.length === 1 ? 'a character' : 'characters'} no Persona can print: ${shown}${more}`;
}

/** What a Persona prints of its book: what is wrong with it, or null when every Persona of it can be printed. */
export function bookPrintProblem(book: { title: string; author: string }): string | null {
  return printableTextProblem(book.title, 'The title') ?? printableTextProblem(book.author, 'The author');
}

/**
 * What is wrong with a Persona's printed text (its book's title and author, the name it is made
 * for, a gift's message), or null: the one check the engine makes before it prints a page and the
 * live preview makes before it draws one, so a preview never promises what cannot be printed.
 */
export function personaPrintProblem(persona: { title: string; author: string; name: string; message?: string | null }): string | null {
  return bookPrintProblem(persona) ?? printableTextProblem(persona.name, 'The name') ?? printableTextProblem(persona.message ?? '', 'The message');
}

function wordProblem(word: string): string | null {
  let script: PrintedScript | null = null;
  for (const char of word) {
    const found = isPrintable(char.codePointAt(0) as number) ? scriptOf(char) : null;
    if (found === null) {
      return `We cannot print ${quote(char)}: use letters of ${PRINTED_SCRIPTS.slice(0, -1).join(', ')} or ${PRINTED_SCRIPTS[PRINTED_SCRIPTS.length - 1]} script`;
    }
    if (found === 'neutral') continue;
    if (script && found !== script) return `Write each word in one script: ${quote(word)} mixes ${script} and ${found} letters`;
    script = found;
  }
  return null;
}

/**
 * What is wrong with a name to print (the buyer's, or a gift's recipient), or null when nothing is:
 * required, one line, no control characters, at most PRINTED_NAME_MAX_CHARS, each word in one of
 * PRINTED_SCRIPTS.
 */
export function printedNameProblem(name: string, label = 'The name'): string | null {
  if (CONTROL.test(name.replace(JOINERS, ''))) return `${label} must be one line of text, without control characters`;
  const trimmed = name.trim();
  if (!trimmed) return `${label} is required`;
  if ([...trimmed].length > PRINTED_NAME_MAX_CHARS) return `${label} must be at most ${PRINTED_NAME_MAX_CHARS} characters`;
  for (const word of trimmed.split(/\s+/u)) {
    const problem = wordProblem(word);
    if (problem) return problem;
  }
  return null;
}

/** What is wrong with a gift message, or null: at most GIFT_MESSAGE_MAX_CHARS and GIFT_MESSAGE_MAX_LINES lines, printable words. */
export function giftMessageProblem(message: string): string | null {
  const text = message.replace(/\r\n?/g, '\n');
  if (CONTROL.test(text.replace(/\n/g, '').replace(JOINERS, ''))) return 'The message must not contain control characters';
  if ([...text.trim()].length > GIFT_MESSAGE_MAX_CHARS) return `The message must be at most ${GIFT_MESSAGE_MAX_CHARS} characters`;
  if (text.trim().split('\n').length > GIFT_MESSAGE_MAX_LINES) return `The message must be at most ${GIFT_MESSAGE_MAX_LINES} lines`;
  for (const word of text.split(/\s+/u)) {
    if (!word) continue;
    const problem = wordProblem(word);
    if (problem) return problem;
  }
  return null;
}

/** A gift message as it is kept and printed: line breaks as \n, each line trimmed and its spaces collapsed, no blank lines. */
export function normalizeGiftMessage(message: string): string {
  return message
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/gu, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** A name as it is kept and printed: NFC, spaces collapsed, trimmed. */
export function normalizePrintedName(name: string): string {
  return name.normalize('NFC').replace(/\s+/gu, ' ').trim();
}
