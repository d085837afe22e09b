// Every Persona prints PUBLIC_URL for good (its QR code and links): started with a local one, the
// service says so loudly (a warning naming it and what to do); with a public one it says nothing.
import { createLogger } from '@persona/service-kit';
import { startTestService } from '../support/test-service';

async function startLines(publicUrl: string): Promise<Array<{ level: number; msg: string; publicUrl?: string }>> {
  const lines: string[] = [];
  const logger = createLogger('personalization', 'info', {}, { write: (line: string) => void lines.push(line) });
  const { close } = await startTestService({ publicUrl, logger });
  await close();
  return lines.map((line) => JSON.parse(line));
}

describe("the personalisation service's start", () => {
  it('warns that copies made now print a local PUBLIC_URL, naming it', async () => {
    const warnings = (await startLines('http://localhost:8080')).filter((l) => l.level === 40);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        publicUrl: 'http://localhost:8080',
        msg:
          'PUBLIC_URL (http://localhost:8080) is a local address that buyers cannot reach: every Persona made now prints it in its QR code and links, for good. ' +
          "Set PUBLIC_URL to the shop's public address before selling.",
      }),
    );
  }, 60_000);

  it('says nothing of a public address', async () => {
    expect((await startLines('https://personabooks.in')).filter((l) => l.msg.includes('PUBLIC_URL'))).toEqual([]);
  }, 60_000);
});
