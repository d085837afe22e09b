// Where finished Personas are kept: "<persona id>.pdf", ".epub" beside it for a text book, and a
// printed copy's ".interior.pdf" and ".cover.pdf" (issue 27), in
// the service's file store (@persona/file-store): PERSONAS_DIR on this machine's disk by default,
// or S3 (FILE_STORE=s3), where a Persona one replica made downloads from every replica (issue 25).
// Each is written whole; regeneration gives the same bytes, so rewriting after a redelivery changes
// nothing.
import type { Readable } from 'node:stream';
import { isPersonaId, type PersonaFormat } from '@persona/contracts';
import type { FileStore } from '@persona/file-store';
import type { PrintFile } from '@persona/service-kit';

const CONTENT_TYPES: Record<PersonaFormat, string> = { pdf: 'application/pdf', epub: 'application/epub+zip' };

export class PersonaFiles {
  constructor(private readonly store: FileStore) {}

  private key(personaId: string, format: PersonaFormat): string {
    if (!isPersonaId(personaId)) throw new Error(`invalid persona id ${JSON.stringify(personaId)}`);
    return `${personaId}.${format}`;
  }

  async put(personaId: string, bytes: Uint8Array, format: PersonaFormat = 'pdf'): Promise<void> {
    await this.store.put(this.key(personaId, format), bytes, { contentType: CONTENT_TYPES[format] });
  }

  async open(personaId: string, format: PersonaFormat = 'pdf'): Promise<{ stream: Readable; size: number } | null> {
    if (!isPersonaId(personaId)) return null;
    return this.store.get(this.key(personaId, format));
  }

  /** A printed copy's print file (issue 27): "<persona id>.interior.pdf", "<persona id>.cover.pdf". */
  async putPrint(personaId: string, file: PrintFile, bytes: Uint8Array): Promise<void> {
    if (!isPersonaId(personaId)) throw new Error(`invalid persona id ${JSON.stringify(personaId)}`);
    await this.store.put(`${personaId}.${file}.pdf`, bytes, { contentType: 'application/pdf' });
  }

  async openPrint(personaId: string, file: PrintFile): Promise<{ stream: Readable; size: number } | null> {
    if (!isPersonaId(personaId)) return null;
    return this.store.get(`${personaId}.${file}.pdf`);
  }
}
