import { Readable } from 'node:stream';
import express from 'express';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import {
  AGENT_PREFIX,
  COMMAND_LEASE_SECONDS,
  HEARTBEAT_INTERVAL_SECONDS,
  commandsReply,
  enrollReply,
  enrollRequest,
  heartbeatReply,
  heartbeatRequest,
  logsReply,
  logsRequest,
  progressRequest,
  resultRequest,
} from '../../shared/agent-protocol/protocol.ts';
import { claimCommands, recordProgress, recordResult } from '../../shared/domains/agent/agent-commands.ts';
import { signalTopics } from '../../shared/domains/agent/signals.ts';
import { registerAgentKey } from '../../shared/domains/nodes/enrollment.ts';
import { recordHeartbeat } from '../../shared/domains/nodes/heartbeat.ts';
import { forwardToOwner } from '../../shared/domains/backups/export-relay.ts';
import { exportStreams } from '../../shared/domains/backups/exports.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { findUploadForNode, uploadContent } from '../../shared/domains/uploads/uploads.ts';
import { environmentLogsTopic, storeLogBatch } from '../../shared/domains/logs/environment-logs.ts';
import { noteAgentStart } from '../../shared/domains/nodes/reconcile.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { dataEnvelope, sendData } from '../v1/envelope.ts';
import { authenticateAgent, nodeOf } from './agent-auth.ts';
import { name, uuid } from '../openapi/path-parameters.ts';
import {
  AGENT_MESSAGE_BODY_LIMIT,
  AGENT_RESULT_BODY_LIMIT,
  ENROLL_BODY_LIMIT,
  agentError,
  agentErrors,
  commandErrors,
  commandId,
  commandParams,
  pollQuery,
} from './agent.schemas.ts';

export { AGENT_PREFIX };

// Each route reads its body only once the caller is known (after the agent's token is verified, or
// for enrollment after the per-IP limit), and only up to what its messages can need.
const enrollBody = express.json({ limit: ENROLL_BODY_LIMIT });
const messageBody = express.json({ limit: AGENT_MESSAGE_BODY_LIMIT });
const resultBody = express.json({ limit: AGENT_RESULT_BODY_LIMIT });

/**
 * /v1/agent: the agents' side of the protocol (shared/agent-protocol). Outbound from the node only:
 * the agent enrolls once, then long-polls for commands, streams progress, posts results and
 * heartbeats. Every request carries the protocol version (checked before anything else).
 */
export function agentRoutes(ctx: Context): DocumentedRouter {
  const router = new DocumentedRouter();
  const agentAuth = authenticateAgent(ctx);
  const common = { tags: ['agent'] };

  router.route(
    {
      ...common,
      method: 'post',
      path: '/enroll',
      operationId: 'agent.enroll',
      summary: "Register the agent's public key with the one-time enrollment token",
      description:
        'The installer (the `node.enroll` operation) starts the agent with a one-time token (1 hour, stored hashed). The agent generates ' +
        'an Ed25519 key pair, keeps the private key on the node and registers the public key here; the token is consumed. From then on ' +
        'it signs its own short-lived tokens. Rate limited per IP like sign-in.',
      body: enrollRequest,
      rateLimited: true,
      responses: { 200: { description: 'Enrolled', schema: dataEnvelope(enrollReply) }, ...agentErrors },
    },
    rateLimitPerIp(ctx.rateLimit, 'agent_enroll', ctx.config.rateLimits.login),
    enrollBody,
    async (req, res) => {
      const body = parseOrFail(enrollRequest, req.body);
      const node = await registerAgentKey(ctx.db, {
        token: body.enrollment_token,
        publicKey: body.public_key,
        agentVersion: body.agent_version,
        protocolVersion: res.locals.protocolVersion as number,
        facts: body.facts,
      });
      req.log.info({ node_id: node.id, agent_version: body.agent_version }, 'agent enrolled');
      sendData(req, res, { node_id: node.id, node_name: node.name });
    },
  );

  router.route(
    {
      ...common,
      method: 'get',
      path: '/commands',
      operationId: 'agent.pollCommands',
      summary: "Long-poll for the node's next commands",
      description:
        `Answers at once with the node's pending commands, or holds the request up to \`wait\` seconds until one is queued. A command ` +
        `is leased to the agent for ${COMMAND_LEASE_SECONDS} s, renewed by progress and heartbeats; a command not reported on by then ` +
        "is delivered again (same id, higher `delivery`), so the agent's journal must recognise it.",
      security: ['agentToken'],
      query: pollQuery,
      responses: { 200: { description: 'Zero or more commands', schema: dataEnvelope(commandsReply) }, ...agentErrors },
    },
    agentAuth,
    async (req, res) => {
      const query = parseOrFail(pollQuery, req.query);
      const node = nodeOf(res);
      const closed = new AbortController();
      res.on('close', () => closed.abort());
      const until = Date.now() + query.wait * 1000;
      const topic = signalTopics.nodeHasWork(node.id);
      let commands: Awaited<ReturnType<typeof claimCommands>> = [];
      for (;;) {
        // Listening before each look at the table: a command queued between an empty look and the
        // wait wakes it at once. The bounded wait also catches expired leases and lost signals.
        const look = new AbortController();
        const stop = () => look.abort();
        closed.signal.addEventListener('abort', stop, { once: true });
        const woken = ctx.signals.wait(topic, Math.max(0, Math.min(5_000, until - Date.now())), look.signal);
        try {
          commands = await claimCommands(ctx.db, node.id, query.limit);
          if (commands.length > 0 || closed.signal.aborted || Date.now() >= until) break;
          await woken;
          if (closed.signal.aborted) break;
        } finally {
          look.abort();
          closed.signal.removeEventListener('abort', stop);
        }
      }
      if (closed.signal.aborted && commands.length > 0) {
        // Nobody is listening any more: the lease runs out and the commands are delivered again.
        req.log.warn({ node_id: node.id, commands: commands.map((command) => command.id) }, 'long-poll closed after claiming commands');
      }
      if (!closed.signal.aborted) sendData(req, res, { commands });
    },
  );

  router.route(
    {
      ...common,
      method: 'post',
      path: '/commands/:id/progress',
      params: { id: commandId },
      operationId: 'agent.reportProgress',
      summary: 'Stream log lines of a running command; renews its lease',
      description:
        "Log lines of a command this node is running, appended to its operation's log as they come; each post renews the command's lease " +
        '(see the long-poll). A command that is not this node’s, or no longer running, is refused.',
      security: ['agentToken'],
      body: progressRequest,
      responses: {
        200: { description: 'Recorded', schema: dataEnvelope(z.object({ ok: z.literal(true) })) },
        ...commandErrors,
        409: {
          description:
            'CONFLICT with `details.reason: not_delivered`: the command is not delivered to this node now (still pending, or ended); `details.status` says which',
          schema: agentError,
        },
      },
    },
    agentAuth,
    messageBody,
    async (req, res) => {
      const { id } = parseOrFail(commandParams, req.params);
      const body = parseOrFail(progressRequest, req.body);
      await recordProgress(ctx.db, nodeOf(res).id, id, body.logs);
      sendData(req, res, { ok: true as const });
    },
  );

  router.route(
    {
      ...common,
      method: 'post',
      path: '/commands/:id/result',
      params: { id: commandId },
      operationId: 'agent.reportResult',
      summary: 'Report how a command ended',
      description:
        'Only for a command delivered to this node (taken from `GET /v1/agent/commands`, including a redelivery): a pending one is 409 ' +
        '`not_delivered`. Accepted once; the same outcome posted again (a lost answer) is accepted again, a different one is 409.',
      security: ['agentToken'],
      body: resultRequest,
      responses: {
        200: { description: 'Recorded', schema: dataEnvelope(z.object({ id: z.string(), status: z.enum(['succeeded', 'failed']) })) },
        ...commandErrors,
        409: {
          description: 'CONFLICT: the command already ended the other way, or (`details.reason: not_delivered`) it was never delivered to this node',
          schema: agentError,
        },
      },
    },
    agentAuth,
    resultBody,
    async (req, res) => {
      const { id } = parseOrFail(commandParams, req.params);
      const body = parseOrFail(resultRequest, req.body);
      const row = await recordResult(ctx, nodeOf(res).id, id, body);
      sendData(req, res, { id: row.id, status: row.status as 'succeeded' | 'failed' });
    },
  );

  router.route(
    {
      ...common,
      method: 'get',
      path: '/uploads/:id',
      params: { id: uuid('upload') },
      operationId: 'agent.downloadUpload',
      summary: 'Download an upload this node was told to fetch',
      description:
        'The bytes of an upload (a plugin or theme zip), for a `files.fetch` command: only while this node has an unfinished ' +
        '(pending or delivered) `files.fetch` whose `upload_id` is this id. Another node, an upload no such command names, an expired ' +
        'upload or a finished command: 404. The agent checks the length and `X-Content-SHA256` against the command before using the file.',
      security: ['agentToken'],
      responses: {
        200: {
          description: "The upload's bytes",
          binary: 'application/octet-stream',
          headers: { 'X-Content-SHA256': { description: 'Hex SHA-256 of the bytes', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } } },
        },
        ...agentErrors,
        404: { description: 'NOT_FOUND: no unfinished files.fetch command of this node names this upload', schema: agentError },
      },
    },
    agentAuth,
    async (req, res) => {
      const upload = await findUploadForNode(ctx.db, nodeOf(res).id, String(req.params.id));
      res.setHeader('Content-Type', 'application/octet-stream');
      res.setHeader('Content-Length', String(upload.size_bytes));
      res.setHeader('X-Content-SHA256', upload.sha256);
      res.setHeader('Cache-Control', 'no-store');
      try {
        // read from Postgres a chunk at a time: a large package is never held whole
        await pipeline(Readable.from(uploadContent(ctx.db, upload)), res);
      } catch (error) {
        // The headers are gone: the connection is cut, and the agent's size check fails the fetch.
        req.log.warn({ upload_id: upload.id, error: (error as Error).message }, 'upload download ended early');
      }
    },
  );

  router.route(
    {
      ...common,
      method: 'post',
      path: '/heartbeat',
      operationId: 'agent.heartbeat',
      summary: `Report liveness and metrics, every ${HEARTBEAT_INTERVAL_SECONDS} s`,
      description:
        'The first heartbeat after enrollment turns the node `online`. Three missed heartbeats and it shows `offline`. The first heartbeat with a new `started_at` (a restarted agent) of an online node that hosts environments plans a `node.reconcile` operation, which recreates missing containers and edge routes from the records.',
      security: ['agentToken'],
      body: heartbeatRequest,
      responses: { 200: { description: "The node's status as the control plane sees it", schema: dataEnvelope(heartbeatReply) }, ...agentErrors },
    },
    agentAuth,
    messageBody,
    async (req, res) => {
      const body = parseOrFail(heartbeatRequest, req.body);
      const status = await recordHeartbeat(ctx.db, nodeOf(res), {
        agentVersion: body.agent_version,
        protocolVersion: res.locals.protocolVersion as number,
        metrics: body.metrics,
        running: body.running,
        sftp: body.sftp,
      });
      if (body.started_at && (status === 'online' || status === 'draining')) {
        await noteAgentStart(ctx, nodeOf(res), new Date(body.started_at));
      }
      sendData(req, res, { node_status: status });
    },
  );

  router.route(
    {
      ...common,
      method: 'post',
      path: '/logs',
      operationId: 'agent.shipLogs',
      summary: "Ship new lines of the node's environment logs",
      description:
        'Lines that appeared in the access, error and PHP logs of environments on this node, sent only when a file grew. ' +
        'Lines of an environment this node does not host are dropped (counted in `dropped`). A batch whose `batch_id` was stored before stores nothing again.',
      security: ['agentToken'],
      body: logsRequest,
      responses: { 200: { description: 'Stored', schema: dataEnvelope(logsReply) }, ...agentErrors },
    },
    agentAuth,
    messageBody,
    async (req, res) => {
      const body = parseOrFail(logsRequest, req.body);
      const { stored, dropped, environmentIds } = await storeLogBatch(ctx.db, nodeOf(res).id, body);
      if (dropped > 0) req.log.warn({ node_id: nodeOf(res).id, dropped }, 'log lines of environments the node does not host dropped');
      await Promise.all(environmentIds.map((id) => ctx.signals.publish(environmentLogsTopic(id))));
      sendData(req, res, { stored, dropped });
    },
  );

  router.route(
    {
      ...common,
      method: 'post',
      path: '/streams/:id',
      params: { id: name('The stream, as the `files.export`-style command that asked for it names it', { maxLength: 200 }) },
      operationId: 'agent.uploadStreamPart',
      summary: 'Post one part of a stream this node was told to upload',
      description:
        "For a `stream.upload` command (a backup's download): the command's stdout, in parts of a few seconds each (`part` 0, 1, ... " +
        'in order, one at a time), then an empty part with `last=true`. Each part is piped into the waiting download with backpressure ' +
        "and answered once relayed. Only for a stream issued to this node and still open: another node's, an unknown or a finished " +
        'one is 404; a part out of order, or one sent while another is being relayed, is 409. A part cut off mid-body cuts the download. ' +
        'Any API process takes the parts: one that does not hold the download forwards each part to the process that does (recorded in Redis) ' +
        'and answers with its answer.',
      security: ['agentToken'],
      query: streamQuery,
      rawBody: { mediaTypes: ['application/octet-stream'], description: 'A part of the stream' },
      responses: {
        200: { description: 'Relayed', schema: dataEnvelope(z.object({ ok: z.literal(true) })) },
        ...agentErrors,
        404: { description: 'NOT_FOUND: no open stream of this node has this id', schema: agentError },
        409: { description: 'CONFLICT: another part is expected', schema: agentError },
      },
    },
    agentAuth,
    async (req, res) => {
      const query = parseOrFail(streamQuery, req.query);
      try {
        await exportStreams.relay(nodeOf(res).id, String(req.params.id), query.part, query.last === 'true', req);
      } catch (error) {
        if (error instanceof NotFound) {
          // the download may wait in another API process: the part goes on to it, and its answer back
          const forwarded = await forwardToOwner(ctx, String(req.params.id), req).catch((failure: unknown) => {
            // the process holding the download is gone, and so is the download
            req.log.warn({ stream_id: req.params.id, error: (failure as Error).message }, 'stream part not forwarded');
            return null;
          });
          if (forwarded) {
            res.status(forwarded.status).type('application/json').send(forwarded.body);
            return;
          }
        }
        if (error instanceof NotFound || error instanceof Conflict) throw error;
        // the download went away or the body broke off: nothing to answer on
        req.log.warn({ stream_id: req.params.id, error: (error as Error).message }, 'stream part not relayed');
        res.destroy();
        return;
      }
      sendData(req, res, { ok: true as const });
    },
  );
  return router;
}

const streamQuery = z.object({
  part: z
    .string()
    .regex(/^\d{1,6}$/)
    .transform(Number)
    .describe("The part's number, from 0"),
  last: z.enum(['true']).optional().describe('The empty part that ends the stream'),
});
