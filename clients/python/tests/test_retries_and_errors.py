"""Retries through the fault proxy (no double charge), the error map, and the total timeout."""

from __future__ import annotations

import socket
import time

import pytest

from contact_validator import (
    APIConnectionError, APIError, APITimeoutError, ContactValidator, InsufficientCreditsError, InvalidRequestError,
    RateLimitError,
    ServiceUnavailableError,
)

from conftest import answer

PHONE_PRICE = 2  # docs/api.md#credits-and-prices: a phone costs 2 credits (3 for a landline; +14155550123 is fixed_or_mobile)


def test_when_the_service_answers_503_once_then_the_call_is_retried_after_retry_after(service, client: ContactValidator) -> None:
    before = service.counts()
    service.fault("503", 1)

    started = time.monotonic()
    answer_ = client.validate(phone="+14155550123")

    assert answer_["phone"]["status"] == "valid"
    assert time.monotonic() - started >= 0.9  # Retry-After: 1
    after = service.counts()
    assert after["faulted"] == before["faulted"] + 1 and after["forwarded"] == before["forwarded"] + 1


def test_when_the_service_answers_429_once_then_a_get_is_retried(service, client: ContactValidator) -> None:
    service.fault("429", 1)
    assert client.account()["balance"] > 0


def test_when_retries_are_off_then_the_503_is_raised_with_its_problem(service) -> None:
    service.fault("503", 1)
    no_retry = service.client(max_retries=0)

    with pytest.raises(ServiceUnavailableError) as caught:
        no_retry.validate(phone="+14155550123")

    assert isinstance(caught.value, APIError) and caught.value.status == 503
    assert caught.value.request_id == "req_fault_proxy"


def test_when_the_answer_to_a_validate_is_lost_then_the_retry_is_replayed_and_charged_once(service, client: ContactValidator) -> None:
    balance_before = client.account()["balance"]
    counts_before = service.counts()
    service.fault("drop_after", 1)  # the service does (and charges) the work; the client never hears the answer

    answer_ = client.validate(phone="+14155550123")

    counts_after = service.counts()
    assert counts_after["forwarded"] == counts_before["forwarded"] + 2  # the lost attempt and the retry
    assert answer_["credits"] is not None and answer_["credits"]["charged"] == PHONE_PRICE
    assert client.account()["balance"] == balance_before - PHONE_PRICE  # exactly one charge


def test_when_the_connection_drops_before_a_get_reaches_the_service_then_it_is_retried(service, client: ContactValidator) -> None:
    service.fault("drop_before", 1)
    assert client.batches.list() is not None


def test_when_the_answer_to_a_non_idempotent_post_is_lost_then_it_is_not_sent_twice(service, client: ContactValidator) -> None:
    keys_before = len(client.keys.list())
    counts_before = service.counts()
    service.fault("drop_after", 1)

    with pytest.raises(APIConnectionError):
        client.keys.create()  # it may have been done: sending it again could make a second key

    assert service.counts()["forwarded"] == counts_before["forwarded"] + 1
    assert len(client.keys.list()) == keys_before + 1


def test_when_every_attempt_fails_then_the_error_comes_after_max_retries(service) -> None:
    c = service.client(max_retries=1)
    service.fault("drop_before", 2)

    with pytest.raises(APIConnectionError):
        c.account()

    assert service.counts()["pending"] == 0


def test_when_the_service_is_not_there_then_api_connection_error(service) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again at once: nothing listens there
    c = ContactValidator("cv_live_x", base_url=f"http://127.0.0.1:{port}", max_retries=1, timeout=5)

    with pytest.raises(APIConnectionError) as caught:
        c.account()
    assert not isinstance(caught.value, APITimeoutError)


# ---- against a tiny local server: what the real service will not do on demand ----


def test_when_credits_do_not_cover_the_request_then_insufficient_credits_error_has_balance_and_required(local_server) -> None:
    server = local_server(lambda h: answer(h, 402, {
        "type": "/problems/insufficient-credits", "title": "The account's usable credits do not cover the request",
        "status": 402, "balance": 1, "required": 3, "request_id": "req_402",
    }))
    c = ContactValidator("cv_live_x", base_url=server.url)

    with pytest.raises(InsufficientCreditsError) as caught:
        c.validate(phone="+14155550123")

    err = caught.value
    assert err.status == 402 and err.balance == 1 and err.required == 3 and err.request_id == "req_402"
    assert err.extensions == {"balance": 1, "required": 3}
    assert len(server.requests) == 1  # a 402 is never retried


def test_every_validate_attempt_carries_the_same_idempotency_key(local_server) -> None:
    server = local_server(lambda h: answer(h, 500, {"type": "/problems/internal", "title": "x", "status": 500}))
    c = ContactValidator("cv_live_x", base_url=server.url, max_retries=2)
    c.batches  # noqa: B018
    import contact_validator._http as transport
    original = transport.BACKOFF_BASE
    transport.BACKOFF_BASE = 0.01
    try:
        with pytest.raises(APIError):
            c.validate(email="someone@example.com")
    finally:
        transport.BACKOFF_BASE = original

    keys = {r["headers"]["Idempotency-Key"] for r in server.requests}
    assert len(server.requests) == 3 and len(keys) == 1
    assert server.requests[0]["headers"]["User-Agent"].startswith("contact-validator-python/")


def test_when_the_service_is_slower_than_the_timeout_then_api_timeout_error_within_it(local_server) -> None:
    def slow(h) -> None:
        time.sleep(3)
        answer(h, 200, {})

    server = local_server(slow)
    c = ContactValidator("cv_live_x", base_url=server.url, timeout=1.0, max_retries=2)

    started = time.monotonic()
    with pytest.raises(APITimeoutError):
        c.account()
    elapsed = time.monotonic() - started

    assert 0.9 <= elapsed < 1.5  # the total of the call, retries included


def test_when_retry_after_is_longer_than_the_time_left_then_the_rate_limit_error_comes_at_once(local_server) -> None:
    server = local_server(lambda h: answer(h, 429, {"type": "/problems/rate-limited", "title": "x", "status": 429},
                                           {"Retry-After": "30"}))
    c = ContactValidator("cv_live_x", base_url=server.url, timeout=5)

    started = time.monotonic()
    with pytest.raises(RateLimitError) as caught:
        c.account()

    assert time.monotonic() - started < 1 and caught.value.retry_after == 30
    assert len(server.requests) == 1


def test_when_the_body_is_over_16_kib_then_invalid_request_error_413(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.validate(address="x" * 20_000)
    assert caught.value.status == 413


def test_retry_after_is_read_as_seconds_or_as_an_http_date() -> None:
    from email.utils import formatdate

    from contact_validator._http import parse_retry_after

    assert parse_retry_after("3") == 3.0
    assert 8 <= (parse_retry_after(formatdate(time.time() + 10, usegmt=True)) or 0) <= 10
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
