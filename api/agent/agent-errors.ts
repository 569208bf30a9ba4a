import type { NextFunction, Request, Response } from 'express';
import { MIN_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../../shared/agent-protocol/protocol.ts';
import { metaOf } from '../v1/envelope.ts';
import { v1ErrorHandler } from '../v1/v1-errors.ts';
import { CommandNotLeased } from '../../shared/domains/agent/agent-commands.ts';
import { NodeDisabled, ProtocolMismatch } from './agent-auth.ts';

/** The /v1 error envelope, plus the answers only agents get. */
export function agentErrorHandler(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (error instanceof ProtocolMismatch) {
    res.status(426).json({
      error: {
        code: 'PROTOCOL_MISMATCH',
        message: error.message,
        details: { received: error.received, supported: { min: MIN_PROTOCOL_VERSION, max: PROTOCOL_VERSION } },
      },
      meta: metaOf(req),
    });
    return;
  }
  if (error instanceof NodeDisabled) {
    res.status(403).json({ error: { code: 'AUTHORIZATION_ERROR', message: error.message, details: { reason: 'node_disabled' } }, meta: metaOf(req) });
    return;
  }
  if (error instanceof CommandNotLeased) {
    res
      .status(409)
      .json({ error: { code: 'CONFLICT', message: error.message, details: { reason: 'not_delivered', status: error.status } }, meta: metaOf(req) });
    return;
  }
  v1ErrorHandler(error, req, res, next);
}
