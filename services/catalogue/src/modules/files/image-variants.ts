// Sized WebP copies of uploaded covers and images (IMAGE_WIDTHS), made on the
// first request for them and kept beside the files in the same store, so a
// phone downloads the size it shows instead of the upload (a 480 px cover:
// 63 KB JPEG → ≈ 20 KB). One request makes a given copy; the others wait for it.
import type { Readable } from 'node:stream';
import { IMAGE_WIDTHS, type ImageWidth } from '@persona/contracts';
import type { FileStore } from '@persona/file-store';
import sharp from 'sharp';

/** Uploads that have sized copies: raster covers and images (not GIFs, which may move). */
export const VARIANT_KEY_PATTERN = /^(covers|images)\/[0-9a-f-]{36}\.(jpg|png|webp)$/;

const WEBP_QUALITY = 74;

/** A stored file read whole (a cover or an image: a few MB at most). */
export async function readWhole(store: FileStore, key: string): Promise<Buffer | null> {
  const file = await store.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class ImageVariants {
  private readonly making = new Map<string, Promise<Buffer | null>>();

  /** Copies live in `store` under `variants/<area>/<uuid>-<width>.webp`. */
  constructor(
    private readonly store: FileStore,
    private readonly readOriginal: (key: string) => Promise<Buffer | null>,
  ) {}

  private keyOf(key: string, width: ImageWidth): string {
    const [area, name] = key.split('/');
    return `variants/${area!}/${name!.slice(0, name!.lastIndexOf('.'))}-${width}.webp`;
  }

  /** The copy of `key` at `width`, made now if it is not yet; null when the upload does not exist. */
  get(key: string, width: ImageWidth): Promise<Buffer | null> {
    if (!VARIANT_KEY_PATTERN.test(key)) return Promise.resolve(null);
    const copyKey = this.keyOf(key, width);
    const pending = this.making.get(copyKey);
    if (pending) return pending;
    const made = (async () => {
      const kept = await readWhole(this.store, copyKey);
      if (kept) return kept;
      const original = await this.readOriginal(key);
      if (!original) return null;
      const bytes = await sharp(original, { limitInputPixels: 50_000_000 })
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer();
      await this.store.put(copyKey, bytes, { contentType: 'image/webp' });
      return bytes;
    })().finally(() => this.making.delete(copyKey));
    this.making.set(copyKey, made);
    return made;
  }

  /** Removes every copy of `key` (its upload was deleted or replaced). */
  async delete(key: string): Promise<void> {
    if (!VARIANT_KEY_PATTERN.test(key)) return;
    await Promise.all(IMAGE_WIDTHS.map((w) => this.store.delete(this.keyOf(key, w))));
  }
}
