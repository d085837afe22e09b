import QRCode from 'qrcode';
import { matrixToRects, qrMatrix } from '../../../src/modules/persona-print/qr-rectangles';

describe('QR code rectangles', () => {
  it('merges each row of dark modules into horizontal runs', () => {
    const grid = ['##.#', '....', '####', '.#.#'];
    expect(matrixToRects(4, (row, col) => grid[row][col] === '#')).toEqual([
      { row: 0, col: 0, length: 2 },
      { row: 0, col: 3, length: 1 },
      { row: 2, col: 0, length: 4 },
      { row: 3, col: 1, length: 1 },
      { row: 3, col: 3, length: 1 },
    ]);
  });

  it('covers exactly the dark modules of the QR code for the verify URL, at error correction M', () => {
    const url = 'https://shop.example/verify/PRS-7K3M-9QXD-2HFA-J8TW';
    const expected = QRCode.create(url, { errorCorrectionLevel: 'M' }).modules;
    const { size, rects } = qrMatrix(url);
    expect(size).toBe(expected.size);
    const drawn = new Set<string>();
    for (const rect of rects) {
      for (let col = rect.col; col < rect.col + rect.length; col += 1) {
        const cell = `${rect.row},${col}`;
        expect(drawn.has(cell)).toBe(false);
        drawn.add(cell);
      }
    }
    for (let row = 0; row < size; row += 1) {
      for (let col = 0; col < size; col += 1) expect(drawn.has(`${row},${col}`)).toBe(Boolean(expected.get(row, col)));
    }
  });

  it('changes with the URL', () => {
    expect(qrMatrix('https://shop.example/verify/PRS-AAAA-AAAA-AAAA-AAAA').rects).not.toEqual(
      qrMatrix('https://shop.example/verify/PRS-AAAA-AAAA-AAAA-AAAB').rects,
    );
  });
});
