// Appends one incremental-update section to a PDF (ISO 32000-1 §7.5.6): the
// new and changed objects, a cross-reference section for exactly those objects
// whose /Prev points at the file's last one, and a trailer. The original bytes
// are kept as they are.
import { type PDFArray, PDFName, PDFNumber, type PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';

export interface UpdateObject {
  ref: PDFRef;
  object: PDFObject;
}

export interface UpdateTrailer {
  /** One past the largest object number in the file after the update (the xref stream's own number is added to it). */
  size: number;
  root: PDFRef;
  info?: PDFRef;
  id?: PDFArray;
}

export interface AppendedUpdate {
  bytes: Uint8Array;
  /** Offset of the cross-reference section just written. */
  startxref: number;
}

const ascii = (text: string) => Buffer.from(text, 'latin1');

/**
 * `base` + the update. `kind` should be that of the base's last cross-reference
 * section: a file that uses cross-reference streams gets one (/Type /XRef,
 * uncompressed, /W and /Index), a file with tables gets a table.
 */
export function appendUpdate(
  base: Uint8Array,
  prev: number,
  kind: 'table' | 'stream',
  objects: readonly UpdateObject[],
  trailer: UpdateTrailer,
  context: PDFContext,
): AppendedUpdate {
  const sorted = [...objects].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
  sorted.forEach((entry, i) => {
    if (i > 0 && sorted[i - 1].ref.objectNumber === entry.ref.objectNumber) throw new Error(`object ${entry.ref.objectNumber} is written twice in one update`);
  });
  const chunks: Uint8Array[] = [];
  let length = base.length;
  const push = (chunk: Uint8Array) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  const last = base[base.length - 1];
  if (last !== 0x0a && last !== 0x0d) push(ascii('\n'));

  const offsets: Array<{ num: number; gen: number; offset: number }> = [];
  for (const { ref, object } of sorted) {
    offsets.push({ num: ref.objectNumber, gen: ref.generationNumber, offset: length });
    push(serializeIndirect(ref, object));
  }

  const xrefOffset = length;
  if (kind === 'stream') {
    const num = trailer.size;
    offsets.push({ num, gen: 0, offset: xrefOffset });
    const offsetWidth = Math.max(4, byteWidth(xrefOffset));
    const rowLength = 1 + offsetWidth + 2;
    const data = new Uint8Array(offsets.length * rowLength);
    offsets.forEach((entry, i) => {
      const at = i * rowLength;
      data[at] = 1;
      writeBig(data, at + 1, offsetWidth, entry.offset);
      writeBig(data, at + 1 + offsetWidth, 2, entry.gen);
    });
    const dict = context.obj({
      Type: 'XRef',
      Size: num + 1,
      Index: subsections(offsets).flatMap(([start, count]) => [start, count]),
      W: [1, offsetWidth, 2],
      Root: trailer.root,
    });
    if (trailer.info) dict.set(PDFName.of('Info'), trailer.info);
    if (trailer.id) dict.set(PDFName.of('ID'), trailer.id);
    dict.set(PDFName.of('Prev'), PDFNumber.of(prev));
    dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
    push(ascii(`${num} 0 obj\n`));
    push(serialize(dict));
    push(ascii('\nstream\n'));
    push(data);
    push(ascii('\nendstream\nendobj\n'));
  } else {
    const lines = ['xref'];
    const byNumber = new Map(offsets.map((entry) => [entry.num, entry]));
    for (const [start, count] of subsections(offsets)) {
      lines.push(`${start} ${count}`);
      for (let num = start; num < start + count; num += 1) {
        const entry = byNumber.get(num)!;
        lines.push(`${String(entry.offset).padStart(10, '0')} ${String(entry.gen).padStart(5, '0')} n\r`);
      }
    }
    push(ascii(`${lines.join('\n')}\ntrailer\n`));
    const dict = context.obj({ Size: trailer.size, Root: trailer.root });
    if (trailer.info) dict.set(PDFName.of('Info'), trailer.info);
    if (trailer.id) dict.set(PDFName.of('ID'), trailer.id);
    dict.set(PDFName.of('Prev'), PDFNumber.of(prev));
    push(serialize(dict));
    push(ascii('\n'));
  }
  push(ascii(`startxref\n${xrefOffset}\n%%EOF\n`));

  // One fresh buffer of exactly the file's size (it may be transferred to another thread).
  const bytes = new Uint8Array(length);
  bytes.set(base, 0);
  let at = base.length;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, startxref: xrefOffset };
}

function serialize(object: PDFObject): Uint8Array {
  const out = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(out, 0);
  return out;
}

function serializeIndirect(ref: PDFRef, object: PDFObject): Uint8Array {
  const head = ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
  const tail = ascii('\nendobj\n');
  const out = new Uint8Array(head.length + object.sizeInBytes() + tail.length);
  out.set(head, 0);
  const size = object.copyBytesInto(out, head.length);
  out.set(tail, head.length + size);
  return out;
}

/** Runs of consecutive object numbers: [first, count]. */
function subsections(entries: ReadonlyArray<{ num: number }>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const { num } of [...entries].sort((a, b) => a.num - b.num)) {
    const run = runs[runs.length - 1];
    if (run && run[0] + run[1] === num) run[1] += 1;
    else runs.push([num, 1]);
  }
  return runs;
}

function byteWidth(value: number): number {
  let width = 1;
  while (value >= 256 ** width) width += 1;
  return width;
}

function writeBig(out: Uint8Array, at: number, width: number, value: number) {
  for (let i = width - 1; i >= 0; i -= 1) {
    out[at + i] = value % 256;
    value = Math.floor(value / 256);
  }
}
