"""The `nodes` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import Node, NodesCreateBody, NodesEnrollBody, NodesUpdateBody, Operation

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class NodesApi:
    """`client.nodes`: create, delete, enroll, get, list, ping, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, body: NodesCreateBody, idempotency_key: str | None = None) -> Operation:
        """Add a node and enroll it over SSH

        `POST /v1/nodes` (nodes.create)

        Answers 202 with the `node.enroll` operation (platform-wide: readable by operators at /v1/operations/{id}). Its steps: `connect` (logs in; pins the host key), `check_host` (OS, architecture, a Docker Engine API), `upload_agent` (the agent bundle, its config and a one-time enrollment token; Node 22+ when the host lacks it), `install_agent` (a systemd unit, or a detached process where systemd does not run), `await_registration` (the agent registers its key and heartbeats) and `prepare_runtime` (the first agent commands: the engine it drives, the node's network; then the node turns `online` and its SSH credentials are erased). A failed step names the problem (authentication, an unreachable host, no Docker API, ...) and the node shows `failed`; POST /v1/nodes/{id}/enroll tries again.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return self._client._call(OPERATIONS['nodes.create'], {}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: str, idempotency_key: str | None = None) -> Node:
        """Remove an empty node

        `DELETE /v1/nodes/{id}` (nodes.delete)

        Only a node that holds nothing: no site, no unfinished operation or agent command (else 409). Its finished operations stay readable. The agent on the host is not uninstalled; it is refused from then on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return self._client._call(OPERATIONS['nodes.delete'], {'id': id}, idempotency_key=idempotency_key)

    def enroll(self, *, id: str, body: NodesEnrollBody, idempotency_key: str | None = None) -> Operation:
        """Enroll a node again after its enrollment failed

        `POST /v1/nodes/{id}/enroll` (nodes.enroll)

        With the SSH credentials still stored (they are kept until an enrollment succeeds), or with new SSH details in `ssh`. Answers 202 with a new `node.enroll` operation. 409 while an enrollment is under way, and for an enrolled or disabled node.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return self._client._call(OPERATIONS['nodes.enroll'], {'id': id}, body=body, idempotency_key=idempotency_key)

    def get(self, *, id: str) -> Node:
        """One node: status, heartbeat, agent, facts, metrics, capacity and its enrollment

        `GET /v1/nodes/{id}` (nodes.get)

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return self._client._call(OPERATIONS['nodes.get'], {'id': id})

    def list(self, *, page: int | None = None, page_size: int | None = None, status: Literal['enrolling', 'online', 'offline', 'draining', 'disabled', 'failed'] | None = None, region: str | None = None) -> Page[Node]:
        """List the nodes, by name

        `GET /v1/nodes` (nodes.list)

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: The status nodes show (`offline` and `failed` included)
        """
        return self._client._call(OPERATIONS['nodes.list'], {'page': page, 'page_size': page_size, 'status': status, 'region': region})

    def ping(self, *, id: str, idempotency_key: str | None = None) -> Operation:
        """Check that the node's agent answers, end to end

        `POST /v1/nodes/{id}/ping` (nodes.ping)

        Answers 202 with a `node.ping` operation (platform-wide). Its one step, `ping`, sends the agent a no-op command through the same path every operation takes (queue, worker, long-poll, the agent and its journal, the result) and succeeds with `{node, agent_version, agent_time, round_trip_ms}`, the round trip measured by the worker from queueing the command to reading its result. A node that does not answer within 30 s fails the operation with its status (e.g. `offline`). Pings do not wait for other operations of the node, nor for each other.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return self._client._call(OPERATIONS['nodes.ping'], {'id': id}, idempotency_key=idempotency_key)

    def update(self, *, id: str, body: NodesUpdateBody, idempotency_key: str | None = None) -> Node:
        """Rename, move, resize, drain, disable or enable a node

        `PATCH /v1/nodes/{id}` (nodes.update)

        Disabling takes effect at once: the agent API reads the node on every request and refuses a disabled one. Agent commands already queued for it are left alone (nobody can fetch them; they fail by their deadline).

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return self._client._call(OPERATIONS['nodes.update'], {'id': id}, body=body, idempotency_key=idempotency_key)


class AsyncNodesApi:
    """`client.nodes`: create, delete, enroll, get, list, ping, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, body: NodesCreateBody, idempotency_key: str | None = None) -> Operation:
        """Add a node and enroll it over SSH

        `POST /v1/nodes` (nodes.create)

        Answers 202 with the `node.enroll` operation (platform-wide: readable by operators at /v1/operations/{id}). Its steps: `connect` (logs in; pins the host key), `check_host` (OS, architecture, a Docker Engine API), `upload_agent` (the agent bundle, its config and a one-time enrollment token; Node 22+ when the host lacks it), `install_agent` (a systemd unit, or a detached process where systemd does not run), `await_registration` (the agent registers its key and heartbeats) and `prepare_runtime` (the first agent commands: the engine it drives, the node's network; then the node turns `online` and its SSH credentials are erased). A failed step names the problem (authentication, an unreachable host, no Docker API, ...) and the node shows `failed`; POST /v1/nodes/{id}/enroll tries again.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.
        """
        return await self._client._call(OPERATIONS['nodes.create'], {}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: str, idempotency_key: str | None = None) -> Node:
        """Remove an empty node

        `DELETE /v1/nodes/{id}` (nodes.delete)

        Only a node that holds nothing: no site, no unfinished operation or agent command (else 409). Its finished operations stay readable. The agent on the host is not uninstalled; it is refused from then on.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return await self._client._call(OPERATIONS['nodes.delete'], {'id': id}, idempotency_key=idempotency_key)

    async def enroll(self, *, id: str, body: NodesEnrollBody, idempotency_key: str | None = None) -> Operation:
        """Enroll a node again after its enrollment failed

        `POST /v1/nodes/{id}/enroll` (nodes.enroll)

        With the SSH credentials still stored (they are kept until an enrollment succeeds), or with new SSH details in `ssh`. Answers 202 with a new `node.enroll` operation. 409 while an enrollment is under way, and for an enrolled or disabled node.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return await self._client._call(OPERATIONS['nodes.enroll'], {'id': id}, body=body, idempotency_key=idempotency_key)

    async def get(self, *, id: str) -> Node:
        """One node: status, heartbeat, agent, facts, metrics, capacity and its enrollment

        `GET /v1/nodes/{id}` (nodes.get)

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return await self._client._call(OPERATIONS['nodes.get'], {'id': id})

    async def list(self, *, page: int | None = None, page_size: int | None = None, status: Literal['enrolling', 'online', 'offline', 'draining', 'disabled', 'failed'] | None = None, region: str | None = None) -> Page[Node]:
        """List the nodes, by name

        `GET /v1/nodes` (nodes.list)

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
            status: The status nodes show (`offline` and `failed` included)
        """
        return await self._client._call(OPERATIONS['nodes.list'], {'page': page, 'page_size': page_size, 'status': status, 'region': region})

    async def ping(self, *, id: str, idempotency_key: str | None = None) -> Operation:
        """Check that the node's agent answers, end to end

        `POST /v1/nodes/{id}/ping` (nodes.ping)

        Answers 202 with a `node.ping` operation (platform-wide). Its one step, `ping`, sends the agent a no-op command through the same path every operation takes (queue, worker, long-poll, the agent and its journal, the result) and succeeds with `{node, agent_version, agent_time, round_trip_ms}`, the round trip measured by the worker from queueing the command to reading its result. A node that does not answer within 30 s fails the operation with its status (e.g. `offline`). Pings do not wait for other operations of the node, nor for each other.

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return await self._client._call(OPERATIONS['nodes.ping'], {'id': id}, idempotency_key=idempotency_key)

    async def update(self, *, id: str, body: NodesUpdateBody, idempotency_key: str | None = None) -> Node:
        """Rename, move, resize, drain, disable or enable a node

        `PATCH /v1/nodes/{id}` (nodes.update)

        Disabling takes effect at once: the agent API reads the node on every request and refuses a disabled one. Agent commands already queued for it are left alone (nobody can fetch them; they fail by their deadline).

        **Operators only**, signed in with a session: anyone else gets 404 `NOT_FOUND` as for an unknown path; an operator's API token gets 403 `AUTHORIZATION_ERROR`.

        Args:
            id: The node's id (a UUID)
        """
        return await self._client._call(OPERATIONS['nodes.update'], {'id': id}, body=body, idempotency_key=idempotency_key)


__all__ = ['NodesApi', 'AsyncNodesApi']
