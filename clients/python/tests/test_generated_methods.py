"""Methods generated from the OpenAPI description for operations no one wrote by hand, against the real service."""

from __future__ import annotations

import datetime

import pytest

from contact_validator import ContactValidator, NotFoundError


def test_when_the_usage_is_asked_for_then_every_day_comes_and_today_counts_the_calls_just_made(client: ContactValidator) -> None:
    # Arrange
    client.validate(phone="+14155550123")
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()

    # Act
    days = client.get_usage()

    # Assert
    assert len(days) >= 30
    assert next(day for day in days if day["date"] == today)["phone"] > 0
    assert [day["date"] for day in client.get_usage(from_=today, to=today)] == [today]


def test_when_an_email_check_that_does_not_exist_is_read_then_not_found(client: ContactValidator) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.email_checks.get("chk_does_not_exist")
    assert caught.value.status == 404


def test_when_a_key_is_created_with_keyword_members_then_only_those_are_sent(client: ContactValidator) -> None:
    # Act: a test key, the generated method's keyword arguments, None meaning "not given".
    created = client.keys.create(test=True, publishable=None)

    # Assert
    assert created["api_key"].startswith("cv_test_")
    client.keys.revoke(created["key_id"])
