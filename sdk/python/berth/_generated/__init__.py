"""Code generated from docs/openapi.json by sdk/python/generator; do not edit. Regenerate with
`cd sdk/python && python3 -m generator`."""

from .namespaces import AsyncNamespaces, Namespaces
from .operations import OPERATIONS

__all__ = ["AsyncNamespaces", "Namespaces", "OPERATIONS"]
