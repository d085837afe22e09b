// "Ask for more downloads" (issue 24), orders' side, on PGlite and PostgreSQL: the link
// personalisation announces (persona.download_renewal_requested, through the bus) is e-mailed to the
// buyer's address on the order, whoever asked; once however often the event is delivered, and
// once per request.
import { randomUUID } from 'node:crypto';
import { createEvent } from '@persona/bus';
import { describeWithPostgres } from '@persona/test-kit';
import { applyDownloadRenewal } from '../../../src/modules/library/download-renewals';
import { checkout, paidOrder } from '../../support';
import { ordersHarnessFor, queuedEmails, SHOP, untilQueued } from '../../support/emails';

function contract(kind: 'pglite' | 'postgres') {
  const h = ordersHarnessFor(kind);
  const renewals = (orderId: string) => queuedEmails(h, 'download-renewal', { orderId });
  const asked = (order: { orderId: string; personaId: string }, token = 'T'.repeat(43)) =>
    createEvent(
      'persona.download_renewal_requested',
      { personaId: order.personaId, orderId: order.orderId, renewalId: randomUUID(), token, expiresAt: '2026-11-29T06:30:00.000Z', used: 10, limit: 10 },
      { correlationId: 'c-renewal' },
    );

  it("e-mails the link to the buyer's address on the order, once per request however often it is delivered", async () => {
    const order = await paidOrder(h, checkout({ email: 'Buyer.Renews@Example.com', fullName: 'Kavya Menon' }));
    const event = asked(order, 'a'.repeat(43));
    await h.bus.publish(event);
    await untilQueued(() => renewals(order.orderId));
    // Delivered again: the inbox has it.
    expect(await applyDownloadRenewal(h.database.db, event, SHOP)).toBe(false);
    const [mail, ...more] = await renewals(order.orderId);
    expect(more).toEqual([]);
    expect(mail!.to_address).toBe('Buyer.Renews@Example.com');
    expect(mail!.subject).toBe(`More downloads of your Persona of "Gitanjali"`);
    expect(mail!.text_body).toContain('Dear Kavya Menon,');
    expect(mail!.text_body).toContain('it has been downloaded 10 times, the most we allow for each format');
    expect(mail!.text_body).toContain(`Give more downloads: https://shop.example/send-persona?personaId=${order.personaId}#renew=${'a'.repeat(43)}`);
    expect(mail!.text_body).toContain('The link works once, until 29 November 2026.');
    expect(mail!.html_body).toContain(`href="https://shop.example/send-persona?personaId=${order.personaId}#renew=${'a'.repeat(43)}"`);

    // A second request is a second e-mail.
    expect(await applyDownloadRenewal(h.database.db, asked(order), SHOP)).toBe(true);
    expect(await renewals(order.orderId)).toHaveLength(2);
  });

  it('sends nothing for an order it does not know', async () => {
    const orderId = randomUUID();
    expect(await applyDownloadRenewal(h.database.db, asked({ orderId, personaId: 'PRS-ZZZZ-9QXD-2HFA-J8TW' }), SHOP)).toBe(false);
    expect(await renewals(orderId)).toEqual([]);
  });
}

describe('download renewal e-mails on PGlite', () => contract('pglite'));
describeWithPostgres()('download renewal e-mails on PostgreSQL', () => contract('postgres'));
