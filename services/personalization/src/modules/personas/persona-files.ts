// Where finished Personas are kept: <dir>/<persona id>.pdf, and .epub beside it
// for a text book, each written whole (temp file, then rename). Regeneration gives
// the same bytes, so rewriting after a redelivery changes nothing.
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isPersonaId, type PersonaFormat } from '@persona/contracts';

export class PersonaFiles {
  constructor(private readonly dir: string) {}

  private file(personaId: string, format: PersonaFormat): string {
    if (!isPersonaId(personaId)) throw new Error(`invalid persona id ${JSON.stringify(personaId)}`);
    return path.join(this.dir, `${personaId}.${format}`);
  }

  async put(personaId: string, bytes: Uint8Array, format: PersonaFormat = 'pdf'): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = this.file(personaId, format);
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
  }

  async open(personaId: string, format: PersonaFormat = 'pdf'): Promise<{ stream: NodeJS.ReadableStream; size: number } | null> {
    try {
      const file = this.file(personaId, format);
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch {
      return null;
    }
  }
}
