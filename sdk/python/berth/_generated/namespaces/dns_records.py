"""The `dns_records` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..operations import OPERATIONS
from ..models import DnsRecordSet, DnsRecordsCreateBody, DnsRecordsListResult, DnsRecordsReplaceBody

if TYPE_CHECKING:
    from ...async_client import AsyncClient
    from ...client import Client


class DnsRecordsApi:
    """`client.dns_records`: create, delete, list, replace."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def create(self, *, zone: int, body: DnsRecordsCreateBody, idempotency_key: str | None = None) -> DnsRecordSet:
        """Add a record set

        `POST /v1/dns/zones/{zone}/records` (dnsRecords.create)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return self._client._call(OPERATIONS['dnsRecords.create'], {'zone': zone}, body=body, idempotency_key=idempotency_key)

    def delete(self, *, zone: int, name: str, type: Literal['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV'], idempotency_key: str | None = None) -> None:
        """Delete a record set

        `DELETE /v1/dns/zones/{zone}/records/{name}/{type}` (dnsRecords.delete)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
            name: The record set's name: the zone's apex as `@`, else relative to the zone or fully qualified
            type: The record type
        """
        return self._client._call(OPERATIONS['dnsRecords.delete'], {'zone': zone, 'name': name, 'type': type}, idempotency_key=idempotency_key)

    def list(self, *, zone: int) -> DnsRecordsListResult:
        """The zone's record sets

        `GET /v1/dns/zones/{zone}/records` (dnsRecords.list)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return self._client._call(OPERATIONS['dnsRecords.list'], {'zone': zone})

    def replace(self, *, zone: int, name: str, type: Literal['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV'], body: DnsRecordsReplaceBody, idempotency_key: str | None = None) -> DnsRecordSet:
        """Replace a record set

        `PUT /v1/dns/zones/{zone}/records/{name}/{type}` (dnsRecords.replace)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
            name: The record set's name: the zone's apex as `@`, else relative to the zone or fully qualified
            type: The record type
        """
        return self._client._call(OPERATIONS['dnsRecords.replace'], {'zone': zone, 'name': name, 'type': type}, body=body, idempotency_key=idempotency_key)


class AsyncDnsRecordsApi:
    """`client.dns_records`: create, delete, list, replace."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(self, *, zone: int, body: DnsRecordsCreateBody, idempotency_key: str | None = None) -> DnsRecordSet:
        """Add a record set

        `POST /v1/dns/zones/{zone}/records` (dnsRecords.create)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return await self._client._call(OPERATIONS['dnsRecords.create'], {'zone': zone}, body=body, idempotency_key=idempotency_key)

    async def delete(self, *, zone: int, name: str, type: Literal['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV'], idempotency_key: str | None = None) -> None:
        """Delete a record set

        `DELETE /v1/dns/zones/{zone}/records/{name}/{type}` (dnsRecords.delete)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
            name: The record set's name: the zone's apex as `@`, else relative to the zone or fully qualified
            type: The record type
        """
        return await self._client._call(OPERATIONS['dnsRecords.delete'], {'zone': zone, 'name': name, 'type': type}, idempotency_key=idempotency_key)

    async def list(self, *, zone: int) -> DnsRecordsListResult:
        """The zone's record sets

        `GET /v1/dns/zones/{zone}/records` (dnsRecords.list)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:read`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
        """
        return await self._client._call(OPERATIONS['dnsRecords.list'], {'zone': zone})

    async def replace(self, *, zone: int, name: str, type: Literal['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV'], body: DnsRecordsReplaceBody, idempotency_key: str | None = None) -> DnsRecordSet:
        """Replace a record set

        `PUT /v1/dns/zones/{zone}/records/{name}/{type}` (dnsRecords.replace)

        Zones hosted on Berth's DNS servers (PowerDNS). A zone answers once the domain is delegated to `nameservers` at its registrar. Records are kept as record sets: every record of one name and type, with one TTL. Names are absolute without the final dot (`www.example.com`); in a request a name may also be relative to the zone (`www`, `@` for the apex, `*.dev`). Values are in zone-file presentation form, host names in them absolute: A `192.0.2.10`, AAAA `2001:db8::10`, CNAME `target.example.net`, MX `10 mail.example.com`, TXT any printable text (split into 255-byte strings for you), CAA `0 issue "letsencrypt.org"`, SRV `10 5 5060 sip.example.com`. A CNAME is alone at its name and never at the apex. SOA and the apex NS records are the servers' own. 502 `UPSTREAM_ERROR` (`details.service: dns`) when the DNS server refuses or does not answer; 409 when DNS hosting is not configured on this Berth.

        **Permission:** `domains:update`; without it 403 `AUTHORIZATION_ERROR` (`details.reason: missing_permission`).

        Args:
            zone: The DNS zone's id
            name: The record set's name: the zone's apex as `@`, else relative to the zone or fully qualified
            type: The record type
        """
        return await self._client._call(OPERATIONS['dnsRecords.replace'], {'zone': zone, 'name': name, 'type': type}, body=body, idempotency_key=idempotency_key)


__all__ = ['DnsRecordsApi', 'AsyncDnsRecordsApi']
