import { z } from 'zod';
import { MAX_POLL_WAIT_SECONDS, PROTOCOL_HEADER } from '../../shared/agent-protocol/protocol.ts';
import { hasPathParameters, MALFORMED_PATH_DOC } from '../middleware/malformed-path.ts';
import type { ResponseDoc } from '../openapi/documented-router.ts';
import { UNREADABLE_BODY_DOC, type SurfaceConventions } from '../openapi/openapi.ts';
import { name } from '../openapi/path-parameters.ts';
import { errorDetails, metaSchema } from '../v1/envelope.ts';

/* What the agent surface's routes declare: body limits, the error envelope, the shared answers, parameters. */

/** Enrollment: a token, a public key and a few host facts. */
export const ENROLL_BODY_LIMIT = '16kb';
/** Progress (up to 200 log lines of 4000 characters) and heartbeats (up to 1000 running command ids). */
export const AGENT_MESSAGE_BODY_LIMIT = '1mb';
/** Command results, which may carry a file's contents (files.get, up to 8 MB base64-encoded). */
export const AGENT_RESULT_BODY_LIMIT = '12mb';

export const agentError = z
  .object({
    error: z.object({
      code: z.enum([
        'VALIDATION_ERROR',
        'AUTHENTICATION_ERROR',
        'AUTHORIZATION_ERROR',
        'NOT_FOUND',
        'CONFLICT',
        'PAYLOAD_TOO_LARGE',
        'PROTOCOL_MISMATCH',
        'RATE_LIMIT_EXCEEDED',
        'INTERNAL_ERROR',
      ]),
      message: z.string(),
      details: errorDetails,
    }),
    meta: metaSchema,
  })
  .meta({ id: 'AgentError' });

export const agentErrors: Record<number, ResponseDoc> = {
  401: { description: 'AUTHENTICATION_ERROR: no valid agent token (answered before the body is read)', schema: agentError },
  403: { description: 'AUTHORIZATION_ERROR with `details.reason: node_disabled`: an operator disabled this node', schema: agentError },
  413: {
    description: `PAYLOAD_TOO_LARGE: over ${AGENT_MESSAGE_BODY_LIMIT} (a result: ${AGENT_RESULT_BODY_LIMIT}; enrollment: ${ENROLL_BODY_LIMIT})`,
    schema: agentError,
  },
  422: { description: 'VALIDATION_ERROR', schema: agentError },
  426: {
    description: `PROTOCOL_MISMATCH: the ${PROTOCOL_HEADER} header is missing or names a version this control plane does not speak; \`details.supported\` says which`,
    schema: agentError,
  },
  429: {
    description:
      'RATE_LIMIT_EXCEEDED with `Retry-After`: too many requests from this IP (`RATE_LIMIT_AGENT`), or too many failed ' +
      'authentications from it (`RATE_LIMIT_AGENT_AUTH_FAILURES`); an IPv6 client counts by its /64',
    schema: agentError,
  },
  500: { description: 'INTERNAL_ERROR', schema: agentError },
};
/**
 * What every agent route shares in the OpenAPI document: the router's 400 for a broken
 * percent-encoding in a path parameter, and the body parser's 415.
 */
export const agentConventions: SurfaceConventions = {
  responses: (doc) => {
    const answers: Record<number, ResponseDoc> = {};
    if (hasPathParameters(doc))
      answers[400] = { description: `VALIDATION_ERROR with \`details.reason: malformed_path\`: ${MALFORMED_PATH_DOC}`, schema: agentError };
    if (doc.body) answers[415] = { description: `VALIDATION_ERROR: ${UNREADABLE_BODY_DOC}`, schema: agentError };
    return answers;
  },
};
export const commandErrors: Record<number, ResponseDoc> = {
  ...agentErrors,
  404: { description: "NOT_FOUND: no such command for this node (another node's command ids are not found either)", schema: agentError },
};

export const pollQuery = z.object({
  wait: z
    .string()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(MAX_POLL_WAIT_SECONDS))
    .default(MAX_POLL_WAIT_SECONDS)
    .describe(`Seconds to hold the request open when there is nothing to do (0 to ${MAX_POLL_WAIT_SECONDS})`),
  limit: z
    .string()
    .regex(/^\d{1,2}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(50))
    .default(4)
    .describe('Most commands to take at once'),
});
export const commandParams = z.object({ id: z.string().min(1).max(200) });
export const commandId = name('The command, as the long poll gave it', { maxLength: 200 });
