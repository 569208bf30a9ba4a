"""The `sftp_users` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..operations import OPERATIONS
from ..models import SftpUser, SftpUsersCreateBody, SftpUsersCreateResult, SftpUsersDeleteResult, SftpUsersUpdateBody, SftpUsersUpdateResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class SftpUsersApi:
    """`client.sftp_users`: create, delete, get, list, update."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: SftpUsersCreateBody, idempotency_key: str | None = None) -> SftpUsersCreateResult:
        """Create an SFTP user

        `POST /v1/sites/{id}/environments/{env}/sftp-users` (sftpUsers.create)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['sftpUsers.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], user: int, idempotency_key: str | None = None) -> SftpUsersDeleteResult:
        """Revoke an SFTP user

        `DELETE /v1/sites/{id}/environments/{env}/sftp-users/{user}` (sftpUsers.delete)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            user: The SFTP user's id
        """
        return self._client._call(OPERATIONS['sftpUsers.delete'], {'id': id, 'env': env, 'user': user}, idempotency_key=idempotency_key)

    def get(self, *, id: int, env: Literal['production', 'staging', 'development'], user: int) -> SftpUser:
        """One SFTP user

        `GET /v1/sites/{id}/environments/{env}/sftp-users/{user}` (sftpUsers.get)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            user: The SFTP user's id
        """
        return self._client._call(OPERATIONS['sftpUsers.get'], {'id': id, 'env': env, 'user': user})

    def list(self, *, id: int, env: Literal['production', 'staging', 'development']) -> list[SftpUser]:
        """The environment's SFTP users

        `GET /v1/sites/{id}/environments/{env}/sftp-users` (sftpUsers.list)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['sftpUsers.list'], {'id': id, 'env': env})

    def update(self, *, id: int, env: Literal['production', 'staging', 'development'], user: int, body: SftpUsersUpdateBody, idempotency_key: str | None = None) -> SftpUsersUpdateResult:
        """Change an SFTP user's password or keys

        `PATCH /v1/sites/{id}/environments/{env}/sftp-users/{user}` (sftpUsers.update)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            user: The SFTP user's id
        """
        return self._client._call(OPERATIONS['sftpUsers.update'], {'id': id, 'env': env, 'user': user}, body=body, idempotency_key=idempotency_key)


class AsyncSftpUsersApi:
    """`client.sftp_users`: create, delete, get, list, update."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: SftpUsersCreateBody, idempotency_key: str | None = None) -> SftpUsersCreateResult:
        """Create an SFTP user

        `POST /v1/sites/{id}/environments/{env}/sftp-users` (sftpUsers.create)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['sftpUsers.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], user: int, idempotency_key: str | None = None) -> SftpUsersDeleteResult:
        """Revoke an SFTP user

        `DELETE /v1/sites/{id}/environments/{env}/sftp-users/{user}` (sftpUsers.delete)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            user: The SFTP user's id
        """
        return await self._client._call(OPERATIONS['sftpUsers.delete'], {'id': id, 'env': env, 'user': user}, idempotency_key=idempotency_key)

    async def get(self, *, id: int, env: Literal['production', 'staging', 'development'], user: int) -> SftpUser:
        """One SFTP user

        `GET /v1/sites/{id}/environments/{env}/sftp-users/{user}` (sftpUsers.get)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            user: The SFTP user's id
        """
        return await self._client._call(OPERATIONS['sftpUsers.get'], {'id': id, 'env': env, 'user': user})

    async def list(self, *, id: int, env: Literal['production', 'staging', 'development']) -> list[SftpUser]:
        """The environment's SFTP users

        `GET /v1/sites/{id}/environments/{env}/sftp-users` (sftpUsers.list)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['sftpUsers.list'], {'id': id, 'env': env})

    async def update(self, *, id: int, env: Literal['production', 'staging', 'development'], user: int, body: SftpUsersUpdateBody, idempotency_key: str | None = None) -> SftpUsersUpdateResult:
        """Change an SFTP user's password or keys

        `PATCH /v1/sites/{id}/environments/{env}/sftp-users/{user}` (sftpUsers.update)

        SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.

        **Permission:** `sftp:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            user: The SFTP user's id
        """
        return await self._client._call(OPERATIONS['sftpUsers.update'], {'id': id, 'env': env, 'user': user}, body=body, idempotency_key=idempotency_key)


__all__ = ['SftpUsersApi', 'AsyncSftpUsersApi']
