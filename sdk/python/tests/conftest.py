from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The tests import the package from this tree, installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import berth  # noqa: E402
from scripted_server import ScriptedServer  # noqa: E402


@pytest.fixture
def server():
    running = ScriptedServer().start()
    yield running
    running.stop()


@pytest.fixture
def sleeps() -> list[float]:
    """The waits the client asked for; recorded instead of slept so the backoff is asserted exactly."""
    return []


@pytest.fixture
def client(server, sleeps):
    with berth.Client(server.url, token="berth_pat_test") as made:
        made._retry.sleep = sleeps.append
        yield made
