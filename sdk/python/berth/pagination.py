"""List answers (`{data: [...], pagination, meta}`) and walking every page of one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable, Generic, Iterator, TypeVar

Item = TypeVar("Item")

MAX_PAGE_SIZE = 100


@dataclass
class Page(Generic[Item]):
    """One page of a list: `.data` (the items), `.pagination` ({page, page_size, total, total_pages})."""

    data: list[Item]
    pagination: dict[str, int]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def has_next_page(self) -> bool:
        return bool(self.data) and self.pagination.get("page", 1) < self.pagination.get("total_pages", 0)

    def __iter__(self) -> Iterator[Item]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def paginate(list_method: Callable[..., Page[Item]], page_size: int = MAX_PAGE_SIZE, **arguments: Any) -> Iterator[Item]:
    """Every item of every page, fetched a page at a time as the iteration reaches it."""
    page_number = 1
    while True:
        page = list_method(page=page_number, page_size=page_size, **arguments)
        yield from page.data
        if not page.has_next_page:
            return
        page_number += 1


async def apaginate(
    list_method: Callable[..., Awaitable[Page[Item]]], page_size: int = MAX_PAGE_SIZE, **arguments: Any
) -> AsyncIterator[Item]:
    page_number = 1
    while True:
        page = await list_method(page=page_number, page_size=page_size, **arguments)
        for item in page.data:
            yield item
        if not page.has_next_page:
            return
        page_number += 1
