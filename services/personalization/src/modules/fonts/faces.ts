// The catalogue of faces a Persona is set in: each face's file (from an installed package, never a
// machine font), read and parsed once per process.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TrueTypeFont } from './truetype';

const FACE_FILES = {
  serif: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed.ttf'],
  serifBold: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed-Bold.ttf'],
  serifItalic: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed-Italic.ttf'],
  sans: ['dejavu-fonts-ttf', 'ttf/DejaVuSansCondensed.ttf'],
  mono: ['dejavu-fonts-ttf', 'ttf/DejaVuSansMono.ttf'],
  devanagari: ['@expo-google-fonts/noto-sans-devanagari', '400Regular/NotoSansDevanagari_400Regular.ttf'],
  devanagariBold: ['@expo-google-fonts/noto-sans-devanagari', '700Bold/NotoSansDevanagari_700Bold.ttf'],
  bengali: ['@expo-google-fonts/noto-sans-bengali', '400Regular/NotoSansBengali_400Regular.ttf'],
  bengaliBold: ['@expo-google-fonts/noto-sans-bengali', '700Bold/NotoSansBengali_700Bold.ttf'],
  tamil: ['@expo-google-fonts/noto-sans-tamil', '400Regular/NotoSansTamil_400Regular.ttf'],
  tamilBold: ['@expo-google-fonts/noto-sans-tamil', '700Bold/NotoSansTamil_700Bold.ttf'],
  arabic: ['@expo-google-fonts/noto-sans-arabic', '400Regular/NotoSansArabic_400Regular.ttf'],
  arabicBold: ['@expo-google-fonts/noto-sans-arabic', '700Bold/NotoSansArabic_700Bold.ttf'],
} as const satisfies Record<string, readonly [string, string]>;

export type FaceName = keyof typeof FACE_FILES;

const faceBytes = new Map<FaceName, Uint8Array>();
const parsed = new Map<FaceName, TrueTypeFont>();

/** The font file, read once per process from the installed package (never a machine font). */
export function loadFaceBytes(face: FaceName): Uint8Array {
  let bytes = faceBytes.get(face);
  if (!bytes) {
    const [pkg, file] = FACE_FILES[face];
    bytes = new Uint8Array(readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file)));
    faceBytes.set(face, bytes);
  }
  return bytes;
}

/** The face, parsed once per process. */
export function loadFace(face: FaceName): TrueTypeFont {
  let font = parsed.get(face);
  if (!font) {
    font = new TrueTypeFont(loadFaceBytes(face));
    parsed.set(face, font);
  }
  return font;
}

export const unitsPerEm = (face: FaceName) => loadFace(face).metrics.unitsPerEm;

/** Whether a face has a glyph for this code point. */
export function hasGlyph(face: FaceName, codePoint: number): boolean {
  return loadFace(face).hasGlyph(codePoint);
}
