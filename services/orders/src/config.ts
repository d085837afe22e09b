// The orders service's configuration, the only reader of its environment in
// either run mode: its own process (server.ts) and the embedded shop both
// build the service's options from `ordersServiceOptions`.
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { adminTokenOptions, CommonConfig, serviceConfig, ServiceSettings, sharedServiceOptions } from '@persona/service-kit';
import { DEFAULT_SELLER, invoiceSettings } from './modules/invoices/order-invoice';
import { DEFAULT_POD_PACKAGE } from './modules/printing/print-house';
import { DEFAULT_RETENTION } from './modules/retention/retention';
import type { OrdersServiceOptions } from './service';

/** What the service needs in either run mode (`ordersConfig.settings`, `loadSettings`), and its own process's schema (the settings, where it listens, what it runs on: `process`, `loadProcess`). */
export const ordersConfig = serviceConfig(
  Type.Object({
    ...ServiceSettings,
    JWT_SECRET: CommonConfig.JWT_SECRET,
    ADMIN_URL: CommonConfig.ADMIN_URL,
    /** The services' shared secret: the catalogue's checkout answer (prices in paise) is read with it. */
    INTERNAL_TOKEN: Type.String({ minLength: 32 }),
    CATALOGUE_URL: Type.String({ pattern: '^https?://' }),
    /** The address buyers use; links in e-mails are built from it. Live payments are refused while it is local (selling-refusal.ts). */
    PUBLIC_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:8080' }),
    /** `test` forces test mode; without live keys the shop is in test mode anyway. */
    PAYMENTS_MODE: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('test')])),
    RAZORPAY_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
    RAZORPAY_KEY_SECRET: Type.Optional(Type.String({ minLength: 1 })),
    RAZORPAY_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 1 })),
    /** smtp(s)://user:pass@host:port; without it e-mails are written as .eml files to MAIL_DIR. */
    SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
    MAIL_FROM: Type.String({ default: 'Persona Books <orders@persona-books.local>' }),
    MAIL_DIR: Type.String({ default: path.resolve('data/mail') }),
    /** Where buyers write with questions; every e-mail names it. */
    SUPPORT_EMAIL: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', default: 'support@personabooks.in' }),
    /** The seller on every tax invoice: its legal name, its address (lines joined by "|"), its GSTIN (its state is the first two digits). */
    SELLER_NAME: Type.String({ minLength: 1, default: DEFAULT_SELLER.name }),
    SELLER_ADDRESS: Type.String({ minLength: 1, default: DEFAULT_SELLER.address }),
    SELLER_GSTIN: Type.String({ minLength: 15, maxLength: 15, default: DEFAULT_SELLER.gstin }),
    /** Razorpay's refund speed: normal (5–7 working days) or optimum (instant where the buyer's bank allows; Razorpay charges a fee). */
    REFUND_SPEED: Type.Union([Type.Literal('normal'), Type.Literal('optimum')], { default: 'normal' }),
    /**
     * Who prints a printed Persona (issue 27): own-courier (the shop's printer and courier, from the
     * dispatch list) or print-house (a print-on-demand house with Lulu's Print API: PRINT_HOUSE_*).
     */
    PRINT_PROVIDER: Type.Union([Type.Literal('own-courier'), Type.Literal('print-house')], { default: 'own-courier' }),
    PRINT_HOUSE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
    PRINT_HOUSE_CLIENT_KEY: Type.Optional(Type.String({ minLength: 1 })),
    /** Also the secret the house's webhooks are signed with (HMAC-SHA256). */
    PRINT_HOUSE_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
    /** The house's product code (trim, colour, binding, paper, cover finish); A5 paperback on 60# white by default. */
    PRINT_HOUSE_POD_PACKAGE: Type.String({ pattern: '^[0-9A-Z]{27}$', default: DEFAULT_POD_PACKAGE }),
    PRINT_HOUSE_SHIPPING_LEVEL: Type.Union(
      [Type.Literal('MAIL'), Type.Literal('PRIORITY_MAIL'), Type.Literal('GROUND'), Type.Literal('EXPEDITED'), Type.Literal('EXPRESS')],
      { default: 'MAIL' },
    ),
    /** The invoice numbers' prefix: PB gives PB/26-27/000123 (at most 16 characters in all). */
    INVOICE_PREFIX: Type.String({ pattern: '^[A-Z0-9]{1,5}$', default: 'PB' }),
    /** Retention (modules/retention): days an e-mail's body is kept after sending (the row of an order's e-mail stays). */
    EMAIL_BODY_RETENTION_DAYS: Type.Number({ minimum: 1, maximum: 3650, default: DEFAULT_RETENTION.emailBodyDays }),
    /** Days a handled payment webhook is kept. */
    WEBHOOK_EVENTS_RETENTION_DAYS: Type.Number({ minimum: 1, maximum: 3650, default: DEFAULT_RETENTION.webhookEventDays }),
    /** Days a payment attempt is kept (longer while its order has a refund under way). */
    PAYMENT_ATTEMPTS_RETENTION_DAYS: Type.Number({ minimum: 1, maximum: 3650, default: DEFAULT_RETENTION.paymentAttemptDays }),
    /** Days a library link or session is kept after it expired. */
    LIBRARY_TOKENS_RETENTION_DAYS: Type.Number({ minimum: 1, maximum: 3650, default: DEFAULT_RETENTION.libraryTokenDays }),
  }),
  3002,
);
export type OrdersSettings = Static<typeof ordersConfig.settings>;
export type OrdersConfig = Static<typeof ordersConfig.process>;

/** The service's options from its settings; the run mode adds the database, the bus and the logger. */
export function ordersServiceOptions(settings: OrdersSettings): Omit<OrdersServiceOptions, 'database' | 'bus' | 'logger'> {
  return {
    ...sharedServiceOptions(settings),
    ...adminTokenOptions(settings),
    catalogueUrl: settings.CATALOGUE_URL,
    publicUrl: settings.PUBLIC_URL,
    internalToken: settings.INTERNAL_TOKEN,
    payments: {
      mode: settings.PAYMENTS_MODE,
      keyId: settings.RAZORPAY_KEY_ID,
      keySecret: settings.RAZORPAY_KEY_SECRET,
      webhookSecret: settings.RAZORPAY_WEBHOOK_SECRET,
    },
    mail: { smtpUrl: settings.SMTP_URL, dir: settings.MAIL_DIR, from: settings.MAIL_FROM },
    supportEmail: settings.SUPPORT_EMAIL,
    refundSpeed: settings.REFUND_SPEED,
    print: {
      provider: settings.PRINT_PROVIDER,
      url: settings.PRINT_HOUSE_URL,
      clientKey: settings.PRINT_HOUSE_CLIENT_KEY,
      clientSecret: settings.PRINT_HOUSE_CLIENT_SECRET,
      podPackageId: settings.PRINT_HOUSE_POD_PACKAGE,
      shippingLevel: settings.PRINT_HOUSE_SHIPPING_LEVEL,
    },
    retention: {
      emailBodyDays: settings.EMAIL_BODY_RETENTION_DAYS,
      webhookEventDays: settings.WEBHOOK_EVENTS_RETENTION_DAYS,
      paymentAttemptDays: settings.PAYMENT_ATTEMPTS_RETENTION_DAYS,
      libraryTokenDays: settings.LIBRARY_TOKENS_RETENTION_DAYS,
    },
    invoicing: invoiceSettings({ name: settings.SELLER_NAME, address: settings.SELLER_ADDRESS, gstin: settings.SELLER_GSTIN, prefix: settings.INVOICE_PREFIX }),
  };
}
