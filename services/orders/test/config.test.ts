// The orders service's settings: where its e-mails send buyers with questions, and the mail set-up.
import { ordersConfig, ordersServiceOptions } from '../src/config';

const base = { CATALOGUE_URL: 'http://127.0.0.1:3001', JWT_SECRET: 's'.repeat(40) };

describe('orders settings', () => {
  it('names the support address in every e-mail, by default the shop’s own', () => {
    expect(ordersServiceOptions(ordersConfig.loadSettings(base))).toMatchObject({
      supportEmail: 'support@personabooks.in',
      publicUrl: 'http://localhost:8080',
    });
    const options = ordersServiceOptions(
      ordersConfig.loadSettings({ ...base, SUPPORT_EMAIL: 'help@shop.example', MAIL_FROM: 'Shop <orders@shop.example>', MAIL_DIR: '/srv/mail' }),
    );
    expect(options).toMatchObject({ supportEmail: 'help@shop.example', mail: { from: 'Shop <orders@shop.example>', dir: '/srv/mail' } });
  });

  it('takes the load shedding limits every service shares (SHED_*)', () => {
    expect(ordersServiceOptions(ordersConfig.loadSettings(base)).loadShedding).toMatchObject({ maxEventLoopDelayMs: 1000, retryAfterS: 5 });
    const options = ordersServiceOptions(ordersConfig.loadSettings({ ...base, SHED_EVENT_LOOP_DELAY_MS: '0', SHED_RETRY_AFTER_S: '20' }));
    expect(options.loadShedding).toMatchObject({ maxEventLoopDelayMs: 0, retryAfterS: 20 });
    expect(() => ordersConfig.loadSettings({ ...base, SHED_HEAP_USED_RATIO: '2' })).toThrow(/SHED_HEAP_USED_RATIO="2"/);
  });

  it('refuses a support address that is not one, naming it', () => {
    expect(() => ordersConfig.loadSettings({ ...base, SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL="not an address"/);
  });
});
