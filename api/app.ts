import express, { type Express } from 'express';
import type { Context } from '../shared/context.ts';
import type { PrincipalCache } from '../shared/domains/auth/principal-cache.ts';
import { authErrorHandler } from './auth/auth-errors.ts';
import { authConventions } from './auth/auth-responses.ts';
import { AUTH_PREFIX, authRoutes } from './auth/auth.routes.ts';
import { AGENT_PREFIX, agentRoutes } from './agent/agent.routes.ts';
import { AGENT_RESULT_BODY_LIMIT, agentConventions } from './agent/agent.schemas.ts';
import { rateLimitPerIp } from './middleware/rate-limit.ts';
import { requireProtocol } from './agent/agent-auth.ts';
import { agentErrorHandler } from './agent/agent-errors.ts';
import { v1ErrorHandler } from './v1/v1-errors.ts';
import { noStore, V1_PREFIX, v1Routes } from './v1/v1.routes.ts';
import { indexedRoutes } from './openapi/route-index.ts';
import { isUploadRequest } from './uploads/uploads.routes.ts';
import { isStripeWebhookRequest } from './billing/stripe-webhook.routes.ts';
import { v1Conventions } from './v1/v1-conventions.ts';
import { identifyPrincipal } from './v1/principal.ts';
import { v1RateLimit } from './v1/rate-limit.ts';
import { idempotency } from './v1/idempotency.ts';
import { auditTrail } from './v1/audit.ts';
import { metaOf } from './v1/envelope.ts';
import { docsRoutes } from './openapi/docs.routes.ts';
import { buildOpenApiDocument } from './openapi/openapi.ts';
import { webhookEventDocs } from './webhooks/webhook-events.ts';
import packageJson from '../package.json' with { type: 'json' };
import { requestContext } from './middleware/request-context.ts';
import { refuseNulCharacters } from './middleware/refuse-nul.ts';
import { panelRoutes } from './panel/panel.routes.ts';
import { forgetCallersAfterWrites } from './middleware/forget-callers.ts';

/** Bodies are small JSON documents; anything larger is refused (413) before it is parsed or hashed. */
export const JSON_BODY_LIMIT = '16kb';
/** Agents post command results, which may carry a file's contents; each agent route reads its own body (api/agent). */
export const AGENT_BODY_LIMIT = AGENT_RESULT_BODY_LIMIT;

/** `principals`: the callers this process has verified (see createPrincipalCache); the server owns and closes it. */
export function buildApp(ctx: Context, principals: PrincipalCache): Express {
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For is believed only from the listed proxies; otherwise req.ip is the peer.
  app.set('trust proxy', ctx.config.trustedProxies.length > 0 ? ctx.config.trustedProxies : false);
  app.use(requestContext(ctx.logger));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });

  const authSurface = authRoutes(ctx);
  const v1Surface = v1Routes(ctx);
  const agentSurface = agentRoutes(ctx);
  const surfaces = [
    { prefix: AUTH_PREFIX, docs: authSurface.docs, conventions: authConventions },
    { prefix: V1_PREFIX, docs: v1Surface.docs, conventions: v1Conventions },
    { prefix: AGENT_PREFIX, docs: agentSurface.docs, conventions: agentConventions },
  ];
  app.use(docsRoutes(buildOpenApiDocument({ publicUrl: ctx.config.publicUrl, version: packageJson.version, surfaces, webhooks: webhookEventDocs })));

  // Each surface parses its own bodies, so a bad body is answered in that surface's error shape.
  const auth = express.Router();
  auth.use(forgetCallersAfterWrites(principals), express.json({ limit: JSON_BODY_LIMIT }), refuseNulCharacters);
  auth.use(authSurface.router);
  auth.use((req, res) => {
    res.status(404).json({ detail: `No endpoint ${req.method} ${req.baseUrl}${req.path}`, code: 'not_found' });
  });
  auth.use(authErrorHandler);
  app.use(AUTH_PREFIX, auth);

  // /v1/agent (before /v1): agents only, counted per client IP, protocol version first. Each route
  // reads its body itself once the agent is authenticated (enrollment: once the enroll limit passes).
  const agent = express.Router();
  agent.use(rateLimitPerIp(ctx.rateLimit, 'agent', ctx.config.rateLimits.agent), requireProtocol);
  agent.use(agentSurface.router);
  agent.use((req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: `No endpoint ${req.method} ${req.baseUrl}${req.path}`, details: {} }, meta: metaOf(req) });
  });
  agent.use(agentErrorHandler);
  app.use(AGENT_PREFIX, agent);

  // /v1: find the caller, count the request against them, read a JSON body, record unsafe requests
  // in the team's audit trail as they are answered, replay idempotent repeats, then route. An
  // upload's bytes are read by its route, after the permission check, as a stream. Stripe's webhook
  // reads its own raw bytes (its signature covers them) and is made idempotent by the event id.
  const v1 = express.Router();
  const json = express.json({ limit: JSON_BODY_LIMIT });
  const v1Json: express.RequestHandler = (req, res, next) => (isStripeWebhookRequest(req) ? next() : json(req, res, next));
  const readsOwnBody = (req: express.Request) => isUploadRequest(req) || isStripeWebhookRequest(req);
  v1.use(
    forgetCallersAfterWrites(principals),
    identifyPrincipal(ctx, principals),
    v1RateLimit(ctx),
    v1Json,
    auditTrail(ctx),
    refuseNulCharacters,
    idempotency(ctx, { streamed: readsOwnBody }),
  );
  v1.use(noStore, indexedRoutes(v1Surface));
  v1.use((req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: `No endpoint ${req.method} ${req.baseUrl}${req.path}`, details: {} }, meta: metaOf(req) });
  });
  v1.use(v1ErrorHandler);
  app.use(V1_PREFIX, v1);

  // the web panel (panel/): what a browser gets at / and at every page path
  app.use(panelRoutes());

  app.use((req, res) => {
    res.status(404).json({ detail: `No endpoint ${req.method} ${req.path}`, code: 'not_found' });
  });
  app.use(authErrorHandler);
  return app;
}
