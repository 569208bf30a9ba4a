"""A PEP 517 build backend in the standard library only.

pip builds a local project in an isolated environment and would fetch setuptools from PyPI for it;
this machine (and Debian's offline installs) cannot reach PyPI. The package is pure Python with no
build step, so a wheel is just a zip of `berth/` plus the dist-info files PEP 427 asks for.
"""

from __future__ import annotations

import base64
import hashlib
import os
import tarfile
import tomllib
import zipfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "berth"
WHEEL_TAG = "py3-none-any"
# Fixed file times keep the wheel byte-for-byte reproducible (zip needs a date from 1980 on).
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def _project() -> dict:
    with open(PROJECT_ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _dist_name() -> str:
    project = _project()
    return f"{project['name']}-{project['version']}"


def _metadata() -> str:
    project = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    readme = PROJECT_ROOT / project.get("readme", "README.md")
    if readme.exists():
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + readme.read_text(encoding="utf-8")
    return "\n".join(lines) + "\n"


def _package_files() -> list[Path]:
    files = []
    for path in sorted((PROJECT_ROOT / PACKAGE).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".typed"):
            files.append(path)
    return files


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _dist_info_files() -> dict[str, bytes]:
    return {
        "METADATA": _metadata().encode(),
        "WHEEL": f"Wheel-Version: 1.0\nGenerator: berth offline_wheel\nRoot-Is-Purelib: true\nTag: {WHEEL_TAG}\n".encode(),
        "top_level.txt": f"{PACKAGE}\n".encode(),
    }


def _write(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = Path(metadata_directory) / f"{_dist_name()}.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    for name, data in _dist_info_files().items():
        (dist_info / name).write_bytes(data)
    return dist_info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    wheel_name = f"{_dist_name()}-{WHEEL_TAG}.whl"
    dist_info = f"{_dist_name()}.dist-info"
    records = []
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w") as archive:
        for path in _package_files():
            name = path.relative_to(PROJECT_ROOT).as_posix()
            data = path.read_bytes()
            _write(archive, name, data)
            records.append(_record_line(name, data))
        for file_name, data in _dist_info_files().items():
            name = f"{dist_info}/{file_name}"
            _write(archive, name, data)
            records.append(_record_line(name, data))
        records.append(f"{dist_info}/RECORD,,")
        _write(archive, f"{dist_info}/RECORD", ("\n".join(records) + "\n").encode())
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    sdist_name = f"{_dist_name()}.tar.gz"
    with tarfile.open(Path(sdist_directory) / sdist_name, "w:gz") as archive:
        for relative in ["pyproject.toml", "README.md", "build_support/offline_wheel.py"]:
            if (PROJECT_ROOT / relative).exists():
                archive.add(PROJECT_ROOT / relative, arcname=f"{_dist_name()}/{relative}")
        for path in _package_files():
            archive.add(path, arcname=f"{_dist_name()}/{path.relative_to(PROJECT_ROOT).as_posix()}")
    return os.path.basename(sdist_name)
