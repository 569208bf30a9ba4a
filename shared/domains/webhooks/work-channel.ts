/**
 * The Postgres channel a committed webhook event (or a delivery asked for by hand) notifies, by the
 * triggers of migrations/20261207100000_webhook_work_notify.ts: the workers LISTEN on it and
 * dispatch at once instead of at their next poll.
 */
export const WEBHOOK_WORK_CHANNEL = 'berth_webhook_work';
