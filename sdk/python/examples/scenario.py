"""The end-to-end scenario of the SDK, as a runnable example.

Sign in as a script (approving this new device with the e-mailed code) -> create an API token ->
a client from that token -> create a site and follow its operation -> list its plugins -> take a
backup -> restore it -> add an SFTP user -> delete the site.

    BERTH_URL=https://panel.example.com BERTH_EMAIL=owner@example.com BERTH_PASSWORD=... \
        python3 sdk/python/examples/scenario.py        # asks for the e-mailed code on the terminal

BERTH_DEVICE_CODE gives the code up front instead (a script that reads the mailbox itself).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

try:
    import berth
except ImportError:  # run from the repository without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import berth

ENV = "production"
Log = Callable[[str], None]


def run_scenario(
    base_url: str,
    email: str,
    password: str,
    device_code: str | Callable[[], str],
    log: Log = print,
    poll_interval: float = 2.0,
    region: str | None = None,
) -> dict[str, Any]:
    """Runs every step against the API at base_url and returns what it made (ids, names).
    device_code is the e-mailed code, or a function that fetches it once it has been sent;
    region is where the site goes (default: any region with room)."""
    ask_code = device_code if callable(device_code) else (lambda: device_code)

    def on_device_approval() -> str:
        log("new device: the API e-mailed a code to approve it")
        return ask_code()

    with berth.Client.sign_in(base_url, email, password, on_device_approval=on_device_approval) as session:
        log(f"signed in (device {session.device_fingerprint})")
        token = session.api_tokens.create(body={"name": f"sdk scenario {int(time.time())}", "permissions": ["*"], "expires_in_days": 1})
        log(f"API token {token['prefix']}… created")

    with berth.Client(base_url, token=token["token"]) as client:
        versions = client.sites.list_php_versions()
        slug = f"sdk-{int(time.time())}"
        created = client.sites.create(
            body={
                "name": f"SDK scenario {slug}",
                "slug": slug,
                "php_version": versions["default"],
                **({"region": region} if region else {}),
                "wordpress": {"title": "SDK scenario", "admin_user": "admin", "admin_email": email},
            }
        )
        site_id = created["site"]["id"]
        log(f"site {site_id} ({slug}) creating")
        client.wait_for_operation(created["operation"], on_progress=_progress(log), poll_interval=poll_interval)

        plugins = list(client.paginate(client.plugins.list, id=site_id, env=ENV))
        log(f"plugins: {', '.join(plugin['name'] for plugin in plugins) or 'none'}")

        backup = client.backups.create(id=site_id, env=ENV, body={"note": "SDK scenario"})
        backup_id = backup["backup"]["id"]
        client.wait_for_operation(backup["operation"], on_progress=_progress(log), poll_interval=poll_interval)
        log(f"backup {backup_id} taken")

        restore = client.backups.restore(id=site_id, env=ENV, backup=backup_id, body={})
        client.wait_for_operation(restore["operation"], on_progress=_progress(log), poll_interval=poll_interval)
        log(f"backup {backup_id} restored")

        sftp = client.sftp_users.create(id=site_id, env=ENV, body={"generate_password": True})
        client.wait_for_operation(sftp["operation"], on_progress=_progress(log), poll_interval=poll_interval)
        log(f"SFTP user {sftp['sftp_user']['username']} added")

        deleted = client.sites.delete(id=site_id)
        client.wait_for_operation(deleted["operation"], on_progress=_progress(log), poll_interval=poll_interval)
        log(f"site {site_id} deleted")

    return {"site_id": site_id, "slug": slug, "backup_id": backup_id, "sftp_user": sftp["sftp_user"]["username"], "plugins": [p["name"] for p in plugins]}


def _progress(log: Log) -> Callable[[dict[str, Any]], None]:
    def report(operation: dict[str, Any]) -> None:
        running = next((step["name"] for step in operation.get("steps") or [] if step.get("status") == "running"), None)
        log(f"  {operation['kind']}: {operation['status']} {operation['progress']}%" + (f" ({running})" if running else ""))

    return report


def _from_environment(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        sys.exit(f"scenario.py: set {name}")
    return value


def _device_code() -> str | Callable[[], str]:
    """BERTH_DEVICE_CODE, else fetched from BERTH_DEVICE_CODE_URL once mailed (how the tests read
    their mail sink), else asked on the terminal."""
    if os.environ.get("BERTH_DEVICE_CODE"):
        return os.environ["BERTH_DEVICE_CODE"]
    url = os.environ.get("BERTH_DEVICE_CODE_URL")
    if url:
        import httpx

        def fetch() -> str:
            answer = httpx.get(url, timeout=60)
            answer.raise_for_status()  # returns None on httpx 0.23, Debian 12's
            return answer.text.strip()

        return fetch
    return lambda: input("the code e-mailed to approve this device: ").strip()


if __name__ == "__main__":
    try:
        outcome = run_scenario(
            _from_environment("BERTH_URL"),
            _from_environment("BERTH_EMAIL"),
            _from_environment("BERTH_PASSWORD"),
            _device_code(),
            region=os.environ.get("BERTH_REGION") or None,
        )
    except berth.BerthError as error:
        sys.exit(f"scenario failed: {error}")
    print(outcome)
