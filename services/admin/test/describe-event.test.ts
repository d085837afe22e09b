// The audit log's lines for a Persona's downloads (issue 24): on the order's timeline (its id the
// subject), the administrator who reset or stopped them and why, and a buyer's request for more.
import { randomUUID } from 'node:crypto';
import { createEvent } from '@persona/bus';
import { describeEvent } from '../src/modules/audit/describe-event';

const orderId = randomUUID();
const personaId = 'PRS-DWN1-9QXD-2HFA-J8TW';
const actor = { id: randomUUID(), email: 'owner@shop.example' };

describe("a Persona's downloads in the audit log", () => {
  it('names the administrator and the reason of a reset or a stop, on the order', () => {
    expect(describeEvent(createEvent('persona.downloads_reset', { personaId, orderId, reason: 'A new tablet' }, { correlationId: 'c', actor }))).toEqual({
      summary: `Downloads of Persona ${personaId} reset (a fresh allowance): A new tablet`,
      subjectId: orderId,
      actor: 'owner@shop.example',
    });
    expect(
      describeEvent(createEvent('persona.downloads_revoked', { personaId, orderId, reason: 'Seen shared online' }, { correlationId: 'c', actor })),
    ).toEqual({
      summary: `Downloads of Persona ${personaId} stopped: Seen shared online`,
      subjectId: orderId,
      actor: 'owner@shop.example',
    });
  });

  it("says a request for more was e-mailed to the buyer, never the link's token", () => {
    const token = 'T'.repeat(43);
    const line = describeEvent(
      createEvent(
        'persona.download_renewal_requested',
        { personaId, orderId, renewalId: randomUUID(), token, expiresAt: new Date().toISOString(), used: 10, limit: 10 },
        { correlationId: 'c' },
      ),
    );
    expect(line).toEqual({
      summary: `More downloads of Persona ${personaId} asked for (downloaded 10 times): a link e-mailed to the buyer`,
      subjectId: orderId,
      actor: null,
    });
    expect(line.summary).not.toContain(token);
  });
});
