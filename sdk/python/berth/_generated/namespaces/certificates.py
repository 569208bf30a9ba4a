"""The `certificates` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..operations import OPERATIONS
from ..models import Certificate, CertificatesIssueResult, CertificatesUploadBody, CertificatesUploadResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class CertificatesApi:
    """`client.certificates`: get, issue, upload."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def get(self, *, id: int, env: Literal['production', 'staging', 'development']) -> Certificate:
        """The environment's TLS certificate

        `GET /v1/sites/{id}/environments/{env}/certificate` (certificates.get)

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['certificates.get'], {'id': id, 'env': env})

    def issue(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> CertificatesIssueResult:
        """Get a certificate from the platform's ACME CA

        `POST /v1/sites/{id}/environments/{env}/certificate/issue` (certificates.issue)

        A `certificate.issue` operation: the platform's account at the CA (`ACME_DIRECTORY_URL`), an order for the address the site answers at and its verified domains, each proved by HTTP-01 through the node's edge (so their DNS must point at the node), the certificate stored (its key sealed) and installed like an uploaded one. A failure names the CA's problem (CAA, unreachable, rate limited).

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['certificates.issue'], {'id': id, 'env': env}, idempotency_key=idempotency_key)

    def upload(self, *, id: int, env: Literal['production', 'staging', 'development'], body: CertificatesUploadBody, idempotency_key: str | None = None) -> CertificatesUploadResult:
        """Serve the environment over HTTPS with your own certificate

        `PUT /v1/sites/{id}/environments/{env}/certificate` (certificates.upload)

        The chain and key are checked (PEM, the key the certificate's, valid now, covering the address the site answers at: its primary domain or its default address), the key stored sealed, and a `certificate.install` operation puts them on the node's edge (HTTPS on its `edge_https_port`, a hot reload) and checks that the edge presents it. It replaces an earlier certificate.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['certificates.upload'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


class AsyncCertificatesApi:
    """`client.certificates`: get, issue, upload."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def get(self, *, id: int, env: Literal['production', 'staging', 'development']) -> Certificate:
        """The environment's TLS certificate

        `GET /v1/sites/{id}/environments/{env}/certificate` (certificates.get)

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['certificates.get'], {'id': id, 'env': env})

    async def issue(self, *, id: int, env: Literal['production', 'staging', 'development'], idempotency_key: str | None = None) -> CertificatesIssueResult:
        """Get a certificate from the platform's ACME CA

        `POST /v1/sites/{id}/environments/{env}/certificate/issue` (certificates.issue)

        A `certificate.issue` operation: the platform's account at the CA (`ACME_DIRECTORY_URL`), an order for the address the site answers at and its verified domains, each proved by HTTP-01 through the node's edge (so their DNS must point at the node), the certificate stored (its key sealed) and installed like an uploaded one. A failure names the CA's problem (CAA, unreachable, rate limited).

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['certificates.issue'], {'id': id, 'env': env}, idempotency_key=idempotency_key)

    async def upload(self, *, id: int, env: Literal['production', 'staging', 'development'], body: CertificatesUploadBody, idempotency_key: str | None = None) -> CertificatesUploadResult:
        """Serve the environment over HTTPS with your own certificate

        `PUT /v1/sites/{id}/environments/{env}/certificate` (certificates.upload)

        The chain and key are checked (PEM, the key the certificate's, valid now, covering the address the site answers at: its primary domain or its default address), the key stored sealed, and a `certificate.install` operation puts them on the node's edge (HTTPS on its `edge_https_port`, a hot reload) and checks that the edge presents it. It replaces an earlier certificate.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['certificates.upload'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)


__all__ = ['CertificatesApi', 'AsyncCertificatesApi']
