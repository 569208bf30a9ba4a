"""`python3 -m generator` (from sdk/python) rewrites berth/_generated/; `--check` exits 1 if it would change."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import document
from .names import GenerationError
from .output import differences, write
from .render import render

SDK_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DOCUMENT = SDK_ROOT.parent.parent / "docs" / "openapi.json"
OUT_DIR = SDK_ROOT / "berth" / "_generated"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m generator", description=__doc__)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when berth/_generated/ is out of date")
    parser.add_argument("--document", type=Path, default=DEFAULT_DOCUMENT, help="the OpenAPI document (default: docs/openapi.json)")
    args = parser.parse_args(argv)
    try:
        tree = render(document.load(args.document))
    except GenerationError as error:
        print(f"generator: {error}", file=sys.stderr)
        return 2
    if args.check:
        found = differences(tree, OUT_DIR)
        if found:
            print("berth/_generated/ is out of date with the document; run `cd sdk/python && python3 -m generator`:", file=sys.stderr)
            print("\n".join(f"  {line}" for line in found), file=sys.stderr)
            return 1
        print(f"berth/_generated/ is up to date ({len(tree)} files)")
        return 0
    write(tree, OUT_DIR)
    print(f"wrote {len(tree)} files to {OUT_DIR.relative_to(SDK_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
