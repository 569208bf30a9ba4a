"""Every operation called through the SDK, as the document says it is called.

A Prism mock of docs/openapi.json started with `--errors` answers a request that breaks the document
(path, query, headers, body, credentials) 4xx with an `sl-violations` header. The samples (minimal
valid parameters and body per operation) come from the TypeScript side's
test/helpers/operation-samples.ts, written to the JSON file named by BERTH_OPERATION_SAMPLES:
`[{"operationId", "method", "path", "pathParams", "query", "body", "bodyMediaType"}]`.
BERTH_PRISM_URL is the mock's address. test/integration/sdk/python-sdk.test.ts sets both (and
BERTH_SDK_TESTS_STRICT=1, which makes their absence a failure instead of a skip).
"""

from __future__ import annotations

import json
import os
from typing import Any

import httpx
import pytest

import berth

SAMPLES_FILE = os.environ.get("BERTH_OPERATION_SAMPLES")
PRISM_URL = os.environ.get("BERTH_PRISM_URL")
STRICT = os.environ.get("BERTH_SDK_TESTS_STRICT") == "1"


def _load_samples() -> list[dict[str, Any]]:
    if not SAMPLES_FILE or not PRISM_URL:
        return []
    with open(SAMPLES_FILE, encoding="utf-8") as f:
        return json.load(f)


SAMPLES = _load_samples()


class RecordingTransport(httpx.HTTPTransport):
    """The real transport, keeping the last answer's status and headers (the SDK returns only bodies)."""

    def __init__(self) -> None:
        super().__init__()
        self.last_request: httpx.Request | None = None
        self.last_response: httpx.Response | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.last_request, self.last_response = request, response
        return response


def _require_prism() -> None:
    if SAMPLES_FILE and PRISM_URL:
        return
    message = "set BERTH_OPERATION_SAMPLES (the samples JSON) and BERTH_PRISM_URL (a Prism mock with --errors)"
    if STRICT:
        pytest.fail(message)
    pytest.skip(message)


def test_the_samples_cover_every_operation_exactly():
    _require_prism()
    sampled = [sample["operationId"] for sample in SAMPLES]
    assert len(sampled) == len(set(sampled)), "an operation is sampled twice"
    assert set(sampled) == set(berth.OPERATIONS), {
        "not sampled": sorted(set(berth.OPERATIONS) - set(sampled)),
        "unknown": sorted(set(sampled) - set(berth.OPERATIONS)),
    }


@pytest.fixture(scope="module")
def prism_client():
    transport = RecordingTransport()
    with berth.Client(PRISM_URL, token="berth_pat_prism_request_shapes", max_retries=0, transport=transport) as client:
        # The cookie surface's credentials: Prism checks they are present, the SDK sends the jar.
        for name in ("svc_access", "svc_refresh", "svc_csrf"):
            client.cookies.set(name, f"{name}-value")
        yield client, transport


def _arguments(spec: berth.OperationSpec, sample: dict[str, Any]) -> dict[str, Any]:
    python_names = {parameter.name: parameter.python_name for parameter in spec.parameters}
    arguments = {}
    for name, value in {**(sample.get("pathParams") or {}), **(sample.get("query") or {})}.items():
        assert name in python_names, f"{spec.operation_id}: the sample's parameter {name!r} is not in the document"
        arguments[python_names[name]] = value
    body, media = sample.get("body"), sample.get("bodyMediaType")
    if media and media != "application/json":
        # A binary body travels in the samples file as text (or a list of byte values).
        arguments["body"] = bytes(body) if isinstance(body, list) else (body or "").encode()
        arguments["content_type"] = media
    elif body is not None or spec.body_required:
        arguments["body"] = body
    return arguments


@pytest.mark.parametrize("sample", SAMPLES, ids=[sample["operationId"] for sample in SAMPLES])
def test_the_sdk_shapes_the_request_as_documented(prism_client, sample):
    client, transport = prism_client
    spec = berth.OPERATIONS[sample["operationId"]]
    assert spec.http_method == sample["method"].upper()
    method = getattr(getattr(client, spec.namespace), spec.method_name)
    try:
        answer = method(**_arguments(spec, sample))
    except berth.BerthError as error:
        answer = error
    if isinstance(answer, berth.Download):
        answer.close()
    response, request = transport.last_response, transport.last_request
    violations = json.loads(response.headers.get("sl-violations") or "[]")
    about_request = [violation for violation in violations if violation.get("location", [""])[0] != "response"]
    assert not about_request, f"{spec.operation_id}: the request breaks the document: {about_request}"
    if violations:
        # Prism validated the request and then failed its own mock answer: static mode fills a string
        # with "string" whatever its pattern. The same request again, with a dynamic mock that honours
        # patterns, must then reach a documented success (as the TypeScript test does).
        again = httpx.Request(request.method, request.url, headers={**request.headers, "prefer": "dynamic=true"}, content=request.content)
        with httpx.Client() as plain:
            response = plain.send(again)
        violations = json.loads(response.headers.get("sl-violations") or "[]")
        assert not violations, f"{spec.operation_id}: {violations}"
    assert 200 <= response.status_code < 300, f"{spec.operation_id}: {answer}"
    if "{" not in sample["path"]:
        assert request.url.raw_path.decode().split("?")[0] == sample["path"]
