"""``ContactValidator``: the one client object, configured once, with its resources as namespaces."""

from __future__ import annotations

import os
import platform
import uuid
from typing import Any, Dict, List, Optional

from . import __version__
from ._http import Transport
from .resources import Batches, Connectors, Keys
from .webhooks import WebhookEndpoints
from .types import Account, AddressSuggestion, ValidateOptions, Validation

DEFAULT_BASE_URL = "http://localhost:8080"


class ContactValidator:
    """A client of the contact-validator API.

    >>> client = ContactValidator("cv_live_…")
    >>> answer = client.validate(email="someone@example.com")
    >>> answer["email"]["status"]
    'valid'

    ``timeout`` is the total time of one call in seconds, all its retries and waits included; ``max_retries`` how many
    times a failed call is tried again (see the README's "Retries"). The client is safe to share between threads:
    each thread keeps its own kept-alive connection.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        user_agent: Optional[str] = None,
    ) -> None:
        api_key = api_key or os.environ.get("CONTACT_VALIDATOR_API_KEY")
        if not api_key:
            raise ValueError("an API key is needed: ContactValidator(api_key=...) or CONTACT_VALIDATOR_API_KEY")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        base_url = base_url or os.environ.get("CONTACT_VALIDATOR_BASE_URL") or DEFAULT_BASE_URL
        agent = f"contact-validator-python/{__version__} Python/{platform.python_version()}"
        if user_agent:
            agent = f"{user_agent} {agent}"
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self._transport = Transport(
            self.base_url,
            {"Authorization": f"Bearer {api_key}", "Accept": "application/json", "User-Agent": agent},
            timeout=timeout,
            max_retries=max_retries,
        )
        self.keys = Keys(self._transport)
        self.batches = Batches(self._transport)
        self.connectors = Connectors(self._transport)
        self.webhook_endpoints = WebhookEndpoints(self._transport)

    def validate(
        self,
        address: Optional[str] = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        country: Optional[str] = None,
        options: Optional[ValidateOptions] = None,
        *,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Validation:
        """``POST /v1/validate``: checks the address, e-mail and/or phone given (at least one).

        Every call carries an ``Idempotency-Key`` (a fresh UUID unless you pass one), the same on each retry: a retry
        after a lost answer gets the first answer back and is not charged again.
        """
        body: Dict[str, Any] = {}
        if address is not None:
            body["address"] = address
        if email is not None:
            body["email"] = email
        if phone is not None:
            body["phone"] = phone
        if country is not None:
            body["country"] = country
        if options is not None:
            body["options"] = dict(options)
        key = idempotency_key or str(uuid.uuid4())
        response = self._transport.request(
            "POST", "/v1/validate", json_body=body, headers={"Idempotency-Key": key}, idempotent=True, timeout=timeout,
        )
        return response.json()  # type: ignore[no-any-return]

    def autocomplete_address(
        self, query: str, *, country: Optional[str] = None, limit: Optional[int] = None, timeout: Optional[float] = None,
    ) -> List[AddressSuggestion]:
        """``GET /v1/address/autocomplete``: addresses and places that start with what has been typed, best first.

        Delivery points of the service's reference data, streets, cities and ZIPs (``country`` ``"US"`` or ``"CA"`` to keep
        one, ``limit`` 1-10, 5 by default). Free: no credits are charged.
        """
        params: Dict[str, Any] = {"q": query}
        if country is not None:
            params["country"] = country
        if limit is not None:
            params["limit"] = limit
        answer = self._transport.request("GET", "/v1/address/autocomplete", query=params, timeout=timeout).json()
        return answer["suggestions"]  # type: ignore[no-any-return]

    def account(self, *, timeout: Optional[float] = None) -> Account:
        """``GET /v1/account``: balance, grants with their expiry, usage of the last 30 days, API keys."""
        return self._transport.request("GET", "/v1/account", timeout=timeout).json()  # type: ignore[no-any-return]

    def update_account(self, *, low_balance_threshold: Optional[int], timeout: Optional[float] = None) -> Account:
        """``PATCH /v1/account``: the low-balance alert's threshold in credits (``None`` removes it)."""
        body = {"low_balance_threshold": low_balance_threshold}
        return self._transport.request("PATCH", "/v1/account", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def close(self) -> None:
        """Closes the calling thread's kept-alive connection (optional: it also goes with the thread)."""
        self._transport.close()

    def __enter__(self) -> "ContactValidator":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ContactValidator(base_url={self.base_url!r}, timeout={self.timeout!r}, max_retries={self.max_retries!r})"
