import type { Response } from 'express';

type WithPayment = { data: { payment?: { stripe?: { client_secret: string | null } } | null } };

/**
 * A PaymentIntent's client secret is for the paying customer's browser, now: the Idempotency-Key
 * replay (kept 24 h in Redis, api/v1/idempotency.ts) answers without it (`client_secret: null`).
 * `POST /v1/billing/invoices/{id}/pay` asks Stripe again and gives it afresh.
 */
export function keepClientSecretOutOfReplay(res: Response): void {
  res.locals.idempotencyRedact = (body: WithPayment) => {
    const stripe = body.data.payment?.stripe;
    if (!stripe) return body;
    return { ...body, data: { ...body.data, payment: { ...body.data.payment, stripe: { ...stripe, client_secret: null } } } };
  };
}
