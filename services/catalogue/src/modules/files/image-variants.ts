// Sized WebP copies of uploaded covers and images (IMAGE_WIDTHS), made on the
// first request for them and kept beside the files, so a phone downloads the
// size it shows instead of the upload (a 480 px cover: 63 KB JPEG → ≈ 20 KB).
// One request makes a given copy; the others wait for it.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_WIDTHS, type ImageWidth } from '@persona/contracts';
import sharp from 'sharp';

/** Uploads that have sized copies: raster covers and images (not GIFs, which may move). */
export const VARIANT_KEY_PATTERN = /^(covers|images)\/[0-9a-f-]{36}\.(jpg|png|webp)$/;

const WEBP_QUALITY = 74;

export class ImageVariants {
  private readonly making = new Map<string, Promise<Buffer | null>>();

  /** `root`: the files folder; copies live under `root/variants/<area>/<uuid>-<width>.webp`. */
  constructor(
    private readonly root: string,
    private readonly readOriginal: (key: string) => Promise<Buffer | null>,
  ) {}

  private fileOf(key: string, width: ImageWidth): string {
    const [area, name] = key.split('/');
    return path.join(this.root, 'variants', area!, `${name!.slice(0, name!.lastIndexOf('.'))}-${width}.webp`);
  }

  /** The copy of `key` at `width`, made now if it is not yet; null when the upload does not exist. */
  get(key: string, width: ImageWidth): Promise<Buffer | null> {
    if (!VARIANT_KEY_PATTERN.test(key)) return Promise.resolve(null);
    const file = this.fileOf(key, width);
    const pending = this.making.get(file);
    if (pending) return pending;
    const made = readFile(file)
      .catch(async () => {
        const original = await this.readOriginal(key);
        if (!original) return null;
        const bytes = await sharp(original, { limitInputPixels: 50_000_000 })
          .rotate()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer();
        await mkdir(path.dirname(file), { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        await writeFile(temp, bytes);
        await rename(temp, file);
        return bytes;
      })
      .finally(() => this.making.delete(file));
    this.making.set(file, made);
    return made;
  }

  /** Removes every copy of `key` (its upload was deleted or replaced). */
  async delete(key: string): Promise<void> {
    if (!VARIANT_KEY_PATTERN.test(key)) return;
    await Promise.all(IMAGE_WIDTHS.map((w) => rm(this.fileOf(key, w), { force: true })));
  }
}
