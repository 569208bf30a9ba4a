"""The generated tree matches the document: regenerating changes nothing, and every operation is there."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import berth
from generator.names import GenerationError
from generator.render import render

SDK_ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = json.loads((SDK_ROOT.parent.parent / "docs" / "openapi.json").read_text(encoding="utf-8"))
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def document_operations() -> dict[str, tuple[str, str]]:
    return {
        operation["operationId"]: (method.upper(), path)
        for path, item in DOCUMENT["paths"].items()
        for method, operation in item.items()
        if method in HTTP_METHODS
    }


def test_regenerating_changes_nothing():
    check = subprocess.run([sys.executable, "-m", "generator", "--check"], cwd=SDK_ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_generation_is_deterministic():
    assert render(DOCUMENT) == render(json.loads(json.dumps(DOCUMENT)))


def test_operations_are_exactly_the_documents():
    documented = document_operations()
    assert len(berth.OPERATIONS) == len(documented)
    assert set(berth.OPERATIONS) == set(documented)
    for operation_id, (method, path) in documented.items():
        spec = berth.OPERATIONS[operation_id]
        assert (spec.http_method, spec.path) == (method, path), operation_id


def test_every_operation_is_a_method_of_both_clients():
    sync_client = berth.Client("http://127.0.0.1:9", token="t")
    async_client = berth.AsyncClient("http://127.0.0.1:9", token="t")
    for operation_id, spec in berth.OPERATIONS.items():
        namespace = operation_id.split(".")[0]
        assert spec.namespace == "".join("_" + c.lower() if c.isupper() else c for c in namespace)
        assert callable(getattr(getattr(sync_client, spec.namespace), spec.method_name)), operation_id
        assert callable(getattr(getattr(async_client, spec.namespace), spec.method_name)), operation_id
    assert sync_client.sites.list_php_versions and sync_client.browser_auth.login and sync_client.environments.push


def test_the_schemas_are_typed_models():
    for name in DOCUMENT["components"]["schemas"]:
        assert hasattr(berth.models, name), name


def tiny_document(parameters: list[dict], path: str = "/v1/things/{id}") -> dict:
    operation = {"operationId": "things.get", "parameters": parameters, "responses": {"204": {"description": "none"}}}
    return {"paths": {path: {"get": operation}}, "components": {"schemas": {}}}


@pytest.mark.parametrize(
    "parameters",
    [
        [{"name": "id", "in": "path", "schema": {"type": "string"}}, {"name": "id", "in": "query", "schema": {"type": "string"}}],
        [{"name": "id", "in": "path", "schema": {"type": "string"}}, {"name": "body", "in": "query", "schema": {"type": "string"}}],
        [{"name": "id", "in": "path", "schema": {"type": "string"}}, {"name": "page-size", "in": "query"}, {"name": "page_size", "in": "query"}],
    ],
)
def test_a_parameter_name_collision_stops_the_generator(parameters):
    with pytest.raises(GenerationError, match="collision"):
        render(tiny_document(parameters))


def test_two_namespaces_with_one_python_name_stop_the_generator():
    document = tiny_document([{"name": "id", "in": "path"}])
    document["paths"]["/v1/other"] = {"get": {"operationId": "Things.get", "responses": {"204": {"description": "none"}}}}
    with pytest.raises(GenerationError, match="collision"):
        render(document)
