// The preview's PNG (gray-png.ts): a canvas's premultiplied pixels laid on white, in grey, read back
// as such by an ordinary PNG decoder.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { grayPng } from '../../../src/modules/pdf-engine/gray-png';

async function decoded(png: Uint8Array, width: number, height: number): Promise<number[]> {
  const image = await loadImage(Buffer.from(png));
  expect([image.width, image.height]).toEqual([width, height]);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const rgba = context.getImageData(0, 0, width, height).data;
  const grey: number[] = [];
  for (let i = 0; i < rgba.length; i += 4) {
    // Grey: the three channels alike.
    expect(rgba[i + 1]).toBe(rgba[i]);
    expect(rgba[i + 2]).toBe(rgba[i]);
    grey.push(rgba[i]!);
  }
  return grey;
}

describe('grayPng', () => {
  it('lays the pixels on white: paper stays white, ink keeps its luma, half-covered ink is half as dark', async () => {
    // Premultiplied RGBA: nothing; the page's ink (26, 26, 31) opaque; black at half coverage; pure red.
    const pixels = new Uint8Array([0, 0, 0, 0, 26, 26, 31, 255, 0, 0, 0, 128, 255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0]);
    const png = grayPng(pixels, 3, 2);
    expect(Buffer.from(png.subarray(1, 4)).toString('latin1')).toBe('PNG');
    expect(await decoded(png, 3, 2)).toEqual([255, 27, 127, 77, 255, 255]);
  });

  it('takes pixels at any offset of their buffer', async () => {
    const buffer = new Uint8Array(1 + 4 * 4);
    buffer.set([255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 0, 10, 10, 10, 255], 1);
    expect(await decoded(grayPng(buffer.subarray(1), 2, 2), 2, 2)).toEqual([255, 0, 255, 10]);
  });
});
