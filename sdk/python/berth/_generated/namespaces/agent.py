"""The `agent` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...binary import AsyncDownload
from ...binary import BinaryContent
from ...binary import Download
from ..operations import OPERATIONS
from ..models import AgentEnrollBody, AgentEnrollResult, AgentHeartbeatBody, AgentHeartbeatResult, AgentPollCommandsResult, AgentReportProgressBody, AgentReportProgressResult, AgentReportResultBodyOption1, AgentReportResultBodyOption2, AgentReportResultResult, AgentShipLogsBody, AgentShipLogsResult, AgentUploadStreamPartResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class AgentApi:
    """`client.agent`: download_upload, enroll, heartbeat, poll_commands, report_progress, report_result, ship_logs, upload_stream_part."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def download_upload(self, *, id: str) -> Download:
        """Download an upload this node was told to fetch

        `GET /v1/agent/uploads/{id}` (agent.downloadUpload)

        The bytes of an upload (a plugin or theme zip), for a `files.fetch` command: only while this node has an unfinished (pending or delivered) `files.fetch` whose `upload_id` is this id. Another node, an upload no such command names, an expired upload or a finished command: 404. The agent checks the length and `X-Content-SHA256` against the command before using the file.

        Args:
            id: The upload's id (a UUID)
        """
        return self._client._call(OPERATIONS['agent.downloadUpload'], {'id': id})

    def enroll(self, *, body: AgentEnrollBody) -> AgentEnrollResult:
        """Register the agent's public key with the one-time enrollment token

        `POST /v1/agent/enroll` (agent.enroll)

        The installer (the `node.enroll` operation) starts the agent with a one-time token (1 hour, stored hashed). The agent generates an Ed25519 key pair, keeps the private key on the node and registers the public key here; the token is consumed. From then on it signs its own short-lived tokens. Rate limited per IP like sign-in.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return self._client._call(OPERATIONS['agent.enroll'], {}, body=body)

    def heartbeat(self, *, body: AgentHeartbeatBody) -> AgentHeartbeatResult:
        """Report liveness and metrics, every 15 s

        `POST /v1/agent/heartbeat` (agent.heartbeat)

        The first heartbeat after enrollment turns the node `online`. Three missed heartbeats and it shows `offline`. The first heartbeat with a new `started_at` (a restarted agent) of an online node that hosts environments plans a `node.reconcile` operation, which recreates missing containers and edge routes from the records.
        """
        return self._client._call(OPERATIONS['agent.heartbeat'], {}, body=body)

    def poll_commands(self, *, wait: int | None = None, limit: int | None = None) -> AgentPollCommandsResult:
        """Long-poll for the node's next commands

        `GET /v1/agent/commands` (agent.pollCommands)

        Answers at once with the node's pending commands, or holds the request up to `wait` seconds until one is queued. A command is leased to the agent for 60 s, renewed by progress and heartbeats; a command not reported on by then is delivered again (same id, higher `delivery`), so the agent's journal must recognise it.

        Args:
            wait: Seconds to hold the request open when there is nothing to do (0 to 25)
            limit: Most commands to take at once
        """
        return self._client._call(OPERATIONS['agent.pollCommands'], {'wait': wait, 'limit': limit})

    def report_progress(self, *, id: str, body: AgentReportProgressBody) -> AgentReportProgressResult:
        """Stream log lines of a running command; renews its lease

        `POST /v1/agent/commands/{id}/progress` (agent.reportProgress)

        Log lines of a command this node is running, appended to its operation's log as they come; each post renews the command's lease (see the long-poll). A command that is not this node’s, or no longer running, is refused.

        Args:
            id: The command, as the long poll gave it
        """
        return self._client._call(OPERATIONS['agent.reportProgress'], {'id': id}, body=body)

    def report_result(self, *, id: str, body: AgentReportResultBodyOption1 | AgentReportResultBodyOption2) -> AgentReportResultResult:
        """Report how a command ended

        `POST /v1/agent/commands/{id}/result` (agent.reportResult)

        Only for a command delivered to this node (taken from `GET /v1/agent/commands`, including a redelivery): a pending one is 409 `not_delivered`. Accepted once; the same outcome posted again (a lost answer) is accepted again, a different one is 409.

        Args:
            id: The command, as the long poll gave it
        """
        return self._client._call(OPERATIONS['agent.reportResult'], {'id': id}, body=body)

    def ship_logs(self, *, body: AgentShipLogsBody) -> AgentShipLogsResult:
        """Ship new lines of the node's environment logs

        `POST /v1/agent/logs` (agent.shipLogs)

        Lines that appeared in the access, error and PHP logs of environments on this node, sent only when a file grew. Lines of an environment this node does not host are dropped (counted in `dropped`). A batch whose `batch_id` was stored before stores nothing again.
        """
        return self._client._call(OPERATIONS['agent.shipLogs'], {}, body=body)

    def upload_stream_part(self, *, id: str, part: int, body: BinaryContent, last: Literal['true'] | None = None, content_type: Literal['application/octet-stream'] = 'application/octet-stream') -> AgentUploadStreamPartResult:
        """Post one part of a stream this node was told to upload

        `POST /v1/agent/streams/{id}` (agent.uploadStreamPart)

        For a `stream.upload` command (a backup's download): the command's stdout, in parts of a few seconds each (`part` 0, 1, ... in order, one at a time), then an empty part with `last=true`. Each part is piped into the waiting download with backpressure and answered once relayed. Only for a stream issued to this node and still open: another node's, an unknown or a finished one is 404; a part out of order, or one sent while another is being relayed, is 409. A part cut off mid-body cuts the download. Any API process takes the parts: one that does not hold the download forwards each part to the process that does (recorded in Redis) and answers with its answer.

        Args:
            id: The stream, as the `files.export`-style command that asked for it names it
            part: The part's number, from 0
            last: The empty part that ends the stream
        """
        return self._client._call(OPERATIONS['agent.uploadStreamPart'], {'id': id, 'part': part, 'last': last}, body=body, content_type=content_type)


class AsyncAgentApi:
    """`client.agent`: download_upload, enroll, heartbeat, poll_commands, report_progress, report_result, ship_logs, upload_stream_part."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def download_upload(self, *, id: str) -> AsyncDownload:
        """Download an upload this node was told to fetch

        `GET /v1/agent/uploads/{id}` (agent.downloadUpload)

        The bytes of an upload (a plugin or theme zip), for a `files.fetch` command: only while this node has an unfinished (pending or delivered) `files.fetch` whose `upload_id` is this id. Another node, an upload no such command names, an expired upload or a finished command: 404. The agent checks the length and `X-Content-SHA256` against the command before using the file.

        Args:
            id: The upload's id (a UUID)
        """
        return await self._client._call(OPERATIONS['agent.downloadUpload'], {'id': id})

    async def enroll(self, *, body: AgentEnrollBody) -> AgentEnrollResult:
        """Register the agent's public key with the one-time enrollment token

        `POST /v1/agent/enroll` (agent.enroll)

        The installer (the `node.enroll` operation) starts the agent with a one-time token (1 hour, stored hashed). The agent generates an Ed25519 key pair, keeps the private key on the node and registers the public key here; the token is consumed. From then on it signs its own short-lived tokens. Rate limited per IP like sign-in.

        **Rate limited** per client IP: `X-RateLimit-*` headers; 429 `rate_limit_exceeded` with `Retry-After`.
        """
        return await self._client._call(OPERATIONS['agent.enroll'], {}, body=body)

    async def heartbeat(self, *, body: AgentHeartbeatBody) -> AgentHeartbeatResult:
        """Report liveness and metrics, every 15 s

        `POST /v1/agent/heartbeat` (agent.heartbeat)

        The first heartbeat after enrollment turns the node `online`. Three missed heartbeats and it shows `offline`. The first heartbeat with a new `started_at` (a restarted agent) of an online node that hosts environments plans a `node.reconcile` operation, which recreates missing containers and edge routes from the records.
        """
        return await self._client._call(OPERATIONS['agent.heartbeat'], {}, body=body)

    async def poll_commands(self, *, wait: int | None = None, limit: int | None = None) -> AgentPollCommandsResult:
        """Long-poll for the node's next commands

        `GET /v1/agent/commands` (agent.pollCommands)

        Answers at once with the node's pending commands, or holds the request up to `wait` seconds until one is queued. A command is leased to the agent for 60 s, renewed by progress and heartbeats; a command not reported on by then is delivered again (same id, higher `delivery`), so the agent's journal must recognise it.

        Args:
            wait: Seconds to hold the request open when there is nothing to do (0 to 25)
            limit: Most commands to take at once
        """
        return await self._client._call(OPERATIONS['agent.pollCommands'], {'wait': wait, 'limit': limit})

    async def report_progress(self, *, id: str, body: AgentReportProgressBody) -> AgentReportProgressResult:
        """Stream log lines of a running command; renews its lease

        `POST /v1/agent/commands/{id}/progress` (agent.reportProgress)

        Log lines of a command this node is running, appended to its operation's log as they come; each post renews the command's lease (see the long-poll). A command that is not this node’s, or no longer running, is refused.

        Args:
            id: The command, as the long poll gave it
        """
        return await self._client._call(OPERATIONS['agent.reportProgress'], {'id': id}, body=body)

    async def report_result(self, *, id: str, body: AgentReportResultBodyOption1 | AgentReportResultBodyOption2) -> AgentReportResultResult:
        """Report how a command ended

        `POST /v1/agent/commands/{id}/result` (agent.reportResult)

        Only for a command delivered to this node (taken from `GET /v1/agent/commands`, including a redelivery): a pending one is 409 `not_delivered`. Accepted once; the same outcome posted again (a lost answer) is accepted again, a different one is 409.

        Args:
            id: The command, as the long poll gave it
        """
        return await self._client._call(OPERATIONS['agent.reportResult'], {'id': id}, body=body)

    async def ship_logs(self, *, body: AgentShipLogsBody) -> AgentShipLogsResult:
        """Ship new lines of the node's environment logs

        `POST /v1/agent/logs` (agent.shipLogs)

        Lines that appeared in the access, error and PHP logs of environments on this node, sent only when a file grew. Lines of an environment this node does not host are dropped (counted in `dropped`). A batch whose `batch_id` was stored before stores nothing again.
        """
        return await self._client._call(OPERATIONS['agent.shipLogs'], {}, body=body)

    async def upload_stream_part(self, *, id: str, part: int, body: BinaryContent, last: Literal['true'] | None = None, content_type: Literal['application/octet-stream'] = 'application/octet-stream') -> AgentUploadStreamPartResult:
        """Post one part of a stream this node was told to upload

        `POST /v1/agent/streams/{id}` (agent.uploadStreamPart)

        For a `stream.upload` command (a backup's download): the command's stdout, in parts of a few seconds each (`part` 0, 1, ... in order, one at a time), then an empty part with `last=true`. Each part is piped into the waiting download with backpressure and answered once relayed. Only for a stream issued to this node and still open: another node's, an unknown or a finished one is 404; a part out of order, or one sent while another is being relayed, is 409. A part cut off mid-body cuts the download. Any API process takes the parts: one that does not hold the download forwards each part to the process that does (recorded in Redis) and answers with its answer.

        Args:
            id: The stream, as the `files.export`-style command that asked for it names it
            part: The part's number, from 0
            last: The empty part that ends the stream
        """
        return await self._client._call(OPERATIONS['agent.uploadStreamPart'], {'id': id, 'part': part, 'last': last}, body=body, content_type=content_type)


__all__ = ['AgentApi', 'AsyncAgentApi']
