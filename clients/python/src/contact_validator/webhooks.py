"""Outgoing webhooks (docs/webhooks.md): ``client.webhook_endpoints``, and ``verify_webhook``, the receiver's check of a
delivery's ``Contact-Validator-Signature`` in one call."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, Dict, List, Optional, Sequence, Union
from urllib.parse import quote

from ._http import Transport
from .errors import ContactValidatorError
from .types import CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint

SIGNATURE_HEADER = "Contact-Validator-Signature"
DEFAULT_TOLERANCE = 300


class WebhookSignatureError(ContactValidatorError):
    """A delivery whose signature is missing, malformed, stale or does not verify."""


def verify_webhook(
    raw_body: Union[bytes, str],
    header: Optional[str],
    secret: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery and returns its event (``{"id", "type", "created", "data"}``).

    ``raw_body`` exactly as received (before any JSON parsing), ``header`` the ``Contact-Validator-Signature`` header,
    ``secret`` the endpoint's ``whsec_…``. One of the header's ``v1`` values must be the HMAC-SHA256 of
    ``"<t>.<raw body>"`` under the secret (compared in constant time) and ``t`` within ``tolerance`` seconds of now.
    Raises ``WebhookSignatureError`` otherwise.
    """
    if not header:
        raise WebhookSignatureError("the delivery has no Contact-Validator-Signature header")
    body = raw_body if isinstance(raw_body, bytes) else raw_body.encode("utf-8")
    pairs = [part.strip().split("=", 1) for part in header.split(",")]
    timestamps = [p[1] for p in pairs if len(p) == 2 and p[0] == "t"]
    signatures = [p[1] for p in pairs if len(p) == 2 and p[0] == "v1"]
    if not timestamps or not timestamps[0].isdigit() or not signatures:
        raise WebhookSignatureError("the Contact-Validator-Signature header is malformed")
    t = int(timestamps[0])
    if abs((time.time() if now is None else now) - t) > tolerance:
        raise WebhookSignatureError(f"the signature's timestamp is more than {tolerance:g} s from now")
    expected = hmac.new(secret.encode("utf-8"), str(t).encode() + b"." + body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, s) for s in signatures):
        raise WebhookSignatureError("the signature does not verify with this secret")
    event: Dict[str, Any] = json.loads(body)
    return event


def _id(value: str) -> str:
    if not value:
        raise ValueError("an id is needed")
    return quote(str(value), safe="")


class WebhookEndpoints:
    """``client.webhook_endpoints``: where the account's events are sent, and what was sent."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, *, url: str, events: Sequence[str]) -> CreatedWebhookEndpoint:
        """``POST /v1/webhook_endpoints``: the answer carries the signing ``secret``, this once."""
        body = {"url": url, "events": list(events)}
        return self._t.request("POST", "/v1/webhook_endpoints", json_body=body).json()  # type: ignore[no-any-return]

    def list(self) -> List[WebhookEndpoint]:
        """``GET /v1/webhook_endpoints``, newest first, without secrets."""
        return self._t.request("GET", "/v1/webhook_endpoints").json()["webhook_endpoints"]  # type: ignore[no-any-return]

    def delete(self, endpoint_id: str) -> None:
        """``DELETE /v1/webhook_endpoints/{id}``: the endpoint and its delivery log; nothing more is sent to it."""
        self._t.request("DELETE", f"/v1/webhook_endpoints/{_id(endpoint_id)}")

    def deliveries(self, endpoint_id: str) -> List[WebhookDelivery]:
        """``GET /v1/webhook_endpoints/{id}/deliveries``: the last 100, newest first."""
        path = f"/v1/webhook_endpoints/{_id(endpoint_id)}/deliveries"
        return self._t.request("GET", path).json()["deliveries"]  # type: ignore[no-any-return]

    def redeliver(self, endpoint_id: str, delivery_id: str) -> WebhookDelivery:
        """Sends a delivery again now; the answer is the delivery as that attempt left it."""
        path = f"/v1/webhook_endpoints/{_id(endpoint_id)}/deliveries/{_id(delivery_id)}/redeliver"
        return self._t.request("POST", path).json()  # type: ignore[no-any-return]
