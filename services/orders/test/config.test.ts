// The orders service's settings: where its e-mails send buyers with questions, and the mail set-up.
import { ordersConfig, ordersServiceOptions } from '../src/config';
import { documentNumber } from '../src/modules/invoices/invoice-number';

const base = { CATALOGUE_URL: 'http://127.0.0.1:3001', JWT_SECRET: 's'.repeat(40), INTERNAL_TOKEN: 'i'.repeat(40) };

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

  it("needs the shared internal token: a checkout's book is read from the catalogue's internal routes", () => {
    expect(ordersServiceOptions(ordersConfig.loadSettings(base)).internalToken).toBe(base.INTERNAL_TOKEN);
    expect(() => ordersConfig.loadSettings({ CATALOGUE_URL: base.CATALOGUE_URL, JWT_SECRET: base.JWT_SECRET })).toThrow(/INTERNAL_TOKEN is required/);
  });

  it('keeps e-mail bodies, webhook events, payment attempts and library tokens for their *_RETENTION_DAYS, refusing a wrong value by name', () => {
    expect(ordersServiceOptions(ordersConfig.loadSettings(base)).retention).toEqual({
      emailBodyDays: 180,
      webhookEventDays: 90,
      paymentAttemptDays: 400,
      libraryTokenDays: 7,
    });
    const options = ordersServiceOptions(
      ordersConfig.loadSettings({
        ...base,
        EMAIL_BODY_RETENTION_DAYS: '365',
        WEBHOOK_EVENTS_RETENTION_DAYS: '30',
        PAYMENT_ATTEMPTS_RETENTION_DAYS: '730',
        LIBRARY_TOKENS_RETENTION_DAYS: '1',
      }),
    );
    expect(options.retention).toEqual({ emailBodyDays: 365, webhookEventDays: 30, paymentAttemptDays: 730, libraryTokenDays: 1 });
    expect(() => ordersConfig.loadSettings({ ...base, EMAIL_BODY_RETENTION_DAYS: '0' })).toThrow(/EMAIL_BODY_RETENTION_DAYS="0"/);
    expect(() => ordersConfig.loadSettings({ ...base, WEBHOOK_EVENTS_RETENTION_DAYS: 'forever' })).toThrow(/WEBHOOK_EVENTS_RETENTION_DAYS="forever"/);
  });

  it('refuses a support address that is not one, naming it', () => {
    expect(() => ordersConfig.loadSettings({ ...base, SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL="not an address"/);
  });

  it("names the tax invoices' seller and numbers them from the settings (SELLER_*, INVOICE_PREFIX), refusing a GSTIN that is not one", () => {
    const defaults = ordersServiceOptions(ordersConfig.loadSettings(base)).invoicing!;
    expect(documentNumber(defaults.series, 2026, 123)).toBe('PB/26-27/000123');
    expect(defaults.seller.gstin).toBe('29AAACP1234A1Z1');
    const own = ordersServiceOptions(
      ordersConfig.loadSettings({
        ...base,
        SELLER_NAME: 'Kochi Books LLP',
        SELLER_ADDRESS: 'MG Road | Kochi 682001, Kerala',
        SELLER_GSTIN: '32AAACP1234A1ZE',
        INVOICE_PREFIX: 'KB',
      }),
    ).invoicing!;
    expect(own.seller).toEqual({ name: 'Kochi Books LLP', addressLines: ['MG Road', 'Kochi 682001, Kerala'], gstin: '32AAACP1234A1ZE' });
    expect(documentNumber(own.series, 2026, 1)).toBe('KB/26-27/000001');
    expect(() => ordersServiceOptions(ordersConfig.loadSettings({ ...base, SELLER_GSTIN: '29AAACP1234A1Z2' }))).toThrow(/SELLER_GSTIN "29AAACP1234A1Z2"/);
    expect(() => ordersConfig.loadSettings({ ...base, INVOICE_PREFIX: 'pb/x' })).toThrow(/INVOICE_PREFIX/);
  });
});
