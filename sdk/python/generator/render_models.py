"""berth/_generated/models.py: one TypedDict per object schema."""

from __future__ import annotations

import keyword

from .python_types import TypedDictDef, TypeRegistry
from .text import comment, docstring

HEADER = '''"""Typed models of the Berth API. Generated from docs/openapi.json by sdk/python/generator; do not edit."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict
'''


def render_models(registry: TypeRegistry) -> str:
    out = [HEADER]
    for name in sorted(registry.definitions):
        out.append("\n\n" + _typed_dict(registry.definitions[name]))
    # Aliases are evaluated at import, so they come after the classes they may name.
    for name in sorted(registry.components):
        alias = registry.component_alias(name)
        if alias is not None:
            out.append(f"\n{name} = {alias}\n")
    names = sorted(set(registry.definitions) | set(registry.components))
    out.append("\n\n__all__ = [\n" + "".join(f"    {name!r},\n" for name in names) + "]\n")
    return "".join(out)


def _typed_dict(definition: TypedDictDef) -> str:
    if all(key.isidentifier() and not key.startswith("__") for key, *_ in definition.fields) and not _has_keyword(definition):
        lines = [f"class {definition.name}(TypedDict):"]
        lines += docstring(definition.description, "    ")
        for key, expression, required, description in definition.fields:
            lines += comment(description, "    ")
            lines.append(f"    {key}: {_field_type(expression, required)}")
        if len(lines) == 1:
            lines.append("    pass")
        return "\n".join(lines) + "\n"
    # Keys that are not Python names need the functional form.
    fields = "".join(f"        {key!r}: {_field_type(expression, required)!r},\n" for key, expression, required, _ in definition.fields)
    return f"{definition.name} = TypedDict(\n    {definition.name!r},\n    {{\n{fields}    }},\n)\n"


def _has_keyword(definition: TypedDictDef) -> bool:
    return any(keyword.iskeyword(key) for key, *_ in definition.fields)


def _field_type(expression: str, required: bool) -> str:
    return expression if required else f"NotRequired[{expression}]"
