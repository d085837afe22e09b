// The personalisation service's settings, read the same way in both run modes.
import { personalizationConfig, personalizationServiceOptions } from '../src/config';

const base = { CATALOGUE_URL: 'http://127.0.0.1:3001', INTERNAL_TOKEN: 'i'.repeat(40), JWT_SECRET: 's'.repeat(40) };

describe('personalisation settings', () => {
  it('turns every variable into the option the service uses', () => {
    const options = personalizationServiceOptions(
      personalizationConfig.loadSettings({
        ...base,
        PDF_WORKERS: '3',
        PERSONA_PDF_CACHE_MB: '0.5',
        PERSONA_MAX_ATTEMPTS: '2',
        PERSONA_RETRY_DELAYS_MS: '10,20',
        PERSONAS_DIR: '/srv/personas',
        PREVIEWS_PER_MINUTE: '30',
        PREVIEW_WORKERS: '3',
        PREVIEW_CACHE_MINUTES: '15',
        ADMIN_URL: 'http://127.0.0.1:3004',
        BUILD_WARM_UP: 'false',
      }),
    );
    expect(options).toMatchObject({
      catalogueUrl: base.CATALOGUE_URL,
      internalToken: base.INTERNAL_TOKEN,
      pdfWorkers: 3,
      pdfCacheBytes: 524_288,
      maxAttempts: 2,
      retryDelaysMs: [10, 20],
      personasDir: '/srv/personas',
      publicUrl: 'http://localhost:8080',
      previewsPerMinute: 30,
      previewWorkers: 3,
      warmUp: false,
      previewCacheMs: 900_000,
      jwtSecret: base.JWT_SECRET,
    });
    // An admin token's session is asked after at the admin service.
    expect(options.isRevoked).toEqual(expect.any(Function));
  });

  it('has the same defaults in both run modes, the process adding only where it listens and runs', () => {
    const settings = personalizationConfig.loadSettings(base);
    const processConfig = personalizationConfig.loadProcess({ ...base, DATABASE_URL: 'postgres://db/shop', AMQP_URL: 'amqp://mq' });
    expect(processConfig).toEqual({
      ...settings,
      PORT: 3003,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      DATABASE_URL: 'postgres://db/shop',
      DATABASE_POOLER: 'none',
      AMQP_URL: 'amqp://mq',
    });
    expect(settings.PDF_WORKERS).toBeGreaterThanOrEqual(1);
    expect(settings.PERSONA_PDF_CACHE_MB).toBe(64);
    expect(settings.PREVIEWS_PER_MINUTE).toBe(240);
    expect(settings.PREVIEW_CACHE_MINUTES).toBe(60);
    expect(settings.BUILD_WARM_UP).toBe(true);
  });

  it('refuses a wrong value naming the variable', () => {
    expect(() => personalizationConfig.loadSettings({ ...base, PERSONA_PDF_CACHE_MB: '-1' })).toThrow(/PERSONA_PDF_CACHE_MB="-1"/);
    expect(() => personalizationConfig.loadSettings({ ...base, PDF_WORKERS: 'many' })).toThrow(/PDF_WORKERS="many"/);
    expect(() => personalizationConfig.loadSettings({ ...base, BUILD_WARM_UP: 'sometimes' })).toThrow(/BUILD_WARM_UP="sometimes"/);
    expect(() => personalizationConfig.loadSettings({ ...base, PREVIEWS_PER_MINUTE: '0' })).toThrow(/PREVIEWS_PER_MINUTE="0"/);
    expect(() => personalizationConfig.loadSettings({ ...base, PREVIEW_CACHE_MINUTES: '0' })).toThrow(/PREVIEW_CACHE_MINUTES="0"/);
    expect(() => personalizationConfig.loadSettings({ CATALOGUE_URL: base.CATALOGUE_URL })).toThrow(/INTERNAL_TOKEN is required/);
  });
});
