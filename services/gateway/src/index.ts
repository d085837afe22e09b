export { buildGateway, type GatewayOptions } from './app';
export { GatewayConfigSchema, loadGatewayConfig, type GatewayConfig } from './config';
