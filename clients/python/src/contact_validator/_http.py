"""The transport: one request with its retries, on the standard library's http.client.

Why http.client and not urllib.request: urllib opens a new TCP (and TLS) connection for every call; here each thread
keeps its connection to the service open (HTTP/1.1 keep-alive), which is what makes the client cheaper than a raw
urllib call rather than dearer. No third-party dependency either way.

Retries (docs/api.md#problems, docs/api.md#openapi-and-client-libraries):
- 429 and 503 on any method: the service refused before doing or charging anything; ``Retry-After`` is honoured.
- a connection failure, a timeout of one attempt, and other 5xx: only on a call that is safe to repeat: GET,
  DELETE, and POST /v1/validate, which always carries an ``Idempotency-Key`` (the same on every attempt), so that the
  service answers a repeat with the first answer (``Idempotent-Replayed``) and charges it once.
- 409 ``idempotency-key-in-use`` on that POST: the first attempt is still being worked on; wait and ask again.
Backoff: 0.5 s × 2^attempt, capped at 8 s, with "equal jitter" (half fixed, half random); no attempt starts, and no
wait lasts, past the call's total ``timeout``.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import ssl
import threading
import time
from email.utils import parsedate_to_datetime
from typing import IO, Any, Callable, Dict, Iterator, Mapping, Optional, Tuple, Union
from urllib.parse import urlencode, urlsplit

from .errors import APIConnectionError, APITimeoutError, ContactValidatorError, error_for

BACKOFF_BASE = 0.5
BACKOFF_CAP = 8.0
# A connection idle longer than this (or than the server's `Keep-Alive: timeout=N` less a margin, if shorter) is not
# reused, so that a request is never written into a socket the server or a proxy is closing: a race a non-idempotent
# POST could not recover from. A fresh connection to the service costs about a millisecond.
IDLE_REUSE_LIMIT = 3.0
_READ_CHUNK = 64 * 1024

Body = Union[None, bytes, IO[bytes], Callable[[], IO[bytes]]]
"""bytes, a seekable binary file (rewound for a retry), or a function opening the body afresh for each attempt."""


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


def backoff(attempt: int) -> float:
    ceiling = min(BACKOFF_CAP, BACKOFF_BASE * 2.0**attempt)
    return ceiling / 2 + random.uniform(0, ceiling / 2)


class Response:
    __slots__ = ("status", "headers", "body", "stream")

    def __init__(self, status: int, headers: Dict[str, str], body: bytes, stream: Optional["StreamedBody"] = None):
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class StreamedBody:
    """A response body read as it arrives, on a connection of its own, closed at the end (or on ``close``)."""

    def __init__(self, conn: http.client.HTTPConnection, response: http.client.HTTPResponse, idle_timeout: float):
        self._conn = conn
        self._response = response
        self._idle_timeout = idle_timeout

    def raw(self) -> http.client.HTTPResponse:
        return self._response

    def iter_bytes(self, size: int = _READ_CHUNK) -> Iterator[bytes]:
        try:
            while True:
                chunk = self._response.read1(size) if hasattr(self._response, "read1") else self._response.read(size)
                if not chunk:
                    return
                yield chunk
        except (OSError, http.client.HTTPException) as exc:
            raise APIConnectionError(f"The download was interrupted: {exc!r}") from exc
        finally:
            self.close()

    def close(self) -> None:
        try:
            self._response.close()
        finally:
            self._conn.close()


class Transport:
    def __init__(
        self,
        base_url: str,
        headers: Mapping[str, str],
        timeout: float,
        max_retries: int,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        parts = urlsplit(base_url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http(s) URL, not {base_url!r}")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.prefix = parts.path.rstrip("/")
        self.headers = dict(headers)
        self.timeout = timeout
        self.max_retries = max_retries
        self._sleep = sleep
        self._local = threading.local()
        self._ssl = ssl.create_default_context() if parts.scheme == "https" else None

    # ---- connections: one kept-alive connection per thread ----

    def _new_connection(self, timeout: float) -> http.client.HTTPConnection:
        if self._ssl is not None:
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout, context=self._ssl)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def _checkout(self, timeout: float) -> http.client.HTTPConnection:
        conn: Optional[http.client.HTTPConnection] = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None and time.monotonic() - self._local.idle_since > self._local.reuse_limit:
            conn.close()
            conn = None
        if conn is None:
            conn = self._new_connection(timeout)
        else:
            conn.timeout = timeout
            if conn.sock is not None:
                conn.sock.settimeout(timeout)
        return conn

    def _checkin(self, conn: http.client.HTTPConnection, keep_alive: Optional[str]) -> None:
        old = getattr(self._local, "conn", None)
        if old is not None:
            old.close()
        self._local.conn = conn
        self._local.idle_since = time.monotonic()
        self._local.reuse_limit = _reuse_limit(keep_alive)

    def close(self) -> None:
        """Closes this thread's kept-alive connection (others close with their threads)."""
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            conn.close()

    # ---- one call ----

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        json_body: Any = None,
        body: Body = None,
        content_type: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        idempotent: Optional[bool] = None,
        timeout: Optional[float] = None,
        stream: bool = False,
    ) -> Response:
        """Sends the request, retrying as the module docstring says, and returns the 2xx answer or raises."""
        total = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + total
        url = self.prefix + path
        if query:
            pairs = {k: _query_value(v) for k, v in query.items() if v is not None}
            if pairs:
                url += "?" + urlencode(pairs)
        send_headers = dict(self.headers)
        if headers:
            send_headers.update(headers)
        if json_body is not None:
            body = json.dumps(json_body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            content_type = "application/json"
        if content_type:
            send_headers["Content-Type"] = content_type
        if idempotent is None:
            idempotent = method in ("GET", "HEAD", "DELETE", "PUT", "OPTIONS") or "Idempotency-Key" in send_headers
        replayable = body is None or isinstance(body, (bytes, bytearray)) or callable(body) or _seekable(body)
        start_position = body.tell() if (not isinstance(body, (bytes, bytearray)) and body is not None
                                         and not callable(body) and _seekable(body)) else None

        attempt = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise APITimeoutError(f"{method} {path}: no answer within the timeout of {total:g} s")
            payload: Any = body
            if callable(body):
                payload = body()
            elif start_position is not None and attempt > 0:
                body.seek(start_position)  # type: ignore[union-attr]
            sent = False
            conn = self._checkout(remaining)
            try:
                try:
                    if conn.sock is None:
                        conn.connect()  # a failure here is "never sent": safe to retry whatever the method
                    sent = True
                    self._send(conn, method, url, payload, send_headers)
                    response = conn.getresponse()
                    status = response.status
                    answer_headers = {k.lower(): v for k, v in response.getheaders()}
                    if stream and 200 <= status < 300:
                        return Response(status, answer_headers, b"", StreamedBody(conn, response, remaining))
                    data = _read_within(conn, response, deadline)
                finally:
                    if callable(body) and hasattr(payload, "close"):
                        payload.close()
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                timed_out = isinstance(exc, (socket.timeout, TimeoutError))
                # Retry only what is safe: an idempotent call, or a request that never left this machine.
                retry = (idempotent or not sent) and replayable and attempt < self.max_retries
                if timed_out and time.monotonic() >= deadline:
                    retry = False
                if retry:
                    delay = backoff(attempt)
                    if time.monotonic() + delay < deadline:
                        self._sleep(delay)
                        attempt += 1
                        continue
                cls = APITimeoutError if timed_out or time.monotonic() >= deadline else APIConnectionError
                raise cls(f"{method} {path}: {_describe(exc)}") from exc

            if response.will_close:
                conn.close()
            else:
                self._checkin(conn, answer_headers.get("keep-alive"))
            if 200 <= status < 300:
                return Response(status, answer_headers, data)

            error = _problem_error(status, answer_headers, data)
            if attempt < self.max_retries and replayable and _retryable(status, error, idempotent):
                wait = parse_retry_after(answer_headers.get("retry-after"))
                delay = wait if wait is not None else backoff(attempt)
                if time.monotonic() + delay < deadline:
                    self._sleep(delay)
                    attempt += 1
                    continue
            raise error

    @staticmethod
    def _send(conn: http.client.HTTPConnection, method: str, url: str, payload: Any, headers: Dict[str, str]) -> None:
        if payload is None:
            if method in ("POST", "PUT", "PATCH"):
                headers = {**headers, "Content-Length": "0"}
            conn.request(method, url, headers=headers)
        elif isinstance(payload, (bytes, bytearray)):
            conn.request(method, url, body=payload, headers=headers)
        else:
            size = _remaining_size(payload)
            if size is not None:
                conn.request(method, url, body=payload, headers={**headers, "Content-Length": str(size)})
            else:
                conn.request(method, url, body=_chunks(payload), headers=headers, encode_chunked=True)


def _read_within(conn: http.client.HTTPConnection, response: http.client.HTTPResponse, deadline: float) -> bytes:
    """The whole body, each socket wait bounded by what is left of the call's time."""
    parts: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise socket.timeout("the call's timeout ran out while reading the answer")
        if conn.sock is not None:
            conn.sock.settimeout(remaining)
        chunk = response.read(_READ_CHUNK)
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)


def _reuse_limit(keep_alive: Optional[str]) -> float:
    """How long an idle connection may be reused: ``Keep-Alive: timeout=5`` (RFC 2068 §19.7.1.1) less a margin."""
    if keep_alive:
        for part in keep_alive.split(","):
            name, _, value = part.strip().partition("=")
            if name.lower() == "timeout":
                try:
                    return max(0.0, min(IDLE_REUSE_LIMIT, float(value) - 1.0))
                except ValueError:
                    break
    return IDLE_REUSE_LIMIT


def _problem_error(status: int, headers: Dict[str, str], data: bytes) -> ContactValidatorError:
    problem: Dict[str, Any] = {}
    try:
        parsed = json.loads(data) if data else None
        if isinstance(parsed, dict):
            problem = parsed
    except ValueError:
        pass
    if not problem:
        problem = {"status": status, "title": data[:200].decode("utf-8", "replace") or f"HTTP {status}"}
    return error_for(status, problem, headers)


def _retryable(status: int, error: ContactValidatorError, idempotent: bool) -> bool:
    if status in (429, 503):
        return True
    if status == 409 and idempotent and error.code == "idempotency-key-in-use":
        return True
    return idempotent and status in (500, 502, 504)


def _seekable(body: Any) -> bool:
    try:
        return bool(body.seekable())
    except (AttributeError, OSError, ValueError):
        return False


def _remaining_size(payload: Any) -> Optional[int]:
    try:
        if payload.seekable():
            here = payload.tell()
            end = payload.seek(0, 2)
            payload.seek(here)
            return int(end - here)
    except (AttributeError, OSError, ValueError):
        pass
    return None


def _chunks(payload: IO[bytes]) -> Iterator[bytes]:
    while True:
        chunk = payload.read(_READ_CHUNK)
        if not chunk:
            return
        yield chunk if isinstance(chunk, bytes) else chunk.encode("utf-8")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "timed out"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
