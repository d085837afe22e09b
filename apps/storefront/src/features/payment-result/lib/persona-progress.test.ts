import type { PublicOrder } from '@persona/contracts';
import { PERSONA_FAILED_NOTICE } from '@persona/contracts';
import { personaProgress } from './persona-progress';

type Order = Pick<PublicOrder, 'paymentStatus' | 'personaStatus' | 'downloads' | 'refundedAt'>;
const paid: Order = { paymentStatus: 'paid', personaStatus: 'generating', downloads: [], refundedAt: null };
const files = [
  { format: 'epub' as const, url: '/api/personas/PRS-1/epub' },
  { format: 'pdf' as const, url: '/api/personas/PRS-1/pdf' },
];

describe('the success page while the Persona is made', () => {
  it('says it is being personalised before the first answer and while it is made', () => {
    expect(personaProgress(null)).toMatchObject({ stage: 'preparing', text: expect.stringContaining('being personalised') });
    expect(personaProgress(paid).stage).toBe('preparing');
    expect(personaProgress({ ...paid, personaStatus: 'pending' }).stage).toBe('preparing');
  });

  it('says it is ready once the Persona has its files', () => {
    expect(personaProgress({ ...paid, personaStatus: 'ready', downloads: files })).toEqual({
      stage: 'ready',
      text: 'Thank you for your order. Your Persona is ready to download.',
    });
  });

  it('offers no download of a refunded order, nor before a file exists', () => {
    expect(personaProgress({ ...paid, personaStatus: 'ready', downloads: files, refundedAt: '2026-11-27T10:00:00.000Z' }).stage).toBe('refunded');
    expect(personaProgress({ ...paid, personaStatus: 'ready', downloads: [] }).stage).toBe('preparing');
  });

  it("tells a Persona that could not be made in the shop's one wording, and a payment still awaited", () => {
    expect(personaProgress({ ...paid, personaStatus: 'failed' })).toEqual({ stage: 'failed', text: PERSONA_FAILED_NOTICE.message });
    expect(personaProgress({ ...paid, paymentStatus: 'attempted', personaStatus: 'pending' }).stage).toBe('awaiting-payment');
  });
});
