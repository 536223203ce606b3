import type { Config } from '../../env';
import type { Gateway } from './gateway';
import { mercadoPagoGateway } from './mercadopago';

export type { Gateway, GatewayPayment, GatewayResult, PreferenceInput } from './gateway';

/** The configured gateway (PAYMENT_PROVIDER); `fetchImpl` is injectable so tests use a local fake. */
export function gatewayFor(config: Config, fetchImpl: typeof fetch = fetch): Gateway {
  switch (config.PAYMENT_PROVIDER) {
    case 'mercadopago':
      return mercadoPagoGateway(config, fetchImpl);
  }
}
