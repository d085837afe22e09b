// The print provider PRINT_PROVIDER names (issue 27), from the service's options: the shop's own
// courier, or the print house with its settings (all required: a half-configured house would take
// no job and say nothing).
import { printHouse, type PrintHouseSettings } from './print-house';
import { ownCourier, type PrintProvider } from './print-provider';

export interface PrintOptions {
  provider: 'own-courier' | 'print-house';
  url?: string;
  clientKey?: string;
  clientSecret?: string;
  podPackageId?: string;
  shippingLevel?: string;
}

export function createPrintProvider(options: PrintOptions | undefined, contactEmail: string, internalToken: string | undefined): PrintProvider {
  if (!options || options.provider === 'own-courier') return ownCourier;
  const missing = [
    !options.url && 'PRINT_HOUSE_URL',
    !options.clientKey && 'PRINT_HOUSE_CLIENT_KEY',
    !options.clientSecret && 'PRINT_HOUSE_CLIENT_SECRET',
    // The house fetches the print files at addresses only INTERNAL_TOKEN can sign.
    !internalToken && 'INTERNAL_TOKEN',
  ].filter(Boolean);
  if (missing.length > 0) throw new Error(`PRINT_PROVIDER=print-house needs ${missing.join(', ')}`);
  const settings: PrintHouseSettings = {
    url: options.url!,
    clientKey: options.clientKey!,
    clientSecret: options.clientSecret!,
    contactEmail,
    ...(options.podPackageId ? { podPackageId: options.podPackageId } : {}),
    ...(options.shippingLevel ? { shippingLevel: options.shippingLevel } : {}),
  };
  return printHouse(settings);
}
