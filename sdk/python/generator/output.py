"""Writes the rendered tree, or tells how it differs from what is on disk (the generation check)."""

from __future__ import annotations

from pathlib import Path


def differences(tree: dict[str, str], out_dir: Path) -> list[str]:
    """Files that regenerating would add, change or delete."""
    found = []
    for name, text in sorted(tree.items()):
        path = out_dir / name
        if not path.exists():
            found.append(f"missing  {name}")
        elif path.read_text(encoding="utf-8") != text:
            found.append(f"changed  {name}")
    for path in sorted(out_dir.rglob("*.py")):
        name = path.relative_to(out_dir).as_posix()
        if name not in tree:
            found.append(f"stale    {name}")
    return found


def write(tree: dict[str, str], out_dir: Path) -> None:
    for path in sorted(out_dir.rglob("*.py")):
        if path.relative_to(out_dir).as_posix() not in tree:
            path.unlink()
    for name, text in tree.items():
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
