"""The `domains` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..operations import OPERATIONS
from ..models import Domain, DomainsCreateBody, DomainsCreateResult, DomainsDeleteResult, DomainsSetPrimaryBody, DomainsSetPrimaryResult, DomainsVerifyResult

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class DomainsApi:
    """`client.domains`: create, delete, list, set_primary, verify."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: DomainsCreateBody, idempotency_key: str | None = None) -> DomainsCreateResult:
        """Add a custom domain

        `POST /v1/sites/{id}/environments/{env}/domains` (domains.create)

        Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record `verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node's edge (a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress's home and site URL); the edge sends every other domain there (301, path kept).

        A domain is a claim on the name, and claims cannot squat a name. Only a verified claim holds it: one per name across all teams, and adding a name verified for another site is 409 `domain_in_use` (naming no team). Pending claims of several teams on one name live side by side, each with its own token, and are never revealed to each other: adding a name someone else claimed but has not verified answers exactly as if nobody had. The first claim to prove control wins (its TXT record, or a zone the team hosts on Berth and delegates to Berth's name servers, which wins at once); every other pending claim on the name becomes `superseded`. A pending claim not verified by `verify_by` (72 hours after it was made by default; DOMAIN_CLAIM_TTL_HOURS) becomes `lapsed`. A lapsed or superseded claim holds nothing and cannot be verified (409 `claim_lapsed` / `claim_superseded`); remove it, or add the name again for a new claim (it replaces the team's void one). A team holds one pending or verified claim on a name (409 `domain_claimed_by_team`).

        **Permission:** `domains:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['domains.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], domain: int, idempotency_key: str | None = None) -> DomainsDeleteResult | None:
        """Remove a custom domain

        `DELETE /v1/sites/{id}/environments/{env}/domains/{domain}` (domains.delete)

        **Permission:** `domains:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            domain: The domain's id
        """
        return self._client._call(OPERATIONS['domains.delete'], {'id': id, 'env': env, 'domain': domain}, idempotency_key=idempotency_key)

    def list(self, *, id: int, env: Literal['production', 'staging', 'development']) -> list[Domain]:
        """The environment's custom domains

        `GET /v1/sites/{id}/environments/{env}/domains` (domains.list)

        Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record `verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node's edge (a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress's home and site URL); the edge sends every other domain there (301, path kept).

        A domain is a claim on the name, and claims cannot squat a name. Only a verified claim holds it: one per name across all teams, and adding a name verified for another site is 409 `domain_in_use` (naming no team). Pending claims of several teams on one name live side by side, each with its own token, and are never revealed to each other: adding a name someone else claimed but has not verified answers exactly as if nobody had. The first claim to prove control wins (its TXT record, or a zone the team hosts on Berth and delegates to Berth's name servers, which wins at once); every other pending claim on the name becomes `superseded`. A pending claim not verified by `verify_by` (72 hours after it was made by default; DOMAIN_CLAIM_TTL_HOURS) becomes `lapsed`. A lapsed or superseded claim holds nothing and cannot be verified (409 `claim_lapsed` / `claim_superseded`); remove it, or add the name again for a new claim (it replaces the team's void one). A team holds one pending or verified claim on a name (409 `domain_claimed_by_team`).

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['domains.list'], {'id': id, 'env': env})

    def set_primary(self, *, id: int, env: Literal['production', 'staging', 'development'], body: DomainsSetPrimaryBody, idempotency_key: str | None = None) -> DomainsSetPrimaryResult:
        """Choose the address WordPress answers at

        `PUT /v1/sites/{id}/environments/{env}/primary-domain` (domains.setPrimary)

        A verified domain (`domain_id`), or the environment's default address (`null`), becomes its primary: an `environment.domains` operation records it, writes wp-config.php's WP_HOME and WP_SITEURL, rewrites every mention of the old address in the database (serialized data kept valid), and has the edge send every other domain there (301, path kept). Removing the primary domain hands the site back to its default address the same way.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return self._client._call(OPERATIONS['domains.setPrimary'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    def verify(self, *, id: int, env: Literal['production', 'staging', 'development'], domain: int, idempotency_key: str | None = None) -> DomainsVerifyResult:
        """Verify a domain by its TXT record

        `POST /v1/sites/{id}/environments/{env}/domains/{domain}/verify` (domains.verify)

        Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record `verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node's edge (a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress's home and site URL); the edge sends every other domain there (301, path kept).

        A domain is a claim on the name, and claims cannot squat a name. Only a verified claim holds it: one per name across all teams, and adding a name verified for another site is 409 `domain_in_use` (naming no team). Pending claims of several teams on one name live side by side, each with its own token, and are never revealed to each other: adding a name someone else claimed but has not verified answers exactly as if nobody had. The first claim to prove control wins (its TXT record, or a zone the team hosts on Berth and delegates to Berth's name servers, which wins at once); every other pending claim on the name becomes `superseded`. A pending claim not verified by `verify_by` (72 hours after it was made by default; DOMAIN_CLAIM_TTL_HOURS) becomes `lapsed`. A lapsed or superseded claim holds nothing and cannot be verified (409 `claim_lapsed` / `claim_superseded`); remove it, or add the name again for a new claim (it replaces the team's void one). A team holds one pending or verified claim on a name (409 `domain_claimed_by_team`).

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            domain: The domain's id
        """
        return self._client._call(OPERATIONS['domains.verify'], {'id': id, 'env': env, 'domain': domain}, idempotency_key=idempotency_key)


class AsyncDomainsApi:
    """`client.domains`: create, delete, list, set_primary, verify."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, id: int, env: Literal['production', 'staging', 'development'], body: DomainsCreateBody, idempotency_key: str | None = None) -> DomainsCreateResult:
        """Add a custom domain

        `POST /v1/sites/{id}/environments/{env}/domains` (domains.create)

        Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record `verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node's edge (a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress's home and site URL); the edge sends every other domain there (301, path kept).

        A domain is a claim on the name, and claims cannot squat a name. Only a verified claim holds it: one per name across all teams, and adding a name verified for another site is 409 `domain_in_use` (naming no team). Pending claims of several teams on one name live side by side, each with its own token, and are never revealed to each other: adding a name someone else claimed but has not verified answers exactly as if nobody had. The first claim to prove control wins (its TXT record, or a zone the team hosts on Berth and delegates to Berth's name servers, which wins at once); every other pending claim on the name becomes `superseded`. A pending claim not verified by `verify_by` (72 hours after it was made by default; DOMAIN_CLAIM_TTL_HOURS) becomes `lapsed`. A lapsed or superseded claim holds nothing and cannot be verified (409 `claim_lapsed` / `claim_superseded`); remove it, or add the name again for a new claim (it replaces the team's void one). A team holds one pending or verified claim on a name (409 `domain_claimed_by_team`).

        **Permission:** `domains:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['domains.create'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, id: int, env: Literal['production', 'staging', 'development'], domain: int, idempotency_key: str | None = None) -> DomainsDeleteResult | None:
        """Remove a custom domain

        `DELETE /v1/sites/{id}/environments/{env}/domains/{domain}` (domains.delete)

        **Permission:** `domains:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            domain: The domain's id
        """
        return await self._client._call(OPERATIONS['domains.delete'], {'id': id, 'env': env, 'domain': domain}, idempotency_key=idempotency_key)

    async def list(self, *, id: int, env: Literal['production', 'staging', 'development']) -> list[Domain]:
        """The environment's custom domains

        `GET /v1/sites/{id}/environments/{env}/domains` (domains.list)

        Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record `verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node's edge (a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress's home and site URL); the edge sends every other domain there (301, path kept).

        A domain is a claim on the name, and claims cannot squat a name. Only a verified claim holds it: one per name across all teams, and adding a name verified for another site is 409 `domain_in_use` (naming no team). Pending claims of several teams on one name live side by side, each with its own token, and are never revealed to each other: adding a name someone else claimed but has not verified answers exactly as if nobody had. The first claim to prove control wins (its TXT record, or a zone the team hosts on Berth and delegates to Berth's name servers, which wins at once); every other pending claim on the name becomes `superseded`. A pending claim not verified by `verify_by` (72 hours after it was made by default; DOMAIN_CLAIM_TTL_HOURS) becomes `lapsed`. A lapsed or superseded claim holds nothing and cannot be verified (409 `claim_lapsed` / `claim_superseded`); remove it, or add the name again for a new claim (it replaces the team's void one). A team holds one pending or verified claim on a name (409 `domain_claimed_by_team`).

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['domains.list'], {'id': id, 'env': env})

    async def set_primary(self, *, id: int, env: Literal['production', 'staging', 'development'], body: DomainsSetPrimaryBody, idempotency_key: str | None = None) -> DomainsSetPrimaryResult:
        """Choose the address WordPress answers at

        `PUT /v1/sites/{id}/environments/{env}/primary-domain` (domains.setPrimary)

        A verified domain (`domain_id`), or the environment's default address (`null`), becomes its primary: an `environment.domains` operation records it, writes wp-config.php's WP_HOME and WP_SITEURL, rewrites every mention of the old address in the database (serialized data kept valid), and has the edge send every other domain there (301, path kept). Removing the primary domain hands the site back to its default address the same way.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
        """
        return await self._client._call(OPERATIONS['domains.setPrimary'], {'id': id, 'env': env}, body=body, idempotency_key=idempotency_key)

    async def verify(self, *, id: int, env: Literal['production', 'staging', 'development'], domain: int, idempotency_key: str | None = None) -> DomainsVerifyResult:
        """Verify a domain by its TXT record

        `POST /v1/sites/{id}/environments/{env}/domains/{domain}/verify` (domains.verify)

        Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record `verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node's edge (a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress's home and site URL); the edge sends every other domain there (301, path kept).

        A domain is a claim on the name, and claims cannot squat a name. Only a verified claim holds it: one per name across all teams, and adding a name verified for another site is 409 `domain_in_use` (naming no team). Pending claims of several teams on one name live side by side, each with its own token, and are never revealed to each other: adding a name someone else claimed but has not verified answers exactly as if nobody had. The first claim to prove control wins (its TXT record, or a zone the team hosts on Berth and delegates to Berth's name servers, which wins at once); every other pending claim on the name becomes `superseded`. A pending claim not verified by `verify_by` (72 hours after it was made by default; DOMAIN_CLAIM_TTL_HOURS) becomes `lapsed`. A lapsed or superseded claim holds nothing and cannot be verified (409 `claim_lapsed` / `claim_superseded`); remove it, or add the name again for a new claim (it replaces the team's void one). A team holds one pending or verified claim on a name (409 `domain_claimed_by_team`).

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            id: The site's id
            env: The environment, by its kind (a site has at most one of each): also the environment's `kind`
            domain: The domain's id
        """
        return await self._client._call(OPERATIONS['domains.verify'], {'id': id, 'env': env, 'domain': domain}, idempotency_key=idempotency_key)


__all__ = ['DomainsApi', 'AsyncDomainsApi']
