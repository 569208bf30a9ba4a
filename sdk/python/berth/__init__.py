"""Berth's Python SDK.

    import berth

    client = berth.Client("https://panel.example.com", token="berth_pat_...")
    answer = client.sites.create(body={"name": "Shop", "php_version": "8.3", "wordpress": {...}})
    client.wait_for_operation(answer["operation"], on_progress=print)
    for site in client.paginate(client.sites.list):
        print(site["name"])

Every operation of docs/openapi.json is `client.<namespace>.<verb>(...)` (snake_case of its
operationId); `berth.OPERATIONS` lists them.
"""

__version__ = "0.1.0"

from ._generated import OPERATIONS  # noqa: E402
from ._generated import models  # noqa: E402
from .async_client import AsyncClient  # noqa: E402
from .binary import AsyncDownload, Download  # noqa: E402
from .client import Client  # noqa: E402
from .errors import (  # noqa: E402
    AuthenticationError,
    BerthConnectionError,
    BerthError,
    ConflictError,
    NotFoundError,
    OperationFailedError,
    OperationTimeoutError,
    PermissionDeniedError,
    RateLimitError,
    ValidationError,
)
from .operation_spec import OperationSpec, Parameter  # noqa: E402
from .pagination import Page  # noqa: E402

__all__ = [
    "OPERATIONS",
    "AsyncClient",
    "AsyncDownload",
    "AuthenticationError",
    "BerthConnectionError",
    "BerthError",
    "Client",
    "ConflictError",
    "Download",
    "NotFoundError",
    "OperationFailedError",
    "OperationSpec",
    "OperationTimeoutError",
    "Page",
    "Parameter",
    "PermissionDeniedError",
    "RateLimitError",
    "ValidationError",
    "models",
]
