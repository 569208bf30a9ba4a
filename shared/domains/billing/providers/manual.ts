import type { InvoiceRow } from '../rows.ts';
import type { Collection, PaymentProvider, RefundOutcome, RetryOutcome } from './payment-provider.ts';

/**
 * Bank transfer: nothing is charged. The customer transfers the total with the invoice number as
 * the reference; an operator sees the money arrive and marks the invoice paid
 * (`POST /v1/billing/invoices/{id}/mark-paid`), which activates the subscription.
 */
export const manualProvider: PaymentProvider = {
  name: 'manual',
  async collect(invoice: InvoiceRow): Promise<Collection> {
    // No I/O: the deps a provider may use are not needed here.
    return { outcome: 'pending', instructions: this.paymentInstructions(invoice)! };
  },
  async retry(): Promise<RetryOutcome> {
    // Nothing to charge: the dunning mail reminds the customer to transfer the money.
    return { outcome: 'reminded' };
  },
  async refund(): Promise<RefundOutcome> {
    // The operator transfers the money back; the credit note records the amount.
    return { outcome: 'not_applicable' };
  },
  paymentInstructions(invoice: InvoiceRow): string {
    return `Pay by bank transfer with the reference ${invoice.number ?? ''}; the invoice is marked paid when the transfer arrives.`;
  },
};
