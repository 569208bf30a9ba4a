"""The whole berth/_generated/ tree for one OpenAPI document."""

from __future__ import annotations

from . import document
from .python_types import TypeRegistry
from .render_models import render_models
from .render_namespaces import render_namespaces
from .render_operations import render_operations

PACKAGE_INIT = '''"""Code generated from docs/openapi.json by sdk/python/generator; do not edit. Regenerate with
`cd sdk/python && python3 -m generator`."""

from .namespaces import AsyncNamespaces, Namespaces
from .operations import OPERATIONS

__all__ = ["AsyncNamespaces", "Namespaces", "OPERATIONS"]
'''


def render(openapi: dict) -> dict[str, str]:
    operations = document.operations(openapi)
    registry = TypeRegistry(openapi.get("components", {}).get("schemas", {}))
    registry.add_components()
    tree = {"__init__.py": PACKAGE_INIT, "operations.py": render_operations(operations)}
    tree.update(render_namespaces(operations, registry))
    # Last: rendering the namespaces named the inline request and answer types.
    tree["models.py"] = render_models(registry)
    return tree
