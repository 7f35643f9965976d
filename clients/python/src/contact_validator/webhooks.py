"""Outgoing webhooks (docs/webhooks.md): ``verify_webhook``, the receiver's check of a delivery's
``Contact-Validator-Signature`` in one call. ``client.webhook_endpoints`` is a generated resource (``_resources.py``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, Dict, List, Optional, Sequence, Union

from .errors import ContactValidatorError

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
