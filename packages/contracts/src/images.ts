// Our images' sized copies: what the catalogue serves and the apps put in `srcset`. Plain
// functions and numbers (no schema): a page that shows a cover loads only this.

/**
 * Widths a cover or book image is also served at, as WebP: `<url>?w=<width>`
 * (never wider than the upload). Pages list them in `srcset`, so a phone
 * downloads the size it shows.
 */
export const IMAGE_WIDTHS = [160, 240, 320, 480, 640] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** Our uploads (`/api/files/…`) have sized copies; an image from elsewhere is used as it is. */
export function hasImageCopies(url: string): boolean {
  return url.startsWith('/api/files/covers/') || url.startsWith('/api/files/images/');
}

/** The `srcset` of an uploaded image's sized WebP copies. */
export function imageSrcSet(url: string): string {
  return IMAGE_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(', ');
}
