export { buildGateway, type GatewayOptions } from './app';
export {
  GatewayConfigSchema,
  GatewaySettingsSchema,
  gatewayOptions,
  loadGatewayConfig,
  loadGatewaySettings,
  type GatewayConfig,
  type GatewaySettings,
} from './config';
