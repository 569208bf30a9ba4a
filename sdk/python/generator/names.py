"""Python names for the document's names, and the loud failure when two would be the same."""

from __future__ import annotations

import keyword
import re


class GenerationError(Exception):
    """The document cannot be turned into a clean Python surface; fix the document or the generator."""


def snake_case(name: str) -> str:
    """`listPhpVersions` -> `list_php_versions`, `Idempotency-Key` -> `idempotency_key`."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", spaced)
    snake = re.sub(r"[^0-9A-Za-z]+", "_", spaced).strip("_").lower()
    return python_identifier(snake)


def pascal_case(name: str) -> str:
    """`sites.listPhpVersions` -> `SitesListPhpVersions`."""
    parts = re.split(r"[^0-9A-Za-z]+", name)
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


def python_identifier(name: str) -> str:
    # PEP 8: a trailing underscore for a name that is a keyword (`from` -> `from_`).
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return name + "_"
    if not name.isidentifier():
        raise GenerationError(f"{name!r} cannot be a Python name")
    return name


def claim(taken: dict[str, str], name: str, owner: str) -> str:
    """Record that `owner` uses `name`; two owners of one name stop the generation."""
    if name in taken and taken[name] != owner:
        raise GenerationError(f"name collision: {name!r} is both {taken[name]} and {owner}")
    taken[name] = owner
    return name
