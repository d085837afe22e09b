// What a copy someone uploaded to be verified says about itself: its format, its SHA-256 and
// the persona id it claims (in its raw bytes, else in its PDF metadata or its EPUB's package
// and text). Runs on an untrusted-file thread (copy-tasks.ts): the copy is measured before
// pdf-lib reads it, and an EPUB is unpacked within the budget.
import { BudgetMeter, DOCUMENT_BUDGET, type FileBudget, gaugePdf, readZip } from '@persona/untrusted';
import { copyFormat, type CopyFormat } from '../leak-mark/copy-format';
import { sha256Hex } from '../signing/persona-signature';

export interface InspectedCopy {
  format: CopyFormat;
  sha256: string;
  /** The persona id the copy names, or null. */
  claimedPersonaId: string | null;
}

const PERSONA_ID_IN_FILE = /PRS-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/;

export async function inspectCopy(bytes: Uint8Array, budget: FileBudget = DOCUMENT_BUDGET): Promise<InspectedCopy> {
  const format = copyFormat(bytes);
  if (!format) throw new TypeError('the copy is neither a PDF nor an EPUB');
  return { format, sha256: sha256Hex(bytes), claimedPersonaId: await claimedPersonaId(bytes, format, budget) };
}

async function claimedPersonaId(bytes: Uint8Array, format: CopyFormat, budget: FileBudget): Promise<string | null> {
  const raw = PERSONA_ID_IN_FILE.exec(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))?.[0];
  if (raw) return raw;
  if (format === 'epub') {
    // A damaged entry is passed over: the id may still be in another (a bomb is refused all the same).
    const meter = new BudgetMeter(budget, 'This EPUB');
    for (const entry of readZip(bytes, meter, { want: (name) => /\.(opf|x?html?)$/i.test(name), skipDamaged: true })) {
      const found = PERSONA_ID_IN_FILE.exec(entry.data.toString('utf8'))?.[0];
      if (found) return found;
    }
    return null;
  }
  gaugePdf(bytes, new BudgetMeter(budget, 'This PDF'));
  try {
    // pdf-lib is loaded only for a file that passed the gauge: a thread replaced after a bomb starts light.
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false, ignoreEncryption: true });
    return PERSONA_ID_IN_FILE.exec(`${doc.getKeywords() ?? ''} ${doc.getSubject() ?? ''}`)?.[0] ?? null;
  } catch {
    return null; // a PDF pdf-lib cannot read claims nothing
  }
}
