// When the shop refuses live payments: live mode with real (not rzp_test_) keys and a PUBLIC_URL
// buyers cannot reach.
import { livePaymentsRefusal } from '../../../src/modules/payments/selling-refusal';

describe('livePaymentsRefusal', () => {
  it('refuses live keys with a local or private address, saying why and what to do', () => {
    for (const url of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'http://persona.local', 'http://192.168.1.5']) {
      const why = livePaymentsRefusal('live', 'rzp_live_AbC', url);
      expect(why).toContain("Live payments are refused: PUBLIC_URL is not set to the shop's public address");
      expect(why).toContain(url);
      expect(why).toContain('Set PUBLIC_URL to the address buyers use');
    }
  });

  it('lets test mode and Razorpay test keys work locally, and live keys with a public address', () => {
    expect(livePaymentsRefusal('test', undefined, 'http://localhost:8080')).toBeNull();
    expect(livePaymentsRefusal('live', 'rzp_test_AbC', 'http://localhost:8080')).toBeNull();
    expect(livePaymentsRefusal('live', 'rzp_live_AbC', 'https://personabooks.in')).toBeNull();
  });
});
