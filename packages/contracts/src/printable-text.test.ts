import { giftMessageProblem, normalizeGiftMessage, normalizePrintedName, printedNameProblem, scriptOf } from './printable-text';

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
