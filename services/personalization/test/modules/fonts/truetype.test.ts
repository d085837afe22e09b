import fontkit from '@pdf-lib/fontkit';
import { loadFaceBytes } from '../../../src/modules/fonts/faces';
import { TrueTypeFont } from '../../../src/modules/fonts/truetype';

describe('TrueTypeFont', () => {
  const bytes = loadFaceBytes('sans');
  const ours = new TrueTypeFont(bytes);
  const reference = fontkit.create(bytes);

  it('reads the cmap, widths and metrics as fontkit does', () => {
    for (const char of 'AZaz09 ·ÜëΩЖ€अ') {
      const codePoint = char.codePointAt(0) as number;
      const glyph = reference.glyphForCodePoint(codePoint);
      expect(ours.glyphId(codePoint)).toBe(glyph.id);
      expect(ours.advanceWidth(ours.glyphId(codePoint))).toBe(glyph.advanceWidth);
    }
    expect(ours.hasGlyph(0x905)).toBe(false);
    expect(ours.metrics).toMatchObject({
      unitsPerEm: reference.unitsPerEm,
      ascent: reference.ascent,
      descent: reference.descent,
      italicAngle: reference.italicAngle,
      postscriptName: reference.postscriptName,
      bbox: { minX: reference.bbox.minX, minY: reference.bbox.minY, maxX: reference.bbox.maxX, maxY: reference.bbox.maxY },
    });
  });

  it('subsets to the glyphs asked for, in that order, with composite glyphs’ parts renumbered after them', () => {
    const text = 'Zoë Ünal';
    const glyphs = [0, ...new Set([...text].map((char) => ours.glyphId(char.codePointAt(0) as number)))];
    const subset = fontkit.create(ours.subset(glyphs));
    expect(subset.numGlyphs).toBeGreaterThan(glyphs.length); // ë and Ü are composites: their parts come along
    glyphs.forEach((id, index) => {
      expect(subset.getGlyph(index).path.toSVG()).toBe(reference.getGlyph(id).path.toSVG());
      expect(subset.getGlyph(index).advanceWidth).toBe(reference.getGlyph(id).advanceWidth);
    });
  });

  it('reads a Devanagari face (format 4 and 12 cmaps alike)', () => {
    const devanagari = new TrueTypeFont(loadFaceBytes('devanagari'));
    const reference = fontkit.create(loadFaceBytes('devanagari'));
    for (const char of 'अनन्या') expect(devanagari.glyphId(char.codePointAt(0) as number)).toBe(reference.glyphForCodePoint(char.codePointAt(0) as number).id);
  });

  it('shears a subset’s outlines along the baseline (a slanted face): every point moved by its height, composites’ parts and all, widths kept', () => {
    const face = new TrueTypeFont(loadFaceBytes('devanagari'));
    const shear = 0.2;
    // Simple glyphs (क, ष) and a glyph that is a composite in the face (ü in DejaVu Sans: u and its dieresis).
    for (const [font, text] of [
      [face, 'कष'],
      [ours, 'ü'],
    ] as const) {
      const glyphs = [0, ...[...text].map((char) => font.glyphId(char.codePointAt(0) as number))];
      const upright = fontkit.create(Buffer.from(font.subset(glyphs)));
      const slanted = fontkit.create(Buffer.from(font.subset(glyphs, shear)));
      for (let id = 1; id < glyphs.length; id += 1) {
        const points = (f: typeof upright) =>
          (f.getGlyph(id).path as unknown as { commands: Array<{ args: number[] }> }).commands.flatMap((command) => command.args);
        const before = points(upright);
        const after = points(slanted);
        expect(after).toHaveLength(before.length);
        for (let i = 0; i < before.length; i += 2) {
          expect(Math.abs(after[i]! - (before[i]! + shear * before[i + 1]!))).toBeLessThanOrEqual(1);
          expect(after[i + 1]).toBe(before[i + 1]);
        }
        expect(slanted.getGlyph(id).advanceWidth).toBe(upright.getGlyph(id).advanceWidth);
      }
    }
  });
});
