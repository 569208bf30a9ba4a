"""A real HTTP server on 127.0.0.1 (port 0, a thread) that answers what a test scripted and records
every request, so the SDK is tested through httpx and a socket rather than a mocked client."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # JSON-able, or bytes sent as is
    headers: dict[str, str] = field(default_factory=dict)
    drop_connection: bool = False  # close the socket without answering: a network failure


Handler = Callable[[Recorded], Reply]


class ScriptedServer:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self._replies: list[Reply] = []
        self._handler: Handler | None = None
        self._lock = threading.Lock()
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), self._request_handler_class())
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}"

    def reply(self, *replies: Reply) -> None:
        """Answer the next requests with these, in order."""
        self._replies.extend(replies)

    def handle(self, handler: Handler) -> None:
        """Answer every request (once the scripted replies are used up) with handler(request)."""
        self._handler = handler

    def start(self) -> ScriptedServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()

    def _answer(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._replies:
                return self._replies.pop(0)
        if self._handler:
            return self._handler(request)
        return Reply(500, {"error": {"code": "INTERNAL_ERROR", "message": "the test scripted no answer", "details": {}}})

    def _request_handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep pytest's output for failures
                pass

            def _serve(self) -> None:
                url = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                query = {name: values[-1] for name, values in parse_qs(url.query).items()}
                headers = {name.lower(): value for name, value in self.headers.items()}
                reply = server._answer(Recorded(self.command, url.path, query, headers, body))
                if reply.drop_connection:
                    self.close_connection = True
                    return
                if isinstance(reply.body, bytes):
                    payload, content_type = reply.body, "application/octet-stream"
                elif reply.body is None:
                    payload, content_type = b"", None
                else:
                    payload, content_type = json.dumps(reply.body).encode(), "application/json"
                self.send_response(reply.status)
                headers = {"Content-Length": str(len(payload)), **({"Content-Type": content_type} if content_type else {}), **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _serve

        return RequestHandler


def v1_data(data: Any, status: int = 200) -> Reply:
    return Reply(status, {"data": data, "meta": {"timestamp": "2026-11-27T00:00:00Z", "request_id": "req-ok"}})


def v1_error(status: int, code: str, message: str, details: dict | None = None, request_id: str = "req-1") -> Reply:
    body = {"error": {"code": code, "message": message, "details": details or {}}, "meta": {"timestamp": "2026-11-27T00:00:00Z", "request_id": request_id}}
    return Reply(status, body, {"X-Request-Id": request_id})
