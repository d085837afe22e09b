// Test helper: PDF files written by hand, object by object, with a classic
// cross-reference table, for structures pdf-lib never writes (nested page
// trees, inherited attributes, scripts, XMP, wrong offsets…).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { programsInstalled, QPDF } from '@persona/test-kit';

export type RawObject = string | { dict: string; data: string };

/** `objects[n]` is object n's body; 0 and holes are free. `trailer` is the trailer's entries (without /Size). */
export function rawPdf(objects: Record<number, RawObject>, trailer: string, options: { shiftOffsetsBy?: number } = {}): Uint8Array {
  const numbers = Object.keys(objects).map(Number);
  const size = Math.max(...numbers) + 1;
  let text = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = new Map<number, number>();
  for (const num of numbers.sort((a, b) => a - b)) {
    offsets.set(num, Buffer.byteLength(text, 'latin1'));
    const object = objects[num];
    const body =
      typeof object === 'string'
        ? object
        : `${object.dict.replace(/>>\s*$/, ` /Length ${Buffer.byteLength(object.data, 'latin1')} >>`)}\nstream\n${object.data}\nendstream`;
    text += `${num} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(text, 'latin1');
  text += `xref\n0 ${size}\n`;
  for (let num = 0; num < size; num += 1) {
    const offset = offsets.get(num);
    text += offset === undefined ? '0000000000 65535 f\r\n' : `${String(offset + (options.shiftOffsetsBy ?? 0)).padStart(10, '0')} 00000 n\r\n`;
  }
  text += `trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

/** A page's content: one line of Helvetica (resource /F1) at (60, 500). */
export function textContent(text: string, font = 'F1'): RawObject {
  return { dict: '<< >>', data: `BT /${font} 14 Tf 60 500 Td (${text}) Tj ET` };
}

export const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** qpdf --check's verdict, or undefined (with a message; a failure on CI) when qpdf is not installed. */
export function qpdfCheck(bytes: Uint8Array): { ok: boolean; output: string } | undefined {
  if (!programsInstalled([QPDF], 'the qpdf --check assertion is')) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'persona-qpdf-'));
  try {
    const file = path.join(dir, 'persona.pdf');
    writeFileSync(file, bytes);
    try {
      const output = execFileSync(QPDF.path, ['--check', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return { ok: true, output };
    } catch (error) {
      const failed = error as { status?: number; stdout?: string; stderr?: string };
      // Exit status 3: warnings only.
      return { ok: false, output: `exit ${failed.status}: ${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The trailer (or cross-reference stream dictionary) that ends the file: everything after the last `trailer` or `/Type /XRef`. */
export function lastSection(bytes: Uint8Array): { kind: 'table' | 'stream'; text: string } {
  const raw = Buffer.from(bytes).toString('latin1');
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(raw)?.[1]);
  const section = raw.slice(startxref);
  return section.startsWith('xref') ? { kind: 'table', text: section } : { kind: 'stream', text: section.slice(0, section.indexOf('stream')) };
}
