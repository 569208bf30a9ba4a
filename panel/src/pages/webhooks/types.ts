import type { OperationTypes } from '@berth/sdk';

export type WebhookEndpoint = OperationTypes['webhooks.get']['result'];
export type EventType = OperationTypes['webhooks.listEventTypes']['result'][number];
export type Delivery = OperationTypes['webhookDeliveries.list']['result']['data'][number];
export type DeliveryDetail = OperationTypes['webhookDeliveries.get']['result'];
export type Attempt = DeliveryDetail['attempts_log'][number];
