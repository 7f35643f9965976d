"""The error hierarchy: every refusal of the service is an RFC 9457 problem document, carried whole by the exception.

    ContactValidatorError
    ├── APIConnectionError          no answer: connection refused or dropped, timeout (``APITimeoutError``)
    ├── AuthenticationError         401
    ├── InsufficientCreditsError    402  (``balance``, ``required``)
    ├── PermissionError             403  (publishable keys; also exported as ``PermissionDeniedError``)
    ├── NotFoundError               404  (``GoneError`` 410: a canceled batch's result)
    ├── ConflictError               409  (batch not ready / not paused, connector busy, Idempotency-Key in flight)
    ├── InvalidRequestError         400, 405, 413, 415, 422  (``errors`` lists each field problem; ``line`` for CSV)
    ├── RateLimitError              429  (``retry_after``)
    ├── APIError                    5xx  (``ServiceUnavailableError`` 503: nothing was charged)
    └── BatchWaitTimeout            ``batches.wait`` ran out of time (``batch`` is the last status seen)
"""

from __future__ import annotations

import builtins
from typing import Any, Dict, List, Mapping, Optional

__all__ = [
    "ContactValidatorError", "APIConnectionError", "APITimeoutError", "AuthenticationError",
    "InsufficientCreditsError", "PermissionError", "PermissionDeniedError", "NotFoundError", "GoneError",
    "ConflictError", "InvalidRequestError", "RateLimitError", "APIError", "ServiceUnavailableError",
    "BatchWaitTimeout", "error_for",
]

_STANDARD_MEMBERS = frozenset({"type", "title", "status", "detail", "instance", "request_id", "errors"})


class ContactValidatorError(Exception):
    """Base of every error this library raises.

    For an answer of the service: ``status`` (HTTP status), ``type``, ``title``, ``detail``, ``instance``,
    ``request_id`` and ``errors`` (``[{"field", "message"}]``) from the problem document, ``problem`` (the whole
    document), ``extensions`` (its other members: ``balance``, ``required``, ``line``, ``max_bytes``, …; also readable
    as attributes: ``err.balance``) and ``headers``.
    """

    status: Optional[int]

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        problem: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.problem: Dict[str, Any] = dict(problem or {})
        self.headers: Dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}

    type = property(lambda self: self.problem.get("type"), doc="The problem type URI, e.g. ``/problems/not-found``.")
    title = property(lambda self: self.problem.get("title"))
    detail = property(lambda self: self.problem.get("detail"))
    instance = property(lambda self: self.problem.get("instance"))

    @property
    def request_id(self) -> Optional[str]:
        """The service's id of the request (quote it to support); from the body, else ``X-Request-Id``."""
        return self.problem.get("request_id") or self.headers.get("x-request-id")

    @property
    def errors(self) -> List[Dict[str, str]]:
        """Each field problem of a 400: ``[{"field": "email", "message": "…"}]``."""
        value = self.problem.get("errors")
        return list(value) if isinstance(value, list) else []

    @property
    def extensions(self) -> Dict[str, Any]:
        return {k: v for k, v in self.problem.items() if k not in _STANDARD_MEMBERS}

    @property
    def code(self) -> Optional[str]:
        """The last segment of ``type``: ``insufficient-credits``, ``batch-not-ready``, …"""
        t = self.type
        return t.rsplit("/", 1)[-1] if isinstance(t, str) else None

    def __getattr__(self, name: str) -> Any:
        # Extension members as attributes (err.balance, err.line); only called when normal lookup failed.
        problem = self.__dict__.get("problem") or {}
        if name in problem:
            return problem[name]
        raise AttributeError(name)

    def __str__(self) -> str:
        parts = [self.message]
        if self.status is not None:
            parts.insert(0, f"[{self.status}]")
        if self.request_id:
            parts.append(f"(request_id={self.request_id})")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, type={self.type!r}, detail={self.message!r})"


class APIConnectionError(ContactValidatorError):
    """No answer from the service: refused, reset or dropped connection, or a timeout (``APITimeoutError``)."""


class APITimeoutError(APIConnectionError):
    """The client's ``timeout`` ran out (all attempts counted)."""


class AuthenticationError(ContactValidatorError):
    """401: the key is missing, malformed, unknown or revoked."""


class InsufficientCreditsError(ContactValidatorError):
    """402: the account's usable credits do not cover the request; nothing was charged."""

    @property
    def balance(self) -> Optional[int]:
        return self.problem.get("balance")

    @property
    def required(self) -> Optional[int]:
        return self.problem.get("required")


class PermissionError(ContactValidatorError):  # noqa: A001 - the name users expect; builtins.PermissionError stays reachable
    """403: a publishable key used from another origin, or for a module it may not use."""


PermissionDeniedError = PermissionError


class NotFoundError(ContactValidatorError):
    """404: no such resource on this account (another account's answers alike)."""


class GoneError(NotFoundError):
    """410: the batch was canceled; its files and results are deleted."""


class ConflictError(ContactValidatorError):
    """409: the resource is not in a state for this (batch not completed or not paused, connector busy, …)."""


class InvalidRequestError(ContactValidatorError):
    """400, 405, 413, 415, 422: the request itself is wrong; ``errors`` lists field problems, ``line`` a CSV line."""

    @property
    def line(self) -> Optional[int]:
        return self.problem.get("line")


class RateLimitError(ContactValidatorError):
    """429: over the key's rate limit. ``retry_after`` is the wait the service asked for, in seconds."""

    @property
    def retry_after(self) -> Optional[float]:
        from ._http import parse_retry_after  # late import: no cycle at module load

        return parse_retry_after(self.headers.get("retry-after"))


class APIError(ContactValidatorError):
    """5xx: the service failed."""


class ServiceUnavailableError(APIError):
    """503: the service (its database) is unavailable; the request was not charged."""


class BatchWaitTimeout(ContactValidatorError):
    """``batches.wait`` gave up before the batch ended; ``batch`` is the last status read."""

    def __init__(self, message: str, batch: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.batch = dict(batch)


_BY_STATUS: Dict[int, "builtins.type[ContactValidatorError]"] = {
    400: InvalidRequestError, 401: AuthenticationError, 402: InsufficientCreditsError, 403: PermissionError,
    404: NotFoundError, 405: InvalidRequestError, 409: ConflictError, 410: GoneError, 413: InvalidRequestError,
    415: InvalidRequestError, 422: InvalidRequestError, 429: RateLimitError, 503: ServiceUnavailableError,
}


def error_for(status: int, problem: Mapping[str, Any], headers: Mapping[str, str]) -> ContactValidatorError:
    """The exception for an error answer."""
    cls: "builtins.type[ContactValidatorError]" = _BY_STATUS.get(status) or (APIError if status >= 500 else ContactValidatorError)
    message = problem.get("detail") or problem.get("title") or f"HTTP {status}"
    return cls(str(message), status=status, problem=problem, headers=headers)
