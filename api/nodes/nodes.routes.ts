import type { Context } from '../../shared/context.ts';
import { createNode, deleteNode, findNode, listNodes, retryEnrollment, updateNode } from '../../shared/domains/nodes/nodes.ts';
import { pingNode } from '../../shared/domains/nodes/ping.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { createNodeBody, credentialsOf, nodeJson, nodesQuery, nodeView, retryEnrollmentBody, updateNodeBody } from './nodes.schemas.ts';
import { operationJson, sendAccepted } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { uuid } from '../openapi/path-parameters.ts';

const errors = {
  401: { description: 'AUTHENTICATION_ERROR', schema: errorEnvelope },
  403: { description: "AUTHORIZATION_ERROR: an operator's API token (operator routes need a signed-in session)", schema: errorEnvelope },
  404: { description: 'NOT_FOUND: no such node, or the caller is not an operator (the fleet is invisible to customers)', schema: errorEnvelope },
  409: { description: 'CONFLICT: the name is taken, or the status cannot move that way', schema: errorEnvelope },
  422: { description: 'VALIDATION_ERROR: `details.fields` names what failed', schema: errorEnvelope },
};
const common = { tags: ['nodes'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, operator: true };

/** The hosting fleet (issue 5): operators only. Enrollment is a `node.enroll` platform operation. */
export function nodesRoutes(ctx: Context) {
  const deps = { db: ctx.db, queues: ctx.queues, logger: ctx.logger, secretKey: ctx.config.secrets.secretKey };
  return v1Router()
    .route(
      {
        ...common,
        method: 'post',
        path: '/nodes',
        operationId: 'nodes.create',
        summary: 'Add a node and enroll it over SSH',
        description:
          'Answers 202 with the `node.enroll` operation (platform-wide: readable by operators at /v1/operations/{id}). Its steps: ' +
          '`connect` (logs in; pins the host key), `check_host` (OS, architecture, a Docker Engine API), `upload_agent` (the agent ' +
          'bundle, its config and a one-time enrollment token; Node 22+ when the host lacks it), `install_agent` (a systemd unit, or a ' +
          'detached process where systemd does not run), `await_registration` (the agent registers its key and heartbeats) and ' +
          "`prepare_runtime` (the first agent commands: the engine it drives, the node's network; then the node turns `online` and " +
          'its SSH credentials are erased). A failed step names the problem (authentication, an unreachable ' +
          'host, no Docker API, ...) and the node shows `failed`; POST /v1/nodes/{id}/enroll tries again.',
        body: createNodeBody,
        audit: { action: 'node.created', target: 'node' },
        responses: {
          202: { description: 'The node.enroll operation; Location: /v1/operations/{id}', schema: dataEnvelope(operationJson) },
          401: errors[401],
          403: errors[403],
          404: errors[404],
          409: { description: 'CONFLICT: a node with this name exists', schema: errorEnvelope },
          422: errors[422],
        },
      },
      async (req, res) => {
        const body = parseOrFail(createNodeBody, req.body);
        const { operation } = await createNode(
          deps,
          {
            name: body.name,
            region: body.region,
            publicAddress: body.public_address,
            ssh: { host: body.ssh.host, port: body.ssh.port, user: body.ssh.user, credentials: credentialsOf(body.ssh) },
            capacity: body.capacity,
          },
          principalOf(res).user_id,
        );
        await sendAccepted(deps, req, res, operation);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/nodes/:id/enroll',
        params: { id: uuid('node') },
        operationId: 'nodes.enroll',
        summary: 'Enroll a node again after its enrollment failed',
        description:
          'With the SSH credentials still stored (they are kept until an enrollment succeeds), or with new SSH details in `ssh`. ' +
          'Answers 202 with a new `node.enroll` operation. 409 while an enrollment is under way, and for an enrolled or disabled node.',
        body: retryEnrollmentBody,
        audit: { action: 'node.enrollment_retried', target: 'node' },
        responses: {
          202: { description: 'The node.enroll operation; Location: /v1/operations/{id}', schema: dataEnvelope(operationJson) },
          401: errors[401],
          403: errors[403],
          404: errors[404],
          409: { description: 'CONFLICT: enrollment under way, node enrolled or disabled, or no credentials stored', schema: errorEnvelope },
          422: errors[422],
        },
      },
      async (req, res) => {
        const body = parseOrFail(retryEnrollmentBody, req.body);
        const ssh = body.ssh ? { host: body.ssh.host, port: body.ssh.port, user: body.ssh.user, credentials: credentialsOf(body.ssh) } : undefined;
        const operation = await retryEnrollment(deps, String(req.params.id), { ssh }, principalOf(res).user_id);
        await sendAccepted(deps, req, res, operation);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/nodes/:id/ping',
        params: { id: uuid('node') },
        operationId: 'nodes.ping',
        summary: "Check that the node's agent answers, end to end",
        description:
          'Answers 202 with a `node.ping` operation (platform-wide). Its one step, `ping`, sends the agent a no-op command through ' +
          'the same path every operation takes (queue, worker, long-poll, the agent and its journal, the result) and succeeds with ' +
          '`{node, agent_version, agent_time, round_trip_ms}`, the round trip measured by the worker from queueing the command to ' +
          'reading its result. A node that does not answer within 30 s fails the operation with its status (e.g. `offline`). ' +
          'Pings do not wait for other operations of the node, nor for each other.',
        audit: { action: 'node.pinged', target: 'node' },
        responses: {
          202: { description: 'The node.ping operation; Location: /v1/operations/{id}', schema: dataEnvelope(operationJson) },
          401: errors[401],
          403: errors[403],
          404: errors[404],
          409: { description: 'CONFLICT: the node has not enrolled yet, or is disabled', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const operation = await pingNode(deps, String(req.params.id), principalOf(res).user_id);
        await sendAccepted(deps, req, res, operation);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/nodes',
        operationId: 'nodes.list',
        summary: 'List the nodes, by name',
        query: pageQuery.extend(nodesQuery.shape),
        responses: {
          200: { description: 'One page of nodes', schema: listEnvelope(nodeJson) },
          401: errors[401],
          403: errors[403],
          404: errors[404],
          422: errors[422],
        },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery.extend(nodesQuery.shape), req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { nodes, total } = await listNodes(ctx.db, { status: query.status, region: query.region }, page);
        sendList(req, res, nodes.map(nodeView), page, total);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/nodes/:id',
        params: { id: uuid('node') },
        operationId: 'nodes.get',
        summary: 'One node: status, heartbeat, agent, facts, metrics, capacity and its enrollment',
        responses: { 200: { description: 'The node', schema: dataEnvelope(nodeJson) }, 401: errors[401], 403: errors[403], 404: errors[404] },
      },
      async (req, res) => {
        sendData(req, res, nodeView(await findNode(ctx.db, String(req.params.id))));
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: '/nodes/:id',
        params: { id: uuid('node') },
        operationId: 'nodes.update',
        summary: 'Rename, move, resize, drain, disable or enable a node',
        description:
          'Disabling takes effect at once: the agent API reads the node on every request and refuses a disabled one. Agent commands ' +
          'already queued for it are left alone (nobody can fetch them; they fail by their deadline).',
        body: updateNodeBody,
        audit: { action: 'node.updated', target: 'node' },
        responses: {
          200: { description: 'The node', schema: dataEnvelope(nodeJson) },
          401: errors[401],
          403: errors[403],
          404: errors[404],
          409: errors[409],
          422: errors[422],
        },
      },
      async (req, res) => {
        const body = parseOrFail(updateNodeBody, req.body);
        const node = await updateNode(ctx.db, String(req.params.id), {
          name: body.name,
          region: body.region,
          publicAddress: body.public_address,
          capacity: body.capacity,
          status: body.status,
          edgeHttpsPort: body.edge_https_port,
        });
        sendData(req, res, nodeView(node));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: '/nodes/:id',
        params: { id: uuid('node') },
        operationId: 'nodes.delete',
        summary: 'Remove an empty node',
        description:
          'Only a node that holds nothing: no site, no unfinished operation or agent command (else 409). Its finished operations stay ' +
          'readable. The agent on the host is not uninstalled; it is refused from then on.',
        audit: { action: 'node.deleted', target: 'node' },
        responses: {
          200: { description: 'The node as it was before its removal', schema: dataEnvelope(nodeJson) },
          401: errors[401],
          403: errors[403],
          404: errors[404],
          409: { description: 'CONFLICT: the node still has unfinished operations or agent commands', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        sendData(req, res, nodeView(await deleteNode(ctx.db, String(req.params.id))));
      },
    );
}
