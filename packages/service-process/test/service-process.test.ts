import type { EventBus } from '@persona/bus';
import type { Database } from '@persona/db';
import { createServiceApp, type Logger } from '@persona/service-kit';
import { startServiceProcess, type ProcessFactories, type ProcessParts } from '../src';

const CONFIG = { LOG_LEVEL: 'warn', DATABASE_URL: 'postgres://db.internal/shop', AMQP_URL: 'amqp://mq.internal', PORT: 3001, HOST: '0.0.0.0', EXTRA: 'x' };

function fakes() {
  const calls: string[] = [];
  const logger = { child: () => logger } as unknown as Logger;
  const factories: ProcessFactories = {
    createLogger: (name, level) => (calls.push(`logger ${name} ${level}`), logger),
    openDatabase: <DB>(url: string, name: string, schema: string) => {
      calls.push(`database ${url} ${name} ${schema}`);
      return { close: async () => void calls.push('database closed') } as unknown as Database<DB>;
    },
    createBus: (url, name) => {
      calls.push(`bus ${url} ${name}`);
      return { close: async () => void calls.push('bus closed') } as unknown as EventBus;
    },
  };
  return { calls, factories };
}

describe('a service as its own process', () => {
  it('reads its config, then opens its schema and the bus under its name, and starts the service on them', async () => {
    const { calls, factories } = fakes();
    const app = createServiceApp({ name: 'catalogue', logger: false });
    const started = await startServiceProcess(
      {
        name: 'catalogue',
        schema: 'catalogue',
        loadConfig: () => (calls.push('config'), CONFIG),
        // The service's options from its configuration, handed to start with the parts.
        options: (config) => ({ extra: `${config.EXTRA}!` }),
        start: async ({ config, extra }: ProcessParts<typeof CONFIG, unknown> & { extra: string }) => {
          calls.push(`start with ${config.EXTRA} and ${extra}`);
          return { app, close: async () => undefined };
        },
      },
      factories,
    );
    expect(calls).toEqual([
      'config',
      'logger catalogue warn',
      'database postgres://db.internal/shop catalogue catalogue',
      'bus amqp://mq.internal catalogue',
      'start with x and x!',
    ]);
    expect(started.service.app).toBe(app);
    await app.close();
  });

  it('shuts down in order: the service (with the message grace), then the bus, then the database', async () => {
    const { calls, factories } = fakes();
    const app = createServiceApp({ name: 'orders', logger: false });
    const started = await startServiceProcess(
      {
        name: 'orders',
        schema: 'orders',
        loadConfig: () => CONFIG,
        start: async () => ({ app, close: async (o) => void calls.push(`service closed, grace ${o?.graceMs}`) }),
      },
      factories,
    );
    calls.length = 0;
    await started.onShutdown({ graceMs: 4000 });
    expect(calls).toEqual(['service closed, grace 4000', 'bus closed', 'database closed']);
    await app.close();
  });

  it('fails before touching anything when the config is refused', async () => {
    const { calls, factories } = fakes();
    const refused = startServiceProcess(
      {
        name: 'admin',
        schema: 'admin',
        loadConfig: () => {
          throw new Error('DATABASE_URL is required');
        },
        start: async () => {
          throw new Error('never');
        },
      },
      factories,
    );
    await expect(refused).rejects.toThrow('DATABASE_URL is required');
    expect(calls).toEqual([]);
  });
});
