"""validate, account, keys against the real service."""

from __future__ import annotations

import pytest

from contact_validator import AuthenticationError, ContactValidator, InvalidRequestError, types


def test_when_all_three_modules_are_asked_then_each_answer_uses_the_contract_vocabularies(client: ContactValidator) -> None:
    answer = client.validate(
        address="1600 Amphitheatre Pkwy, Mountain View, CA 94043", email="someone@example.com",
        phone="+14155550123", country="US", options={"smtp": False},
    )

    address, email, phone = answer["address"], answer["email"], answer["phone"]
    assert address is not None and email is not None and phone is not None
    assert address["status"] in types.ADDRESS_STATUSES
    assert address["dpv"] in types.DPV_CODES
    assert address["standardized"].startswith("1600 AMPHITHEATRE PKWY")
    # Only ZIP, city and state agree with the embedded data: the evidence says so, the location is the ZIP's centre.
    assert address["evidence"] in types.ADDRESS_EVIDENCE and address["evidence"] == "postal_code"
    assert address["sources"] == ["geonames"]
    location = address["location"]
    assert location is not None and location["precision"] in types.LOCATION_PRECISIONS and location["precision"] == "postal_code"
    assert abs(location["lat"] - 37.41) < 0.1 and abs(location["lon"] + 122.08) < 0.1
    assert email["status"] in types.EMAIL_STATUSES and email["risk"] in types.EMAIL_RISKS
    assert email["smtp"] in types.EMAIL_SMTP_RESULTS
    assert phone["status"] == "valid" and phone["e164"] == "+14155550123"
    assert phone["type"] in types.PHONE_TYPES and phone["carrier_source"] in types.CARRIER_SOURCES
    assert answer["credits"] is not None and answer["credits"]["charged"] >= 3
    assert answer["request_id"]


def test_when_one_module_is_asked_then_the_others_are_none(client: ContactValidator) -> None:
    answer = client.validate(phone="+14155550123")

    assert answer["address"] is None and answer["email"] is None
    assert answer["phone"] is not None and answer["credits"] == {"charged": 2, "remaining": answer["credits"]["remaining"]}


def test_when_the_account_is_read_then_its_balance_follows_the_charges(client: ContactValidator) -> None:
    before = client.account()["balance"]

    client.validate(address="1600 Amphitheatre Pkwy, Mountain View, CA 94043")

    account = client.account()
    assert account["balance"] == before - 1
    assert account["account_id"].startswith("acct_") and account["grants"]


def test_when_a_key_is_created_then_it_works_and_once_revoked_it_is_refused(client: ContactValidator, service) -> None:
    new = client.keys.create()
    assert new["api_key"].startswith("cv_") and any(k["key_id"] == new["key_id"] for k in client.keys.list())
    second = service.client(api_key=new["api_key"])
    assert second.account()["account_id"] == client.account()["account_id"]

    revoked = client.keys.revoke(new["key_id"])

    assert revoked["key_id"] == new["key_id"] and revoked["revoked_at"]
    with pytest.raises(AuthenticationError):
        second.account()


def test_when_a_publishable_key_is_created_then_its_answer_is_the_new_key(client: ContactValidator) -> None:
    new = client.keys.create(publishable=True, origins=["https://shop.example.com"])

    assert new["api_key"].startswith("cv_pub_")
    client.keys.revoke(new["key_id"])


def test_when_a_test_key_validates_fixed_inputs_then_next_action_says_what_to_do_and_nothing_is_charged(
    client: ContactValidator, service,
) -> None:
    new = client.keys.create(test=True)
    tester = service.client(api_key=new["api_key"])
    before = client.account()["balance"]

    good = tester.validate(address="6007 Applegate Ln, Louisville, KY 40219", phone="+1 502-713-4410")
    typo = tester.validate(email="ann@gmial.com")
    bad = tester.validate(email="jane.doe@gmail.con")

    assert new["api_key"].startswith("cv_test_") and new["test"] is True
    assert good["next_action"] == "accept" and good["test"] is True and good["credits"]["charged"] == 0
    assert good["address"]["status"] == "verified" and good["address"]["next_action"] in types.NEXT_ACTIONS
    assert typo["next_action"] == "confirm" and typo["email"]["suggestion"] == "ann@gmail.com"
    assert bad["next_action"] == "fix" and bad["email"]["reason"] == "no_such_domain"
    assert client.account()["balance"] == before
    with pytest.raises(AuthenticationError):
        tester.account()


def test_when_the_key_is_wrong_then_authentication_error_carries_the_problem(service) -> None:
    bad = service.client(api_key="cv_live_not_a_real_key_000000000000000")

    with pytest.raises(AuthenticationError) as caught:
        bad.validate(email="someone@example.com")

    err = caught.value
    assert err.status == 401 and err.code == "unauthorized" and err.title and err.request_id
    assert err.headers.get("www-authenticate", "").startswith("Bearer")


def test_when_the_body_fails_the_schema_then_invalid_request_error_lists_the_fields(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.validate(email="x" * 400, options={"smtp": "yes"})  # type: ignore[typeddict-item]

    err = caught.value
    assert err.status == 400 and err.errors
    assert {e["field"] for e in err.errors} & {"email", "options.smtp"}


def test_when_nothing_is_asked_then_the_service_answers_400(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.validate()
    assert caught.value.status == 400


def test_when_the_start_of_a_delivery_line_is_typed_then_the_delivery_point_comes_first_free(client: ContactValidator) -> None:
    before = client.account()["balance"]

    suggestions = client.autocomplete_address("6007 Applegate La")
    places = client.autocomplete_address("Louisville, KY 4021", country="US", limit=2)

    assert suggestions[0] == {
        "text": "6007 APPLEGATE LN, LOUISVILLE, KY 40219", "street": "6007 APPLEGATE LN", "city": "LOUISVILLE",
        "state": "KY", "zip": "40219", "country": "US", "kind": "address",
    }
    assert [p["zip"] for p in places] == ["40210", "40211"]
    assert client.account()["balance"] == before


def test_when_the_autocomplete_limit_is_out_of_range_then_invalid_request_error_names_it(client: ContactValidator) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.autocomplete_address("main", limit=50)
    assert [e["field"] for e in caught.value.errors] == ["limit"]
