import type { Request } from 'express';
import type { ActivityOrigin } from '../../shared/domains/activity/record-activity.ts';
import { clientIp } from './request-context.ts';

/** Where the request came from, for the audit trail: the IP the server saw, the User-Agent, the request id. */
export function requestOrigin(req: Request): ActivityOrigin {
  return { ip: clientIp(req), userAgent: req.get('user-agent') ?? null, requestId: req.id };
}
