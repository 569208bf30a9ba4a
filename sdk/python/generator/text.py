"""Docstrings and comments made safe to place in generated source."""

from __future__ import annotations

import textwrap


def docstring(text: str, indent: str) -> list[str]:
    """A triple-quoted docstring (a list of lines) for `text`, which may hold quotes and backslashes."""
    safe = text.strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if not safe:
        return []
    lines = safe.splitlines()
    if len(lines) == 1 and len(indent) + len(lines[0]) < 100 and not lines[0].endswith('"'):
        return [f'{indent}"""{lines[0]}"""']
    body = [f"{indent}{line}".rstrip() for line in lines]
    return [f'{indent}"""{body[0].strip()}', *body[1:], f'{indent}"""']


def comment(text: str, indent: str) -> list[str]:
    """`#:` comment lines (Sphinx reads them as attribute docs), wrapped at 100 columns."""
    flat = " ".join(text.split())
    if not flat:
        return []
    return [f"{indent}#: {line}" for line in textwrap.wrap(flat, width=max(40, 96 - len(indent)))]
