"""Everything under tests/model talks to a real chat-model endpoint: mark it ``model`` by where it lives.

The endpoint is ``$GRAPHMEM_MODEL_URL`` (``scripts/model-local start`` serves SmolLM2-135M there, at
http://127.0.0.1:8088/v1 by default). Without one a test skips locally and fails under ``CI=true``
(:func:`tests.conftest.need`): a CI run that skipped the model's tests would have measured nothing.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import need

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_URL = "http://127.0.0.1:8088/v1"


@pytest.hookimpl(tryfirst=True)  # before the mark plugin deselects by -m
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Add the ``model`` marker to every collected test under this directory."""
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.model)


def served(url: str, timeout: float = 60.0) -> list[str] | None:
    """The model names the endpoint serves, or None when it does not answer (a busy one-slot server
    answers /models only after the request it is serving, hence the long timeout)."""
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/models", timeout=timeout) as r:
            return [m["id"] for m in json.load(r)["data"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


@pytest.fixture(scope="session")
def endpoint() -> str:
    """The real endpoint's /v1 URL (skip, or fail under CI, when nothing answers there)."""
    url = os.environ.get("GRAPHMEM_MODEL_URL", DEFAULT_URL)
    if not served(url):
        need(f"no chat-model endpoint answers at {url} (start one: scripts/model-local start)")
    return url


@pytest.fixture(scope="session")
def model_name(endpoint: str) -> str:
    names = served(endpoint) or []
    assert len(names) == 1, names
    return names[0]
