"""The `dns_zones` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...pagination import Page
from ..operations import OPERATIONS
from ..models import DnsZone, DnsZonesCreateBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class DnsZonesApi:
    """`client.dns_zones`: create, delete, get, list."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, body: DnsZonesCreateBody, idempotency_key: str | None = None) -> DnsZone:
        """Host a DNS zone

        `POST /v1/dns/zones` (dnsZones.create)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return self._client._call(OPERATIONS['dnsZones.create'], {}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, zone: int, idempotency_key: str | None = None) -> None:
        """Stop hosting a DNS zone

        `DELETE /v1/dns/zones/{zone}` (dnsZones.delete)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return self._client._call(OPERATIONS['dnsZones.delete'], {'zone': zone}, idempotency_key=idempotency_key)

    def get(self, *, zone: int) -> DnsZone:
        """One DNS zone

        `GET /v1/dns/zones/{zone}` (dnsZones.get)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return self._client._call(OPERATIONS['dnsZones.get'], {'zone': zone})

    def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[DnsZone]:
        """The team's DNS zones

        `GET /v1/dns/zones` (dnsZones.list)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return self._client._call(OPERATIONS['dnsZones.list'], {'page': page, 'page_size': page_size})


class AsyncDnsZonesApi:
    """`client.dns_zones`: create, delete, get, list."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, body: DnsZonesCreateBody, idempotency_key: str | None = None) -> DnsZone:
        """Host a DNS zone

        `POST /v1/dns/zones` (dnsZones.create)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:create`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).
        """
        return await self._client._call(OPERATIONS['dnsZones.create'], {}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, zone: int, idempotency_key: str | None = None) -> None:
        """Stop hosting a DNS zone

        `DELETE /v1/dns/zones/{zone}` (dnsZones.delete)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:delete`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return await self._client._call(OPERATIONS['dnsZones.delete'], {'zone': zone}, idempotency_key=idempotency_key)

    async def get(self, *, zone: int) -> DnsZone:
        """One DNS zone

        `GET /v1/dns/zones/{zone}` (dnsZones.get)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return await self._client._call(OPERATIONS['dnsZones.get'], {'zone': zone})

    async def list(self, *, page: int | None = None, page_size: int | None = None) -> Page[DnsZone]:
        """The team's DNS zones

        `GET /v1/dns/zones` (dnsZones.list)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            page: Page number, from 1 (default 1)
            page_size: Items per page, 1 to 100 (default 20)
        """
        return await self._client._call(OPERATIONS['dnsZones.list'], {'page': page, 'page_size': page_size})


__all__ = ['DnsZonesApi', 'AsyncDnsZonesApi']
