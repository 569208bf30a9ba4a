import { manualProvider } from './manual.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { stripeProvider } from './stripe.ts';

/** Every provider by name; new subscriptions use BILLING_PROVIDER (see DEFAULT_PROVIDER). */
const providers: ReadonlyMap<string, PaymentProvider> = new Map([
  [manualProvider.name, manualProvider],
  [stripeProvider.name, stripeProvider],
]);

/** Without BILLING_PROVIDER: bank transfers an operator records. */
export const DEFAULT_PROVIDER = manualProvider.name;

export function providerNamed(name: string): PaymentProvider {
  const provider = providers.get(name);
  if (!provider) throw new Error(`no payment provider named ${name}`);
  return provider;
}
