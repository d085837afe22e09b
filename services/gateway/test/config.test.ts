import { gatewayOptions, loadGatewaySettings } from '../src/config';

const BASE = { JWT_SECRET: 'x'.repeat(32), CATALOGUE_URL: 'http://127.0.0.1:4001' };

describe('the gateway settings', () => {
  it("read the ad network's origins as a list, none by default", () => {
    expect(gatewayOptions(loadGatewaySettings(BASE), 8080).adOrigins).toEqual([]);
    const settings = loadGatewaySettings({ ...BASE, CSP_AD_ORIGINS: 'https://pagead2.googlesyndication.com, https://*.doubleclick.net' });
    expect(gatewayOptions(settings, 8080).adOrigins).toEqual(['https://pagead2.googlesyndication.com', 'https://*.doubleclick.net']);
  });

  it('take the load shedding limits the services share (SHED_*)', () => {
    expect(gatewayOptions(loadGatewaySettings(BASE), 8080).loadShedding).toEqual({
      maxEventLoopDelayMs: 1000,
      maxEventLoopUtilization: 0,
      maxHeapUsedRatio: 0.9,
      maxRssBytes: 0,
      retryAfterS: 5,
    });
    expect(gatewayOptions(loadGatewaySettings({ ...BASE, SHED_RSS_MB: '512' }), 8080).loadShedding?.maxRssBytes).toBe(512 * 1024 * 1024);
    expect(() => loadGatewaySettings({ ...BASE, SHED_EVENT_LOOP_UTILIZATION: '1' })).toThrow(/SHED_EVENT_LOOP_UTILIZATION="1"/);
  });

  it('refuse an ad origin that is not an https origin, naming the setting', () => {
    for (const bad of ['http://ads.example', "'unsafe-inline'", 'https://ads.example/path', 'https://ads.example; script-src *']) {
      expect(() => loadGatewaySettings({ ...BASE, CSP_AD_ORIGINS: bad })).toThrow(/CSP_AD_ORIGINS/);
    }
  });
});
