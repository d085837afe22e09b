// The live preview draws the very page the engine writes: the canvas image of a dedication page is
// compared, pixel by pixel, with pdf.js's rendering of the PDF the engine makes for the same inputs.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { dedicationPreview, dedicationPreviewPdf, type PreviewInput } from '../../../src/modules/pdf-engine/dedication-preview';

const WIDTH = 600;

async function pdfAsPixels(pdf: Uint8Array): Promise<Uint8ClampedArray> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: pdf, disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const page = await doc.getPage(1);
  const viewport = page.getViewport({ scale: WIDTH / page.getViewport({ scale: 1 }).width });
  const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context as never, canvas: canvas as never, viewport }).promise;
  await doc.destroy();
  return context.getImageData(0, 0, canvas.width, canvas.height).data;
}

async function pngAsPixels(png: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: context.getImageData(0, 0, image.width, image.height).data };
}

/** Share of pixels whose grey level differs by more than a third: ink where the other has none. */
function differingShare(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let differing = 0;
  for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i]! - b[i]!) > 85) differing += 1;
  return differing / (a.length / 4);
}

/** Share of pixels with ink. */
const inked = (a: Uint8ClampedArray) => {
  let ink = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i]! < 170) ink += 1;
  return ink / (a.length / 4);
};

const input: PreviewInput = {
  title: 'The Lighthouse Keeper',
  author: 'Meera Iyer',
  name: 'अनन्या शर्मा',
  message: 'जन्मदिन मुबारक हो!\nWith love, مريم — நன்றி',
  purchaseDate: '2026-11-25',
  publicUrl: 'https://shop.example',
  widthPx: WIDTH,
};

describe('the dedication page preview', () => {
  it('is the page the engine prints: the canvas image matches the rendered PDF', async () => {
    const preview = await pngAsPixels(await dedicationPreview(input));
    expect(preview.width).toBe(WIDTH);
    expect(preview.height).toBe(Math.round((595 * WIDTH) / 420));
    const printed = await pdfAsPixels(await dedicationPreviewPdf(input));
    expect(printed.length).toBe(preview.data.length);
    // Anti-aliasing aside (two rasterisers), the same ink in the same places: a single letter less
    // in the name differs on about 0.5% of the pixels.
    expect(inked(preview.data)).toBeGreaterThan(0.02);
    expect(differingShare(preview.data, printed)).toBeLessThan(0.0005);
    const oneLetterLess = await pngAsPixels(await dedicationPreview({ ...input, name: 'अनन्या शर्म' }));
    expect(differingShare(oneLetterLess.data, printed)).toBeGreaterThan(0.002);
  });

  it('changes where the name or the message changes, and is the same for the same inputs', async () => {
    const one = await dedicationPreview(input);
    expect(Buffer.from(await dedicationPreview(input)).equals(Buffer.from(one))).toBe(true);
    const other = await pngAsPixels(await dedicationPreview({ ...input, name: 'Ravi Menon' }));
    expect(differingShare(other.data, (await pngAsPixels(one)).data)).toBeGreaterThan(0.001);
  });

  it("draws the author's own signature where the book has one, as the Persona prints it", async () => {
    const canvas = createCanvas(600, 200);
    const context = canvas.getContext('2d');
    context.strokeStyle = '#000';
    context.lineWidth = 12;
    context.beginPath();
    context.moveTo(40, 150);
    context.bezierCurveTo(150, 10, 300, 190, 560, 60);
    context.stroke();
    const signed = { ...input, authorSignature: new Uint8Array(canvas.toBuffer('image/png')) };
    const preview = await pngAsPixels(await dedicationPreview(signed));
    const plain = await pngAsPixels(await dedicationPreview(input));
    // The signature's stroke is ink the shop's page does not have.
    expect(differingShare(preview.data, plain.data)).toBeGreaterThan(0.002);
    const printed = await pdfAsPixels(await dedicationPreviewPdf(signed));
    expect(differingShare(preview.data, printed)).toBeLessThan(0.002);
  });
});
