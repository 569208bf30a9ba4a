import { buildNamespaces } from './build-namespaces.ts';
import { buildRequest } from './build-request.ts';
import type { BerthApi } from './generated/api.ts';
import { OPERATIONS, type OperationId } from './generated/operations.ts';
import type { OperationSpec } from './operation-spec.ts';
import { paginate, type ListItem, type ListMethod, type PaginateArgs } from './paginate.ts';
import { readAnswer } from './read-answer.ts';
import type { RequestOptions } from './request-options.ts';
import { mayRetry } from './retry-policy.ts';
import { sendWithRetries } from './send-with-retries.ts';
import { signInForToken, type SignInOptions } from './sign-in.ts';
import { waitForOperation, type OperationDetail, type WaitOptions } from './wait-for-operation.ts';

export type BerthOptions = {
  /** The API's address, e.g. `https://berth.example.com`; default: env BERTH_URL. */
  baseUrl?: string;
  /** An API token (`berth_pat_...`) or an access token of POST /v1/auth/login; default: env BERTH_TOKEN. */
  token?: string;
  /** Retries of a network error, 429, 502, 503 or 504 (default 3). */
  maxRetries?: number;
  /** Another fetch (a proxy agent, a test double); default: the global one. */
  fetch?: typeof fetch;
  userAgent?: string;
};

export const SDK_VERSION = '0.1.0';

function environmentVariable(name: string): string | undefined {
  // no `process` in a browser
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] || undefined;
}

// The namespaces (berth.sites, berth.backups, ...) are made at run time from the operation table;
// this declaration merge gives them their generated types.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Berth extends BerthApi {}

/** A client of the Berth API: one namespace per resource, one method per operation. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Berth {
  readonly baseUrl: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #userAgent: string;

  constructor(options: BerthOptions = {}) {
    const baseUrl = options.baseUrl ?? environmentVariable('BERTH_URL');
    if (!baseUrl) throw new TypeError('Berth: no baseUrl given and BERTH_URL is not set');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#token = options.token ?? environmentVariable('BERTH_TOKEN');
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#maxRetries = options.maxRetries ?? 3;
    this.#userAgent = options.userAgent ?? `berth-sdk-typescript/${SDK_VERSION}`;
    Object.assign(
      this,
      buildNamespaces((operationId, params, callOptions) => this.#invoke(operationId, params ?? {}, callOptions ?? {})),
    );
  }

  /** Signs in as a script (POST /v1/auth/login), through new-device approval and TOTP, and answers a client holding the access token. */
  static async signIn(options: SignInOptions & Omit<BerthOptions, 'token'>): Promise<Berth> {
    const clientOptions = { baseUrl: options.baseUrl, maxRetries: options.maxRetries, fetch: options.fetch, userAgent: options.userAgent };
    // '' and not undefined: a BERTH_TOKEN in the environment must not ride along with a password
    const token = await signInForToken(new Berth({ ...clientOptions, token: '' }), options);
    return new Berth({ ...clientOptions, token });
  }

  /** Every item of a list, page after page: `for await (const site of berth.paginate(berth.sites.list)) ...` */
  paginate<F extends ListMethod>(list: F, ...args: PaginateArgs<F>): AsyncGenerator<ListItem<F>, void, undefined> {
    return paginate(list, args[0]);
  }

  /** Polls GET /v1/operations/{id} until the operation ends; throws OperationFailedError when it failed or was cancelled. */
  waitForOperation(id: string, options?: WaitOptions): Promise<OperationDetail> {
    return waitForOperation((operationId) => this.operations.get({ id: operationId }) as Promise<OperationDetail>, id, options);
  }

  async #invoke(operationId: OperationId, params: Record<string, unknown>, options: RequestOptions): Promise<unknown> {
    const spec: OperationSpec = OPERATIONS[operationId];
    // one key per logical call, reused by its retries: a repeated POST is answered, not done twice
    const idempotencyKey = spec.idempotencyKey ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const request = buildRequest(this.baseUrl, spec, params, { token: this.#token, userAgent: this.#userAgent, idempotencyKey, options });
    const response = await sendWithRetries(request, {
      fetch: this.#fetch,
      maxRetries: this.#maxRetries,
      retryable: mayRetry(spec.method, idempotencyKey !== undefined),
      signal: options.signal,
    });
    return readAnswer(response, spec);
  }
}
