/** Per-call options, the second argument of every operation method. */
export type RequestOptions = {
  /** Sent as `Idempotency-Key` instead of the one the client makes up (on operations that take one). */
  idempotencyKey?: string;
  /** Aborts the request and any wait between retries. */
  signal?: AbortSignal;
  /** Extra headers, e.g. `Cookie` and `X-CSRF-Token` on the panel's cookie surface, or a `Content-Type` of your own. */
  headers?: Record<string, string>;
};

/** A request body that is not JSON (an upload, an agent stream part): sent as given. */
export type BinaryBody = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | string;
