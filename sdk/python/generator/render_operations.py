"""berth/_generated/operations.py: `OPERATIONS`, every operation's method, path and parameters."""

from __future__ import annotations

from .document import Operation, answer_kind

HEADER = '''"""Every operation of the Berth API. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from ..operation_spec import OperationSpec, Parameter

OPERATIONS: dict[str, OperationSpec] = {
'''


def render_operations(operations: list[Operation]) -> str:
    out = [HEADER]
    for op in operations:
        params = "".join(
            f"            Parameter({p.name!r}, {p.python_name!r}, {p.location!r}, {p.required!r}),\n" for p in op.params
        )
        answers = ", ".join(f"{status!r}: {answer_kind(op, status)!r}" for status in op.responses)
        out.append(
            f"    {op.operation_id!r}: OperationSpec(\n"
            f"        operation_id={op.operation_id!r},\n"
            f"        namespace={op.namespace!r},\n"
            f"        method_name={op.method_name!r},\n"
            f"        http_method={op.http_method!r},\n"
            f"        path={op.path!r},\n"
            f"        parameters=(\n{params}        ),\n"
            f"        idempotent={op.idempotent!r},\n"
            f"        body_media_types={tuple(op.body_schemas)!r},\n"
            f"        body_required={op.body_required!r},\n"
            f"        answers={{{answers}}},\n"
            f"        summary={op.summary!r},\n"
            f"    ),\n"
        )
    out.append("}\n")
    return "".join(out)
