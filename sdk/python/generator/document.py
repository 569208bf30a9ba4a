"""Reads the OpenAPI document into the few facts the SDK needs about each operation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .names import GenerationError, claim, snake_case

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
# An event stream is read as it comes, like a download: the SDK hands its bytes over unparsed.
BINARY_MEDIA_PREFIXES = ("application/octet-stream", "application/pdf", "application/zip", "application/zstd", "text/event-stream")
# Client attributes a namespace must not shadow.
RESERVED_CLIENT_NAMES = {"paginate", "wait_for_operation", "close", "sign_in", "base_url", "cookies", "token", "device_fingerprint"}


@dataclass(frozen=True)
class Param:
    name: str
    python_name: str
    location: str
    required: bool
    schema: dict
    description: str


@dataclass(frozen=True)
class Operation:
    operation_id: str
    namespace: str
    method_name: str
    http_method: str
    path: str
    summary: str
    description: str
    params: tuple[Param, ...]  # without Idempotency-Key, which every call handles alike
    idempotent: bool
    body_schemas: dict  # media type -> schema
    body_required: bool
    responses: dict  # 2xx status -> (media type or None, schema or None)


def load(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def operations(document: dict) -> list[Operation]:
    result = []
    namespace_owner: dict[str, str] = {}
    methods: dict[str, dict[str, str]] = {}
    for path, item in document["paths"].items():
        if any(key not in HTTP_METHODS for key in item if key not in ("summary", "description", "parameters")):
            raise GenerationError(f"{path}: unsupported path item keys {sorted(item)}")
        for http_method in HTTP_METHODS:
            if http_method in item:
                op = _operation(path, http_method, item[http_method], item.get("parameters", []))
                if op.namespace in RESERVED_CLIENT_NAMES:
                    raise GenerationError(f"{op.operation_id}: namespace {op.namespace!r} is a Client attribute")
                claim(namespace_owner, op.namespace, op.operation_id.split(".")[0])
                claim(methods.setdefault(op.namespace, {}), op.method_name, op.operation_id)
                result.append(op)
    return sorted(result, key=lambda op: op.operation_id)


def _operation(path: str, http_method: str, raw: dict, shared_params: list) -> Operation:
    operation_id = raw.get("operationId") or ""
    if operation_id.count(".") != 1:
        raise GenerationError(f"{http_method.upper()} {path}: operationId {operation_id!r} is not <namespace>.<verb>")
    namespace, verb = operation_id.split(".")
    params, idempotent = _params(operation_id, shared_params + raw.get("parameters", []))
    body = raw.get("requestBody") or {}
    body_schemas = {media: content.get("schema", {}) for media, content in body.get("content", {}).items()}
    responses = {}
    for status, response in sorted(raw.get("responses", {}).items()):
        if status.startswith("2"):
            content = response.get("content") or {}
            media = next(iter(content), None)
            responses[status] = (media, content[media].get("schema") if media else None)
    return Operation(
        operation_id=operation_id,
        namespace=snake_case(namespace),
        method_name=snake_case(verb),
        http_method=http_method.upper(),
        path=path,
        summary=raw.get("summary", ""),
        description=raw.get("description", ""),
        params=params,
        idempotent=idempotent,
        body_schemas=body_schemas,
        body_required=bool(body.get("required")),
        responses=responses,
    )


def _params(operation_id: str, raw_params: list) -> tuple[tuple[Param, ...], bool]:
    taken = {"body": "the request body", "idempotency_key": "the Idempotency-Key header", "content_type": "the body's media type", "self": "the namespace"}
    params = []
    idempotent = False
    for raw in raw_params:
        if "$ref" in raw:
            raise GenerationError(f"{operation_id}: parameter $ref is not supported")
        if raw["in"] == "header" and raw["name"].lower() == "idempotency-key":
            idempotent = True
            continue
        if raw["in"] not in ("path", "query", "header"):
            raise GenerationError(f"{operation_id}: parameter {raw['name']!r} in {raw['in']} is not supported")
        python_name = claim(taken, snake_case(raw["name"]), f"{raw['in']} parameter {raw['name']!r} of {operation_id}")
        params.append(
            Param(
                name=raw["name"],
                python_name=python_name,
                location=raw["in"],
                required=bool(raw.get("required")) or raw["in"] == "path",
                schema=raw.get("schema", {}),
                description=raw.get("description", ""),
            )
        )
    return tuple(params), idempotent


def answer_kind(op: Operation, status: str) -> str:
    media, schema = op.responses[status]
    if media is None:
        return "empty"
    if media.startswith(BINARY_MEDIA_PREFIXES) or (schema or {}).get("format") == "binary":
        return "binary"
    if op.path.startswith("/api/"):
        return "body"
    properties = (schema or {}).get("properties", {})
    if "$ref" in (schema or {}):
        raise GenerationError(f"{op.operation_id}: a {status} answer that is a bare $ref has no `data` to unwrap")
    if "data" in properties and "pagination" in properties:
        return "page"
    if "data" in properties:
        return "data"
    raise GenerationError(f"{op.operation_id}: {status} answer is neither {{data, meta}} nor a list")
