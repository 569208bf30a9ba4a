import type { z } from 'zod';
import { SchemaComponents, type JsonSchema } from './components.ts';
import type { ResponseDoc, RouteDoc } from './documented-router.ts';

export type HeaderDoc = { description: string; schema: Record<string, unknown> };

/**
 * What every route of a surface shares, so each route declares only what is its own: headers on
 * every answer, request headers, and answers any route can give (a route's own declaration of a
 * status wins over the convention's).
 */
export type SurfaceConventions = {
  responseHeaders?: (doc: RouteDoc, status: number) => Record<string, HeaderDoc>;
  parameters?: (doc: RouteDoc) => Array<Record<string, unknown>>;
  responses?: (doc: RouteDoc) => Record<number, ResponseDoc & { example?: unknown }>;
};

/** A mounted group of routes. */
export type Surface = { prefix: string; docs: RouteDoc[]; conventions?: SurfaceConventions };

const csrfHeader = {
  name: 'X-CSRF-Token',
  in: 'header',
  required: true,
  description: 'The value of the svc_csrf cookie (double submit). The request must also carry an Origin (or Referer) equal to PUBLIC_URL.',
  schema: { type: 'string' },
};

export const rateLimitHeaders: Record<string, HeaderDoc> = Object.fromEntries(
  [
    ['X-RateLimit-Limit', 'Requests allowed in the window'],
    ['X-RateLimit-Remaining', 'Requests left in the window'],
    ['X-RateLimit-Reset', 'End of the window, Unix seconds'],
  ].map(([name, description]) => [name, { description, schema: { type: 'integer' } }]),
);

/** What a 415 means on every surface: the JSON body parser refuses what it cannot decode. */
export const UNREADABLE_BODY_DOC = 'a body in a charset (`Content-Type: ...; charset=`) or a `Content-Encoding` the server does not read';

/** A file's bytes, in a request or an answer. */
const binarySchema = { type: 'string', format: 'binary' };

/** The OpenAPI 3.1 document of the given surfaces, built from their route declarations. */
export function buildOpenApiDocument(options: {
  publicUrl: string;
  version: string;
  surfaces: Surface[];
  /** The `webhooks` section, its bodies' schemas converted by the given function (answers' form). */
  webhooks: (schemaOf: (schema: z.ZodType) => JsonSchema) => Record<string, unknown>;
}): Record<string, unknown> {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const surface of options.surfaces) {
    for (const doc of surface.docs) {
      // Refused at boot: two calls of one name would make the SDKs' generated methods collide.
      if (operationIds.has(doc.operationId)) throw new Error(`operationId ${doc.operationId} is declared twice`);
      operationIds.add(doc.operationId);
      const path = `${surface.prefix}${doc.path}`.replace(/:(\w+)/g, '{$1}');
      paths[path] ??= {};
      paths[path][doc.method] = operation(doc, surface.conventions ?? {}, components);
    }
  }
  const webhooks = options.webhooks((schema) => components.convert(schema, 'output'));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Berth API',
      version: options.version,
      description:
        'Berth, the control plane of a WordPress hosting company. The authentication surface (`/api/v1/auth`) follows the published ' +
        'specification exactly: cookie sessions (`svc_access`, `svc_refresh`, `svc_csrf`), `{detail, code}` error bodies. ' +
        'Decisions the specification leaves open are written in each operation and in docs/decisions.md.',
    },
    servers: [{ url: options.publicUrl }],
    tags: [
      { name: 'me', description: 'The caller of the general API' },
      { name: 'auth', description: 'Signing in to the general API as a script: tokens for a bearer, device approval' },
      { name: 'sessions', description: "The caller's sessions: listed, ended one by one or all at once" },
      { name: 'api tokens', description: 'Long-lived tokens for scripts, scoped to a subset of the role, shown once' },
      { name: 'teams', description: 'Teams, their settings, and switching between them' },
      { name: 'members', description: "A team's members and their roles" },
      { name: 'invites', description: 'Invitations to join a team, by e-mail' },
      { name: 'roles', description: "A team's roles: the built-in ones and custom ones, each a set of permissions" },
      { name: 'activity', description: "The team's audit log: who did what, when and from where (append-only)" },
      { name: 'operations', description: 'Long work (202 answers): its status, steps, progress and logs; cancelling it' },
      { name: 'nodes', description: 'The hosting fleet (operators): nodes, their enrollment over SSH, draining and metrics' },
      { name: 'backups', description: "An environment's backups: taken by hand or on a schedule, restored, downloaded, deleted" },
      { name: 'billing', description: 'Plans, subscriptions, add-ons, invoices, credit notes, billing profile and payment' },
      { name: 'permissions', description: 'The permission catalogue' },
      { name: 'agent', description: 'The agent protocol: for the Berth agent on each node, not for customers' },
      {
        name: 'sites',
        description:
          'WordPress sites. Every change is an operation (202 with `Location: /v1/operations/{id}`); operations on one environment run one ' +
          "at a time. 402 `PAYMENT_REQUIRED` (`details.limit`: `plan`, `max_sites` or `max_disk_bytes`) when the team's plan has no room.",
      },
      {
        name: 'environments',
        description: 'Production, staging and development: copies on the same node, pushes between them, PHP versions, restarts. `{env}` is the kind.',
      },
      { name: 'wordpress', description: "What an environment runs (its last inventory), its plugins and themes, changed through WordPress's own code" },
      { name: 'uploads', description: 'Plugin and theme packages, uploaded once, installed by reference (`upload_id`), kept 24 hours' },
      { name: 'plans', description: "What a team's plan allows (entitlements)" },
      { name: 'domains', description: "Custom domains of environments: verified, then served by the node's edge" },
      { name: 'dns', description: "DNS zones hosted on Berth's name servers, and their record sets" },
      {
        name: 'webhooks',
        description: "Endpoints that receive the team's events, signed the Standard Webhooks way; their delivery logs. The events are in `webhooks`.",
      },
      { name: 'sftp', description: "SFTP users of environments, jailed to the environment's files and served by the node's agent" },
      { name: 'auth: status', description: 'Health of the service' },
      { name: 'auth: sign-in', description: 'Two-step login and the session cookies' },
      { name: 'auth: registration', description: 'Door A (new team) and Door B (invite)' },
      { name: 'auth: recovery', description: 'E-mail verification and password reset' },
      { name: 'auth: two-factor', description: 'TOTP and backup codes' },
      { name: 'auth: devices', description: 'New-device approval, login activity and trusted devices' },
      { name: 'auth: login risk', description: 'Suspicious-login alerts and concurrent-login approval' },
    ],
    paths,
    webhooks,
    components: {
      schemas: components.schemas(),
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'svc_access', description: 'EdDSA JWT, 6 hours, set by POST /api/v1/auth/session-exchange' },
        refreshCookie: { type: 'apiKey', in: 'cookie', name: 'svc_refresh', description: 'Opaque, rotated by every POST /api/v1/auth/refresh' },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from POST /v1/auth/login (6 hours), or an API token (`berth_pat_...`). Pre-auth and refresh tokens are refused.',
        },
        agentToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'Agents only: an EdDSA JWT the agent signs with the Ed25519 key it registered at enrollment (`kid` and `sub` = node id, `aud` berth-agent-api, at most 60 s).',
        },
      },
    },
  };
}

/**
 * A query value the route reads as digits and parses to an integer (`?page=2`) is an integer to
 * clients: the parsed side's bounds and default, not the digit pattern the query string is checked with.
 */
function asQueryInteger(raw: Record<string, unknown>, parsed: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const digitsOnly = raw.type === 'string' && typeof raw.pattern === 'string' && /^\^(\[1-9\])?\\d\{\d+,\d+\}\$$/.test(raw.pattern);
  if (!digitsOnly) return undefined;
  // A value parsed without bounds of its own is bounded by its digits: no sign, no leading zero with [1-9].
  const { minimum = (raw.pattern as string).startsWith('^[1-9]') ? 1 : 0, maximum, default: fallback } = parsed?.type === 'integer' ? parsed : {};
  return {
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    type: 'integer',
    ...(minimum !== undefined && minimum !== Number.MIN_SAFE_INTEGER ? { minimum } : {}),
    ...(maximum !== undefined && maximum !== Number.MAX_SAFE_INTEGER ? { maximum } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

function queryParameters(query: z.ZodObject | undefined, components: SchemaComponents): Array<Record<string, unknown>> {
  if (!query) return [];
  type ObjectSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const schema = components.convert(query, 'input') as ObjectSchema;
  const parsed = components.convert(query, 'output') as ObjectSchema;
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: asQueryInteger(property, parsed.properties?.[name]) ?? property,
  }));
}

function operation(doc: RouteDoc, conventions: SurfaceConventions, components: SchemaComponents): Record<string, unknown> {
  const description = [
    doc.description,
    doc.csrf ? '**CSRF:** header `X-CSRF-Token` equal to the `svc_csrf` cookie, and an Origin equal to PUBLIC_URL; else 403 `csrf_mismatch`.' : undefined,
    doc.permission ? `**Permission:** \`${doc.permission}\`; without it 403 \`AUTHORIZATION_ERROR\` (\`details.reason: missing_permission\`).` : undefined,
    doc.operator
      ? "**Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`."
      : undefined,
    doc.rateLimited ? '**Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.' : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
  const pathParameters = [...doc.path.matchAll(/:(\w+)/g)].map(([, name]) => {
    const declared = doc.params?.[name!];
    // Refused at boot: an undeclared parameter would reach clients as an untyped string.
    if (!declared) throw new Error(`${doc.method.toUpperCase()} ${doc.path} does not declare its path parameter ${name} (params)`);
    return { name, in: 'path', required: true, description: declared.description, schema: declared.schema };
  });
  const parameters = [
    ...pathParameters,
    ...(doc.csrf ? [csrfHeader] : []),
    ...(conventions.parameters?.(doc) ?? []),
    ...queryParameters(doc.query, components),
  ];
  const responses: Record<number, ResponseDoc & { example?: unknown }> = { ...conventions.responses?.(doc), ...doc.responses };
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(description ? { description } : {}),
    tags: doc.tags,
    security: doc.security ? doc.security.map((scheme) => ({ [scheme]: [] })) : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body ? { requestBody: { required: !doc.bodyOptional, content: { 'application/json': { schema: components.convert(doc.body, 'input') } } } } : {}),
    ...(doc.rawBody
      ? {
          requestBody: {
            required: true,
            description: doc.rawBody.description,
            content: Object.fromEntries(doc.rawBody.mediaTypes.map((type) => [type, { schema: binarySchema }])),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, response]) => {
        const headers = { ...(doc.rateLimited ? rateLimitHeaders : {}), ...conventions.responseHeaders?.(doc, Number(status)), ...response.headers };
        const media = response.schema
          ? { schema: components.convert(response.schema, 'output'), ...(response.example === undefined ? {} : { example: response.example }) }
          : undefined;
        return [
          status,
          {
            description: response.description,
            ...(Object.keys(headers).length > 0 ? { headers } : {}),
            ...(media ? { content: { 'application/json': media } } : {}),
            ...(response.binary ? { content: { [response.binary]: { schema: binarySchema } } } : {}),
            ...(response.eventStream
              ? {
                  content: {
                    'text/event-stream': {
                      schema: { type: 'string', description: response.eventStream.description },
                      'x-item-schema': components.convert(response.eventStream.event, 'output'),
                    },
                  },
                }
              : {}),
          },
        ];
      }),
    ),
  };
}
