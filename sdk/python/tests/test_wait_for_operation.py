"""`client.wait_for_operation` polls GET /v1/operations/{id} until the operation ends."""

from __future__ import annotations

import pytest
from scripted_server import v1_data

import berth

OPERATION_ID = "0b6f3c56-7c1e-4a52-9d0e-8a4d8f1b2c3d"


def operation(status, progress, steps, error=None):
    return {"id": OPERATION_ID, "kind": "site.create", "status": status, "progress": progress, "steps": steps, "error": error}


def step(name, status):
    return {"name": name, "status": status}


def test_it_returns_the_final_operation_and_reports_each_change_once(server, client):
    states = [
        operation("queued", 0, [step("allocate", "pending")]),
        operation("queued", 0, [step("allocate", "pending")]),
        operation("running", 40, [step("allocate", "running")]),
        operation("running", 40, [step("allocate", "succeeded"), step("install", "running")]),
        operation("succeeded", 100, [step("allocate", "succeeded"), step("install", "succeeded")]),
    ]
    server.reply(*[v1_data(state) for state in states])
    seen = []
    final = client.wait_for_operation(OPERATION_ID, on_progress=seen.append, poll_interval=0.01)
    assert final["status"] == "succeeded"
    assert [(s["status"], s["progress"]) for s in seen] == [("queued", 0), ("running", 40), ("running", 40), ("succeeded", 100)]
    assert {request.path for request in server.requests} == {f"/v1/operations/{OPERATION_ID}"}


def test_it_takes_a_202_answer_that_holds_the_operation(server, client):
    server.reply(v1_data(operation("succeeded", 100, [])))
    accepted = {"site": {"id": 1}, "operation": operation("queued", 0, [])}
    assert client.wait_for_operation(accepted, poll_interval=0.01)["status"] == "succeeded"


def test_a_failed_operation_raises_with_its_step_and_reason(server, client):
    failed = operation("failed", 60, [step("allocate", "succeeded"), step("install", "failed")], {"step": "install", "message": "wp core install exited 1"})
    server.reply(v1_data(operation("running", 50, [])), v1_data(failed))
    with pytest.raises(berth.OperationFailedError) as raised:
        client.wait_for_operation(OPERATION_ID, poll_interval=0.01)
    assert raised.value.step == "install" and raised.value.reason == "wp core install exited 1"
    assert raised.value.operation["status"] == "failed" and isinstance(raised.value, berth.BerthError)


def test_a_cancelled_operation_raises_too(server, client):
    server.reply(v1_data(operation("cancelled", 30, [step("allocate", "cancelled")])))
    with pytest.raises(berth.OperationFailedError) as raised:
        client.wait_for_operation(OPERATION_ID, poll_interval=0.01)
    assert raised.value.code == "cancelled"


def test_it_gives_up_after_the_timeout(server, client):
    server.handle(lambda request: v1_data(operation("running", 10, [])))
    with pytest.raises(berth.OperationTimeoutError) as raised:
        client.wait_for_operation(OPERATION_ID, timeout=0.2, poll_interval=0.05)
    assert raised.value.operation["status"] == "running" and isinstance(raised.value, TimeoutError)
