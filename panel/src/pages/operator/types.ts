import type { OperationTypes } from '@berth/sdk';

export type Node = OperationTypes['nodes.get']['result'];
export type NodeStatus = Node['status'];
export type SshBody = OperationTypes['nodes.create']['params']['body']['ssh'];
export type AdminInvoice = OperationTypes['invoices.listAll']['result']['data'][number];
export type AdminCreditNote = OperationTypes['creditNotes.listAll']['result']['data'][number];
export type AdminPlan = OperationTypes['plans.listAll']['result'][number];
export type AdminAddon = OperationTypes['addons.listAll']['result'][number];
