// The printability rule's table (contracts' PRINTABLE_RANGES: what any field of a Persona may hold)
// is exactly what the fonts we ship draw in every style the engine uses. Run with
// UPDATE_PRINTABLE_RANGES=1 after changing a font or a fallback chain to write the table again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRINTABLE_RANGES } from '@persona/contracts';
import { printedInEveryStyle } from '../../../src/modules/fonts/fallback';

const TABLE = join(__dirname, '..', '..', '..', '..', '..', 'packages', 'contracts', 'src', 'printable-ranges.ts');
/** Up to the end of the Supplementary Multilingual Plane: no shipped face draws beyond it. */
const LAST_CODE_POINT = 0x1ffff;
/** What is never text to print, whatever a font draws for it: controls, formats (the joiners aside), private use, surrogates, line and paragraph separators. */
const NEVER = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/u;
const JOINERS = new Set([0x200c, 0x200d]);

function coverage(): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let codePoint = 0x20; codePoint <= LAST_CODE_POINT; codePoint += 1) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    if (NEVER.test(String.fromCodePoint(codePoint)) && !JOINERS.has(codePoint)) continue;
    if (!printedInEveryStyle(codePoint)) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === codePoint - 1) last[1] = codePoint;
    else ranges.push([codePoint, codePoint]);
  }
  return ranges;
}

const encode = (ranges: Array<[number, number]>) =>
  ranges.map(([from, to]) => (from === to ? from.toString(36) : `${from.toString(36)}-${to.toString(36)}`)).join(' ');

describe('the printable ranges', () => {
  it('are what every style of the engine draws with the fonts we ship', () => {
    const table = encode(coverage());
    if (process.env.UPDATE_PRINTABLE_RANGES) {
      const source = readFileSync(TABLE, 'utf8').replace(/(export const PRINTABLE_RANGES =\s*)'[^']*'/, `$1'${table}'`);
      writeFileSync(TABLE, source);
    }
    expect(PRINTABLE_RANGES).toBe(table);
  }, 60000);
});
