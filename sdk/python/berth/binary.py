"""Binary request bodies and streamed binary answers (backup archives, invoice PDFs)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import AsyncIterator, BinaryIO, Iterable, Iterator

import httpx

# bytes can be sent again on a retry; a file or an iterator of chunks is sent once.
BinaryContent = bytes | bytearray | BinaryIO | Iterable[bytes]

CHUNK_SIZE = 64 * 1024


class _DownloadInfo:
    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    @property
    def status(self) -> int:
        return self.response.status_code

    @property
    def content_type(self) -> str | None:
        return self.response.headers.get("content-type")

    @property
    def content_length(self) -> int | None:
        length = self.response.headers.get("content-length")
        return int(length) if length and length.isdigit() else None

    @property
    def filename(self) -> str | None:
        """From `Content-Disposition: attachment; filename="..."`, when the server named it."""
        disposition = self.response.headers.get("content-disposition", "")
        match = re.search(r'filename="?([^";]+)"?', disposition)
        return match.group(1) if match else None


class Download(_DownloadInfo):
    """A binary answer not yet read. Use it as a context manager so the connection is released:

        with client.backups.download(id=1, env="production", backup=7) as download:
            download.save("backup.tar.zst")          # or: for chunk in download.iter_bytes(): ...
    """

    def iter_bytes(self, chunk_size: int = CHUNK_SIZE) -> Iterator[bytes]:
        yield from self.response.iter_bytes(chunk_size)

    def read(self) -> bytes:
        return self.response.read()

    def save(self, path: str | Path) -> Path:
        """Stream the body into `path` and return it."""
        target = Path(path)
        with open(target, "wb") as file:
            for chunk in self.iter_bytes():
                file.write(chunk)
        return target

    def close(self) -> None:
        self.response.close()

    def __enter__(self) -> Download:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncDownload(_DownloadInfo):
    """`Download` for AsyncClient: `async with`, `aiter_bytes()`, `await save(path)`."""

    async def aiter_bytes(self, chunk_size: int = CHUNK_SIZE) -> AsyncIterator[bytes]:
        async for chunk in self.response.aiter_bytes(chunk_size):
            yield chunk

    async def read(self) -> bytes:
        return await self.response.aread()

    async def save(self, path: str | Path) -> Path:
        target = Path(path)
        with open(target, "wb") as file:
            async for chunk in self.aiter_bytes():
                file.write(chunk)
        return target

    async def close(self) -> None:
        await self.response.aclose()

    async def __aenter__(self) -> AsyncDownload:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

