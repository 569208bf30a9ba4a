"""examples/scenario.py runs start to end against a small stand-in of the API (the live run is the
main session's): every call it makes, in order, with the device approved on the way."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from scripted_server import Reply, v1_data, v1_error

SCENARIO = Path(__file__).resolve().parent.parent / "examples" / "scenario.py"


def load_scenario():
    spec = importlib.util.spec_from_file_location("scenario_example", SCENARIO)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class StandInApi:
    """Answers the scenario's calls; every operation it starts succeeds on the second poll."""

    def __init__(self) -> None:
        self.polls: dict[str, int] = {}
        self.operation_kinds: dict[str, str] = {}
        self.logins = 0

    def operation(self, kind: str) -> dict:
        operation_id = f"op-{len(self.operation_kinds) + 1}"
        self.operation_kinds[operation_id] = kind
        return {"id": operation_id, "kind": kind, "status": "queued", "progress": 0, "steps": []}

    def __call__(self, request) -> Reply:
        route = f"{request.method} {request.path}"
        site = {"id": 41, "name": "SDK scenario", "slug": "sdk"}
        if route == "POST /v1/auth/login":
            self.logins += 1
            if "pre_auth_token" not in request.json():
                return v1_error(403, "AUTHORIZATION_ERROR", "Approve this device", {"reason": "device_approval_required", "pre_auth_token": "p" * 20, "device_fingerprint": "fp-12345678"})
            return v1_data({"access_token": "session-token", "token_type": "Bearer", "expires_in": 21600})
        if route in ("POST /api/v1/auth/device/challenge", "POST /api/v1/auth/device/approve"):
            return Reply(200, {"message": "ok"})
        if route == "POST /v1/api-tokens":
            assert request.headers["authorization"] == "Bearer session-token"
            return v1_data({"id": 3, "prefix": "berth_pat_abcdefgh", "token": "berth_pat_secret"}, 201)
        assert request.headers["authorization"] == "Bearer berth_pat_secret", route
        if route == "GET /v1/sites/php-versions":
            return v1_data({"versions": ["8.2", "8.3"], "default": "8.3"})
        if route == "POST /v1/sites":
            return v1_data({"site": site, "operation": self.operation("site.create")}, 202)
        if route == "GET /v1/sites/41/environments/production/plugins":
            plugins = [{"plugin": "akismet/akismet.php", "slug": "akismet", "name": "Akismet", "version": "5", "active": False}]
            return Reply(200, {"data": plugins, "pagination": {"page": 1, "page_size": 100, "total": 1, "total_pages": 1}, "meta": {}})
        if route == "POST /v1/sites/41/environments/production/backups":
            return v1_data({"backup": {"id": 7}, "operation": self.operation("backup.create")}, 202)
        if route == "POST /v1/sites/41/environments/production/backups/7/restore":
            return v1_data({"backup": {"id": 7}, "safety_backup": None, "operation": self.operation("backup.restore")}, 202)
        if route == "POST /v1/sites/41/environments/production/sftp-users":
            return v1_data({"sftp_user": {"id": 2, "username": "sdk-production-ab12"}, "password": "pw", "operation": self.operation("sftp_user.create")}, 202)
        if route == "DELETE /v1/sites/41":
            return v1_data({"site": site, "operation": self.operation("site.delete")}, 202)
        polled = re.fullmatch(r"GET /v1/operations/(op-\d+)", route)
        if polled:
            operation_id = polled.group(1)
            self.polls[operation_id] = self.polls.get(operation_id, 0) + 1
            done = self.polls[operation_id] >= 2
            steps = [{"name": "work", "status": "succeeded" if done else "running"}]
            return v1_data({"id": operation_id, "kind": self.operation_kinds[operation_id], "status": "succeeded" if done else "running", "progress": 100 if done else 50, "steps": steps})
        return v1_error(404, "NOT_FOUND", f"the stand-in has no {route}")


def test_the_scenario_runs_every_step(server):
    api = StandInApi()
    server.handle(api)
    scenario = load_scenario()
    lines: list[str] = []
    outcome = scenario.run_scenario(server.url, "owner@example.com", "pw", "123456", log=lines.append, poll_interval=0.01)
    assert outcome == {"site_id": 41, "slug": outcome["slug"], "backup_id": 7, "sftp_user": "sdk-production-ab12", "plugins": ["Akismet"]}
    assert api.logins == 2 and set(api.polls.values()) == {2} and len(api.polls) == 5
    approve = next(r for r in server.requests if r.path == "/api/v1/auth/device/approve")
    assert approve.json()["otp_code"] == "123456"
    assert any("site.create: running 50% (work)" in line for line in lines)
    assert lines[-1] == "site 41 deleted"
