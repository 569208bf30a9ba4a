"""berth/_generated/namespaces/: one module per operationId prefix, a sync and an async class each."""

from __future__ import annotations

import re
from itertools import groupby

from .document import Operation, answer_kind
from .names import GenerationError, claim, pascal_case
from .python_types import TypeRegistry
from .text import docstring

JSON_MEDIA = "application/json"


def namespace_class(namespace: str, is_async: bool) -> str:
    return ("Async" if is_async else "") + pascal_case(namespace) + "Api"


def render_namespaces(operations: list[Operation], registry: TypeRegistry) -> dict[str, str]:
    """File name -> source. Types are registered with `registry` as a side effect."""
    files = {}
    class_owners = {name: "a model" for name in registry.components}
    by_namespace = groupby(sorted(operations, key=lambda op: (op.namespace, op.method_name)), key=lambda op: op.namespace)
    namespaces = []
    for namespace, group in by_namespace:
        ops = list(group)
        namespaces.append(namespace)
        for is_async in (False, True):
            claim(class_owners, namespace_class(namespace, is_async), f"namespace {namespace}")
        files[f"namespaces/{namespace}.py"] = _namespace_module(namespace, ops, registry)
    files["namespaces/__init__.py"] = _namespaces_index(namespaces)
    return files


def _namespace_module(namespace: str, ops: list[Operation], registry: TypeRegistry) -> str:
    methods = {is_async: [] for is_async in (False, True)}
    used_types: set[str] = set()
    for op in ops:
        signature = _signature(op, registry)
        used_types.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(signature.types())))
        for is_async in (False, True):
            methods[is_async].append(_method(op, signature, is_async))
    models = sorted(name for name in used_types if name in registry.definitions or name in registry.components)
    runtime_names = [name for name in ("Any", "Literal") if name in used_types]
    helpers = [f"from ...binary import {name}" for name in ("AsyncDownload", "BinaryContent", "Download") if name in used_types or (name == "AsyncDownload" and "Download" in used_types)]
    lines = [
        f'"""The `{namespace}` operations. Generated from docs/openapi.json by sdk/python/generator; do not edit."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import " + ", ".join(["TYPE_CHECKING", *runtime_names]),
        "",
        *helpers,
    ]
    if "Page" in used_types:
        lines.append("from ...pagination import Page")
    lines.append("from ..operations import OPERATIONS")
    if models:
        lines.append("from ..models import " + ", ".join(models))
    lines += ["", "if TYPE_CHECKING:", "    from ...async_client import AsyncClient", "    from ...client import Client"]
    for is_async in (False, True):
        client = "AsyncClient" if is_async else "Client"
        lines += [
            "",
            "",
            f"class {namespace_class(namespace, is_async)}:",
            f'    """`client.{namespace}`: {", ".join(op.method_name for op in ops)}."""',
            "",
            f"    def __init__(self, client: {client}) -> None:",
            "        self._client = client",
        ]
        for method in methods[is_async]:
            lines += ["", *method]
    lines += ["", "", "__all__ = [" + ", ".join(repr(namespace_class(namespace, a)) for a in (False, True)) + "]"]
    return "\n".join(lines) + "\n"


class _Signature:
    def __init__(self):
        self.arguments: list[tuple[str, str, str | None]] = []  # name, type, default (None: required)
        self.return_type = "None"
        self.body_kind = None  # "json" or "binary"
        self.default_media = None

    def types(self) -> list[str]:
        return [annotation for _, annotation, _ in self.arguments] + [self.return_type]


def _signature(op: Operation, registry: TypeRegistry) -> _Signature:
    signature = _Signature()
    base = pascal_case(op.operation_id)
    params = [p for p in op.params if p.location == "path"] + [p for p in op.params if p.location == "query" and p.required]
    for param in params:
        signature.arguments.append((param.python_name, registry.type_of(param.schema, base + pascal_case(param.name)), None))
    if op.body_schemas:
        media_types = list(op.body_schemas)
        if media_types == [JSON_MEDIA]:
            signature.body_kind = "json"
            body_type = registry.type_of(op.body_schemas[JSON_MEDIA], base + "Body")
        elif JSON_MEDIA in media_types:
            raise GenerationError(f"{op.operation_id}: a body that is JSON or something else is not supported")
        else:
            signature.body_kind = "binary"
            signature.default_media = media_types[0]
            body_type = "BinaryContent"
        signature.arguments.append(("body", body_type if op.body_required else f"{body_type} | None", None if op.body_required else "None"))
    for param in op.params:
        if param.location == "query" and not param.required:
            signature.arguments.append((param.python_name, f"{registry.type_of(param.schema, base + pascal_case(param.name))} | None", "None"))
    for param in op.params:
        if param.location == "header":
            # Headers the SDK fills itself (X-CSRF-Token from the svc_csrf cookie) stay optional.
            signature.arguments.append((param.python_name, "str | None", "None"))
    if signature.body_kind == "binary":
        literal = "Literal[" + ", ".join(repr(media) for media in op.body_schemas) + "]"
        signature.arguments.append(("content_type", literal, repr(signature.default_media)))
    if op.idempotent:
        signature.arguments.append(("idempotency_key", "str | None", "None"))
    signature.return_type = " | ".join(dict.fromkeys(_return_type(op, status, registry) for status in op.responses)) or "None"
    return signature


def _return_type(op: Operation, status: str, registry: TypeRegistry) -> str:
    kind = answer_kind(op, status)
    base = pascal_case(op.operation_id)
    _, schema = op.responses[status]
    if kind == "empty":
        return "None"
    if kind == "binary":
        return "Download"
    if kind == "body":
        return registry.type_of(schema, base + "Result")
    data = schema["properties"]["data"]
    if kind == "page":
        return f"Page[{registry.type_of(data.get('items'), base + 'Item')}]"
    return registry.type_of(data, base + "Result")


def _method(op: Operation, signature: _Signature, is_async: bool) -> list[str]:
    return_type = signature.return_type.replace("Download", "AsyncDownload") if is_async else signature.return_type
    arguments = "".join(f", {name}: {annotation}" + (f" = {default}" if default else "") for name, annotation, default in signature.arguments)
    keyword_marker = ", *" if signature.arguments else ""
    lines = [f"    {'async ' if is_async else ''}def {op.method_name}(self{keyword_marker}{arguments}) -> {return_type}:"]
    lines += docstring(_method_doc(op), "        ")
    params = ", ".join(f"{p.name!r}: {p.python_name}" for p in op.params)
    call = f"self._client._call(OPERATIONS[{op.operation_id!r}], {{{params}}}"
    if signature.body_kind:
        call += ", body=body"
    if signature.body_kind == "binary":
        call += ", content_type=content_type"
    if op.idempotent:
        call += ", idempotency_key=idempotency_key"
    call += ")"
    lines.append(f"        return {'await ' if is_async else ''}{call}")
    return lines


def _method_doc(op: Operation) -> str:
    parts = [f"{op.summary}\n\n`{op.http_method} {op.path}` ({op.operation_id})"]
    if op.description:
        parts.append(op.description)
    documented = [p for p in op.params if p.description]
    if documented:
        parts.append("Args:\n" + "\n".join(f"    {p.python_name}: {' '.join(p.description.split())}" for p in documented))
    return "\n\n".join(parts)


def _namespaces_index(namespaces: list[str]) -> str:
    lines = [
        '"""The namespace attributes of Client and AsyncClient. Generated by sdk/python/generator; do not edit."""',
        "",
        "from __future__ import annotations",
        "",
    ]
    for namespace in namespaces:
        lines.append(f"from .{namespace} import {namespace_class(namespace, False)}, {namespace_class(namespace, True)}")
    for is_async in (False, True):
        lines += ["", "", f"class {'Async' if is_async else ''}Namespaces:"]
        lines.append('    """One attribute per operationId prefix, in snake_case."""')
        lines.append("")
        for namespace in namespaces:
            lines.append(f"    {namespace}: {namespace_class(namespace, is_async)}")
        lines += ["", "    def _attach_namespaces(self) -> None:"]
        for namespace in namespaces:
            lines.append(f"        self.{namespace} = {namespace_class(namespace, is_async)}(self)  # type: ignore[arg-type]")
    lines += ["", "", "NAMESPACES = (" + "".join(f"{n!r}, " for n in namespaces) + ")", ""]
    return "\n".join(lines)
