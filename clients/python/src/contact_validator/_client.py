"""``ContactValidator``: the one client object, configured once, with its resources as namespaces. Its methods are
generated from the OpenAPI description (``_client_base.py``, ``_resources.py``); here is the configuration."""

from __future__ import annotations

import os
import platform
from typing import Optional

from . import __version__
from ._http import Transport
from ._client_base import _ContactValidatorBase

DEFAULT_BASE_URL = "http://localhost:8080"


class ContactValidator(_ContactValidatorBase):
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
        super().__init__(Transport(
            self.base_url,
            {"Authorization": f"Bearer {api_key}", "Accept": "application/json", "User-Agent": agent},
            timeout=timeout,
            max_retries=max_retries,
        ))

    def close(self) -> None:
        """Closes the calling thread's kept-alive connection (optional: it also goes with the thread)."""
        self._transport.close()

    def __enter__(self) -> "ContactValidator":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ContactValidator(base_url={self.base_url!r}, timeout={self.timeout!r}, max_retries={self.max_retries!r})"
