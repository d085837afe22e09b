// Picture sizes read from their headers (what a decoder allocates), and the pixel limits.
import { giantFrameGif, giantJpeg, giantPng, giantWebp } from '@persona/test-kit';
import { BudgetMeter, IMAGE_BUDGET } from '../src/budget';
import { jpegSize, measureImage } from '../src/image-size';

const meter = () => new BudgetMeter(IMAGE_BUDGET, 'The cover image');

describe('measureImage', () => {
  it('reads each kind of header', () => {
    expect(measureImage(giantPng(640, 960), 'png', meter())).toEqual({ width: 640, height: 960, frames: 1 });
    expect(measureImage(giantJpeg(1200, 1800), 'jpeg', meter())).toEqual({ width: 1200, height: 1800, frames: 1 });
    const webp = giantWebp();
    webp.writeUIntLE(799, 24, 3);
    webp.writeUIntLE(599, 27, 3);
    expect(measureImage(webp, 'webp', meter())).toEqual({ width: 800, height: 600, frames: 1 });
  });

  it('finds a JPEG frame header behind other segments, and the largest of several', () => {
    const exif = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 0x10]), Buffer.alloc(14, 0x41)]);
    const plain = giantJpeg(300, 200);
    const withExif = Buffer.concat([plain.subarray(0, 2), exif, plain.subarray(2)]);
    expect(jpegSize(withExif)).toEqual({ width: 300, height: 200 });
    const twoFrames = Buffer.concat([plain.subarray(0, 2), giantJpeg(50_000, 50_000).subarray(2, 21), plain.subarray(2)]);
    expect(jpegSize(twoFrames)).toEqual({ width: 50_000, height: 50_000 });
  });

  it('refuses a picture past the pixel limits, every frame of a GIF counted', () => {
    expect(() => measureImage(giantPng(), 'png', meter())).toThrow(
      expect.objectContaining({
        statusCode: 413,
        code: 'IMAGE_TOO_LARGE',
        message: 'The cover image would have more than 16,383 pixels across or down in one picture, more than this shop reads',
      }),
    );
    expect(() => measureImage(giantPng(10_000, 10_000), 'png', meter())).toThrow(/more than 40 million pixels in one picture/);
    expect(() => measureImage(giantFrameGif(), 'gif', meter())).toThrow(expect.objectContaining({ code: 'IMAGE_TOO_LARGE' }));
    expect(() => measureImage(giantWebp(), 'webp', meter())).toThrow(expect.objectContaining({ code: 'IMAGE_TOO_LARGE' }));
  });

  it('refuses a header that gives no size', () => {
    expect(() => measureImage(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'jpeg', meter())).toThrow(
      'The cover image cannot be read: its JPEG header does not give its size',
    );
  });
});
