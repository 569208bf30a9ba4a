import { AddonsSection } from './AddonsSection.tsx';
import { BillingFrame } from './BillingFrame.tsx';
import { EntitlementsSection } from './EntitlementsSection.tsx';
import { InvoicesSection } from './InvoicesSection.tsx';
import { SubscriptionSection } from './SubscriptionSection.tsx';

/** The team's plan, add-ons, limits and invoices. */
export default function BillingPage() {
  return (
    <BillingFrame title="Billing">
      <SubscriptionSection />
      <AddonsSection />
      <EntitlementsSection />
      <InvoicesSection />
    </BillingFrame>
  );
}
