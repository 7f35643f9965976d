"""Webhook endpoints and verify_webhook against the real service: a receiver on 127.0.0.1 gets a signed credits.low."""

from __future__ import annotations

import time
from typing import Any, Callable

import pytest

from contact_validator import InvalidRequestError, NotFoundError, WebhookSignatureError, verify_webhook
from conftest import LocalServer, Script


def test_when_the_balance_falls_below_the_threshold_then_the_delivery_verifies(client: Any, local_server: Callable[[Script], LocalServer]) -> None:
    # Arrange: a receiver keeping each raw body and signature.
    def ok(handler: Any) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", "2")
        handler.end_headers()
        handler.wfile.write(b"ok")

    receiver = local_server(ok)
    endpoint = client.webhook_endpoints.create(url=f"{receiver.url}/hooks", events=["credits.low"])
    try:
        # Act: a threshold above the balance is crossed at once.
        account = client.update_account(low_balance_threshold=100_000_000)
        deadline = time.time() + 10
        while not receiver.requests and time.time() < deadline:
            time.sleep(0.05)
        delivery = receiver.requests[0]
        header = delivery["headers"]["Contact-Validator-Signature"]
        event = verify_webhook(delivery["body"], header, endpoint["secret"])

        # Assert
        assert account["low_balance_alert"]["threshold"] == 100_000_000
        assert event["type"] == "credits.low" and event["data"]["threshold"] == 100_000_000
        with pytest.raises(WebhookSignatureError):
            verify_webhook(delivery["body"].replace(b"credits.low", b"credits.lox"), header, endpoint["secret"])
        with pytest.raises(WebhookSignatureError):
            verify_webhook(delivery["body"], header, "whsec_someone_else")
        with pytest.raises(WebhookSignatureError, match="timestamp"):
            verify_webhook(delivery["body"], header, endpoint["secret"], now=time.time() + 301)
        with pytest.raises(WebhookSignatureError):
            verify_webhook(delivery["body"], None, endpoint["secret"])
        assert endpoint["id"] in [e["id"] for e in client.webhook_endpoints.list()]
        logged = client.webhook_endpoints.deliveries(endpoint["id"])[0]
        assert logged["event_id"] == event["id"]
        again = client.webhook_endpoints.redeliver(endpoint["id"], logged["id"])
        assert again["status"] == "succeeded" and again["attempts"] == 2
    finally:
        client.update_account(low_balance_threshold=None)
        client.webhook_endpoints.delete(endpoint["id"])
    with pytest.raises(NotFoundError):
        client.webhook_endpoints.deliveries(endpoint["id"])


def test_when_the_url_is_not_a_url_then_invalid_request_names_it(client: Any) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.webhook_endpoints.create(url="not a url", events=["batch.completed"])
    assert caught.value.errors[0]["field"] == "url"
