// The gateway as its own process (distributed mode).
import { createLogger, runServer, startOrExit } from '@persona/service-kit';
import { buildGateway } from './app';
import { gatewayOptions, loadGatewayConfig } from './config';

startOrExit(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const app = await buildGateway({ ...gatewayOptions(config, config.PORT), logger });
  await runServer({ app, port: config.PORT, host: config.HOST, logger });
});
