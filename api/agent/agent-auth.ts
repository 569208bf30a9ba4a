import type { NextFunction, Request, Response } from 'express';
import { decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey } from 'jose';
import type { Context } from '../../shared/context.ts';
import type { Node } from '../../shared/db/models.ts';
import { findEnrolledNode } from '../../shared/domains/nodes/enrollment.ts';
import {
  AGENT_TOKEN_AUDIENCE,
  AGENT_TOKEN_TTL_SECONDS,
  MIN_PROTOCOL_VERSION,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
} from '../../shared/agent-protocol/protocol.ts';
import { DomainError, NotAuthenticated, RateLimited } from '../../shared/errors.ts';
import { ipBucketOf } from '../../shared/ip-bucket.ts';
import { createRateLimitPeek } from '../../shared/rate-limit.ts';
import { clientIp } from '../middleware/request-context.ts';

/** An agent speaking a protocol this control plane does not: 426 with what is supported. */
export class ProtocolMismatch extends DomainError {
  readonly received: string | null;
  constructor(received: string | null) {
    super(
      received === null
        ? `Send the ${PROTOCOL_HEADER} header; this control plane speaks agent protocol ${MIN_PROTOCOL_VERSION} to ${PROTOCOL_VERSION}`
        : `Agent protocol ${received} is not supported; this control plane speaks ${MIN_PROTOCOL_VERSION} to ${PROTOCOL_VERSION}: upgrade the agent`,
    );
    this.received = received;
  }
}

/** The node was disabled by an operator: refused at once, whatever its token. */
export class NodeDisabled extends DomainError {
  constructor() {
    super('This node is disabled by an operator; its agent is refused until it is enabled again');
  }
}

/** Every agent request names its protocol version; an unknown one is refused before anything else. */
export function requireProtocol(req: Request, res: Response, next: NextFunction): void {
  const header = req.get(PROTOCOL_HEADER) ?? null;
  const version = header !== null && /^\d{1,4}$/.test(header) ? Number(header) : NaN;
  if (!(version >= MIN_PROTOCOL_VERSION && version <= PROTOCOL_VERSION)) throw new ProtocolMismatch(header);
  res.locals.protocolVersion = version;
  next();
}

/** The bucket of failed agent authentications (per client IP, an IPv6 client's /64). */
const AUTH_FAILURES_BUCKET = 'agent_auth_failed';

/**
 * The agent's bearer token: an EdDSA JWT it signed with the key it registered, naming its node in
 * `kid` and `sub`, for our audience, living at most AGENT_TOKEN_TTL_SECONDS (plus clock skew). The
 * node is read on every request, so disabling it cuts it off at the next one. Runs before the body
 * is read. Failures count per client IP (RATE_LIMIT_AGENT_AUTH_FAILURES); an IP past the limit gets
 * 429 before its token is looked at (successful authentications never count).
 */
export function authenticateAgent(ctx: Context) {
  const verify = verifyAgentToken(ctx);
  const peek = createRateLimitPeek(ctx.redis, ctx.config.redisPrefix);
  const rule = ctx.config.rateLimits.agentAuthFailures;
  return async (req: Request, res: Response, next: NextFunction) => {
    const subject = ipBucketOf(clientIp(req));
    const failures = await peek(AUTH_FAILURES_BUCKET, subject).catch(() => null);
    if (failures && failures.count >= rule.limit) throw new RateLimited(failures.retryAfterSeconds);
    try {
      await verify(req, res);
    } catch (error) {
      if (error instanceof NotAuthenticated) {
        await ctx
          .rateLimit(AUTH_FAILURES_BUCKET, subject, rule)
          .catch((failure: unknown) => req.log.error({ err: (failure as Error).message }, 'rate limiter unavailable'));
      }
      throw error;
    }
    next();
  };
}

function verifyAgentToken(ctx: Context) {
  const keys = new Map<string, { x: string; key: CryptoKey | Uint8Array }>();
  return async (req: Request, res: Response): Promise<void> => {
    const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(req.get('authorization') ?? '');
    if (!match) throw new NotAuthenticated('Send Authorization: Bearer <agent token>');
    const token = match[1]!;
    let nodeId: string;
    try {
      nodeId = String(decodeProtectedHeader(token).kid ?? '');
    } catch {
      throw new NotAuthenticated('Malformed agent token');
    }
    if (!/^[0-9a-f-]{36}$/.test(nodeId)) throw new NotAuthenticated('Agent token must name its node in kid');
    const node = await findEnrolledNode(ctx.db, nodeId);
    if (!node) throw new NotAuthenticated('Unknown or unenrolled node');
    let cached = keys.get(node.id);
    if (!cached || cached.x !== node.public_key.x) {
      cached = { x: node.public_key.x, key: await importJWK(node.public_key, 'EdDSA') };
      keys.set(node.id, cached);
    }
    try {
      const { payload } = await jwtVerify(token, cached.key, {
        algorithms: ['EdDSA'],
        audience: AGENT_TOKEN_AUDIENCE,
        subject: node.id,
        requiredClaims: ['exp', 'iat'],
        clockTolerance: 5,
      });
      if (payload.exp! - payload.iat! > AGENT_TOKEN_TTL_SECONDS) throw new Error('lifetime too long');
    } catch {
      throw new NotAuthenticated('Invalid or expired agent token');
    }
    if (node.status === 'disabled') throw new NodeDisabled();
    res.locals.node = node;
  };
}

export function nodeOf(res: Response): Node {
  return res.locals.node as Node;
}
