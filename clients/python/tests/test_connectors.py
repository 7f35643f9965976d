"""client.connectors against the real service, with a Salesforce "org" that refuses the connector's credentials."""

from __future__ import annotations

import time

import pytest

from contact_validator import ContactValidator, InvalidRequestError, NotFoundError

from conftest import answer

SETTINGS = {"login_url": "http://127.0.0.1:9", "api_version": "62.0", "objects": ["Contact"]}
CREDENTIALS = {"client_id": "id", "client_secret": "secret"}


def test_when_a_connector_is_created_changed_run_and_deleted_then_each_answer_is_typed(client: ContactValidator, local_server) -> None:
    org = local_server(lambda h: answer(h, 400, {"error": "invalid_client", "error_description": "invalid client credentials"}))
    created = client.connectors.create(
        type="salesforce", name="Test org", settings={**SETTINGS, "login_url": org.url}, credentials=CREDENTIALS, schedule="0 3 * * *",
        write_back={"overwrite_address": False},
    )
    cid = created["connector_id"]
    assert created["status"] == "active" and created["schedule"] == "0 3 * * *"
    assert "credentials" not in created  # write-only
    assert any(c["connector_id"] == cid for c in client.connectors.list())
    assert client.connectors.get(cid)["name"] == "Test org"

    paused = client.connectors.update(cid, status="paused", name="Renamed")
    assert paused["status"] == "paused" and paused["name"] == "Renamed"
    client.connectors.update(cid, status="active")

    run = client.connectors.run(cid)
    assert run["run_id"]
    deadline = time.monotonic() + 10
    runs = client.connectors.runs(cid)
    while runs[0]["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
        runs = client.connectors.runs(cid)
    assert runs[0]["run_id"] == run["run_id"] and runs[0]["status"] in ("completed", "failed", "paused")

    assert client.connectors.delete(cid) is None
    with pytest.raises(NotFoundError):
        client.connectors.get(cid)


def test_when_settings_are_wrong_then_invalid_request_error_lists_the_fields(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.connectors.create(type="salesforce", name="Broken", settings={"objects": ["Nope"]}, credentials=CREDENTIALS)

    assert caught.value.status == 400
    assert any(e["field"].startswith("settings") for e in caught.value.errors)
