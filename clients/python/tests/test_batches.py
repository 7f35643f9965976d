"""client.batches against the real service: upload in every form, follow, download, cancel, resume, their errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from contact_validator import (
    ConflictError, ContactValidator, GoneError, InvalidRequestError, NotFoundError, types,
)

CSV = (
    "Street,City,State,Zip,Email,Phone\r\n"
    "1600 Amphitheatre Pkwy,Mountain View,CA,94043,someone@example.com,+1 415 555 0101\r\n"
    ",,,,,\r\n"
    "1 Infinite Loop,Cupertino,CA,95014,,+14155550123\r\n"
)


def test_when_a_file_path_is_uploaded_then_the_batch_completes_and_its_result_downloads(client: ContactValidator, tmp_path: Path) -> None:
    source = tmp_path / "contacts.csv"
    source.write_text(CSV, encoding="utf-8")
    seen: list = []

    created = client.batches.create(source, name="from a path", smtp=False)
    done = client.batches.wait(created["batch_id"], on_progress=seen.append, poll_interval=0.1, timeout=20)

    assert created["rows_total"] == 3 and created["columns"]["address"] == ["Street", "City", "State", "Zip"]
    assert done["status"] == "completed" and done["rows_done"] == 3 and done["credits_charged"] > 0
    assert seen and seen[-1]["status"] == "completed"
    out = tmp_path / "checked.csv"
    size = client.batches.result(created["batch_id"], file=out)
    data = out.read_bytes()
    assert size == len(data) and data.split(b"\r\n")[0].endswith(b"cv_phone_e164,cv_error,cv_address_notes,cv_email_reason,cv_email_flags,cv_next_action,cv_address_lat,cv_address_lon,cv_address_precision,cv_address_evidence,cv_address_changes,cv_feedback")
    assert not (tmp_path / "checked.csv.part").exists()


def test_when_the_result_is_iterated_then_rows_come_as_dicts_in_input_order(client: ContactValidator) -> None:
    created = client.batches.create(CSV.encode(), smtp=False)
    client.batches.wait(created["batch_id"], poll_interval=0.1, timeout=20)

    with client.batches.result(created["batch_id"]) as rows:
        listed = list(rows)

    assert [r["Street"] for r in listed] == ["1600 Amphitheatre Pkwy", "", "1 Infinite Loop"]
    assert listed[0]["Phone"] == "'+1 415 555 0101"  # formula-safe, as docs/batches.md says
    assert listed[0]["cv_phone_e164"] == "+14155550101"
    assert listed[1]["cv_error"] == "empty"
    assert listed[0]["cv_address_status"] in types.ADDRESS_STATUSES


def test_when_a_semicolon_file_object_is_uploaded_then_the_result_keeps_its_delimiter(client: ContactValidator) -> None:
    created = client.batches.create(io.BytesIO(b"email;phone\nsomeone@example.com;+14155550123\n"), smtp=False)
    client.batches.wait(created["batch_id"], poll_interval=0.1, timeout=20)

    result = client.batches.result(created["batch_id"]).start()
    rows = list(result)

    assert result.delimiter == ";" and rows[0]["phone"] == "+14155550123"


def test_when_text_is_uploaded_then_it_is_sent_as_utf8(client: ContactValidator) -> None:
    created = client.batches.create("Email,Name\nsomeone@example.com,Zoë Müller\n", email_column="Email", smtp=False)
    client.batches.wait(created["batch_id"], poll_interval=0.1, timeout=20)

    rows = list(client.batches.result(created["batch_id"]))
    assert rows[0]["Name"] == "Zoë Müller"
    again = client.batches.create(io.StringIO("Email\nsomeone@example.com\n"), smtp=False)
    assert again["rows_total"] == 1


def test_when_batches_are_listed_then_the_newest_comes_first(client: ContactValidator) -> None:
    first = client.batches.create(b"Email\nsomeone@example.com\n", name="older", smtp=False)
    second = client.batches.create(b"Email\nsomeone@example.com\n", name="newer", smtp=False)

    ids = [b["batch_id"] for b in client.batches.list()]

    assert ids.index(second["batch_id"]) < ids.index(first["batch_id"])
    assert client.batches.get(first["batch_id"])["name"] == "older"


def test_when_more_batches_than_a_page_are_walked_then_each_comes_once_newest_first_a_page_per_request(
    service, client: ContactValidator,
) -> None:
    # Arrange: five more batches, and the account's whole list read as one page.
    csv = b"Email\nsomeone@example.com\n"
    created = [client.batches.create(csv, name=f"page {i}", smtp=False)["batch_id"] for i in range(5)]
    whole = client.batches.list(limit=100)
    assert len(whole) < 100
    forwarded = service.counts()["forwarded"]

    # Act: pages of two.
    walked = list(client.batches.list_all(limit=2))

    # Assert: every batch once, in the list's order (newest first), one request per page.
    ids = [b["batch_id"] for b in walked]
    assert ids == [b["batch_id"] for b in whole]
    assert len(set(ids)) == len(ids)
    assert set(ids[:5]) == set(created)
    assert all(a["created_at"] >= b["created_at"] for a, b in zip(walked, walked[1:]))
    assert service.counts()["forwarded"] - forwarded == -(-len(whole) // 2)


def test_when_list_all_is_left_after_its_first_item_then_one_page_was_fetched(service, client: ContactValidator) -> None:
    # Arrange: nothing is fetched before the first item is asked for.
    forwarded = service.counts()["forwarded"]
    walk = client.batches.list_all(limit=2)
    assert service.counts()["forwarded"] == forwarded

    # Act
    first = next(walk)
    walk.close()

    # Assert
    assert service.counts()["forwarded"] - forwarded == 1
    assert first["batch_id"] == client.batches.list(limit=1)[0]["batch_id"]


def test_when_list_all_starts_after_an_id_that_is_not_a_batch_then_invalid_request_error_names_it(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        next(client.batches.list_all(starting_after="batch_made_up"))
    assert [e["field"] for e in caught.value.errors] == ["starting_after"]


def test_when_a_batch_is_canceled_then_its_result_is_gone(client: ContactValidator) -> None:
    created = client.batches.create(b"Email\n" + b"someone@example.com\n" * 2000, smtp=False)

    canceled = client.batches.cancel(created["batch_id"])

    assert canceled["status"] in ("canceled", "completed")
    if canceled["status"] == "canceled":
        with pytest.raises(GoneError) as caught:
            client.batches.result(created["batch_id"])
        assert caught.value.status == 410 and isinstance(caught.value, NotFoundError)


def test_when_partial_is_asked_then_rows_done_so_far_come_back(client: ContactValidator) -> None:
    created = client.batches.create(b"Email\n" + b"someone@example.com\n" * 50, smtp=False)

    rows = list(client.batches.result(created["batch_id"], partial=True))

    assert len(rows) <= 50


def test_when_a_completed_batch_is_resumed_then_conflict_error(client: ContactValidator) -> None:
    created = client.batches.create(b"Email\nsomeone@example.com\n", smtp=False)
    client.batches.wait(created["batch_id"], poll_interval=0.1, timeout=20)

    with pytest.raises(ConflictError) as caught:
        client.batches.resume(created["batch_id"])

    assert caught.value.status == 409 and caught.value.code == "batch-not-paused"


def test_when_a_batch_does_not_exist_then_not_found_error(client: ContactValidator) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.batches.get("batch_doesnotexist")
    assert caught.value.status == 404 and caught.value.request_id


def test_when_a_row_breaks_the_csv_grammar_then_invalid_request_error_names_the_line(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.batches.create(b"Email,Phone\nsomeone@example.com,+14155550123\na@example.com,1,2,3\n")

    err = caught.value
    assert err.status == 422 and err.code == "invalid-csv" and err.line == 3


def test_when_the_content_type_is_wrong_then_invalid_request_error_415(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.batches.create(b"Email\nsomeone@example.com\n", content_type="application/pdf")
    assert caught.value.status == 415


def test_when_the_result_of_a_running_batch_is_asked_then_conflict_error_names_its_state(client: ContactValidator) -> None:
    created = client.batches.create(b"Email\n" + b"someone@example.com\n" * 5000, smtp=False)
    try:
        client.batches.result(created["batch_id"])
    except ConflictError as err:
        assert err.code == "batch-not-ready" and err.extensions["rows_total"] == 5000
    finally:
        client.batches.cancel(created["batch_id"])
