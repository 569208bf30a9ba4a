import { Link } from 'wouter';
import { Notice } from '../../components/ErrorNotice.tsx';
import { money } from './format.ts';
import type { Invoice, Payment } from './types.ts';

/**
 * What the API answered about paying an invoice: paid already, or how to pay it. The manual provider
 * answers bank-transfer instructions; Stripe answers a PaymentIntent's client secret for Stripe.js,
 * which the panel does not load (its CSP allows no third-party script), so it says so.
 */
export function PaymentNotice({ invoice, payment }: { invoice: Invoice; payment: Payment | null }) {
  if (!payment) return null;
  const amount = money(invoice.total_minor - invoice.amount_credited_minor, invoice.currency);
  if (payment.outcome === 'paid')
    return (
      <Notice tone="success">
        Invoice <Link href={`/billing/invoices/${invoice.id}`}>{invoice.number}</Link> is paid.
      </Notice>
    );
  return (
    <Notice tone="info">
      <p>
        Invoice <Link href={`/billing/invoices/${invoice.id}`}>{invoice.number}</Link> ({amount}) waits for payment.
      </p>
      {payment.instructions ? <pre className="billing-instructions">{payment.instructions}</pre> : null}
      {payment.stripe ? (
        <p>
          Card payment ({payment.stripe.payment_intent}) is started with Stripe; it is confirmed in Stripe's checkout, and this invoice turns paid when Stripe
          reports it.
        </p>
      ) : null}
    </Notice>
  );
}
