import type { OperationTypes } from '@berth/sdk';

export type Plan = OperationTypes['plans.list']['result'][number];
export type Addon = OperationTypes['addons.list']['result'][number];
export type Subscription = OperationTypes['subscription.get']['result'];
export type HeldAddon = OperationTypes['subscriptionAddons.list']['result']['addons'][number];
export type Invoice = OperationTypes['invoices.list']['result']['data'][number];
export type InvoiceDetail = OperationTypes['invoices.get']['result'];
export type CreditNote = OperationTypes['creditNotes.list']['result']['data'][number];
export type Payment = OperationTypes['invoices.pay']['result']['payment'];
export type Limits = Plan['entitlements'];
export const invoiceStatuses = ['open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];
