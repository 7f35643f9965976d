# Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
"""The resources' methods, one per operation of the OpenAPI description."""

from __future__ import annotations

import os
import uuid
from typing import IO, Any, Dict, Iterator, List, Literal, Optional, Sequence, Union

from ._http import Transport
from ._streams import NOT_GIVEN, BatchResult, FileInput, _joined, _members, _segment, download, upload_body
from .types import Account, AddressSuggestion, AddressSuggestions, ApiKey, Batch, BatchList, Connector, ConnectorCheck, ConnectorList, ConnectorRun, ConnectorRunList, CreatedWebhookEndpoint, FeedbackRecorded, KeyList, NewApiKey, NewBatch, NewRun, Policy, PolicyList, RevokedKey, ShopifyInstallLink, UsageDays, ValidateBatchAnswer, ValidateOptions, Validation, WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointList


class Keys:
    """``client.keys``."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self, *, timeout: Optional[float] = None) -> List[ApiKey]:
        """``GET /v1/keys``: The account's API keys."""
        return self._t.request("GET", "/v1/keys", timeout=timeout).json()["keys"]  # type: ignore[no-any-return]

    def create(
        self,
        *,
        publishable: Optional[bool] = NOT_GIVEN,
        origins: Optional[List[str]] = NOT_GIVEN,
        phone: Optional[bool] = NOT_GIVEN,
        test: Optional[bool] = NOT_GIVEN,
        policy: Optional[str] = NOT_GIVEN,
        timeout: Optional[float] = None,
    ) -> NewApiKey:
        """``POST /v1/keys``: Create an API key.

        The key is in the answer once, never again.
        """
        body = _members({
            "publishable": publishable,
            "origins": origins,
            "phone": phone,
            "test": test,
            "policy": policy,
        })
        return self._t.request("POST", "/v1/keys", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def revoke(self, key_id: str, *, timeout: Optional[float] = None) -> RevokedKey:
        """``DELETE /v1/keys/{key_id}``: Revoke an API key.

        It stops working at once. Another account's key answers 404, like a missing one.
        """
        return self._t.request("DELETE", f"/v1/keys/{_segment(key_id)}", timeout=timeout).json()  # type: ignore[no-any-return]


class _BatchesOperations:
    """``client.batches``."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(
        self,
        file: FileInput,
        *,
        content_type: str = "text/csv",
        address_columns: Optional[Union[str, Sequence[str]]] = None,
        email_column: Optional[str] = None,
        phone_column: Optional[str] = None,
        country_column: Optional[str] = None,
        feedback_column: Optional[str] = None,
        smtp: Optional[bool] = None,
        name: Optional[str] = None,
        policy: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> NewBatch:
        """``POST /v1/batches``: Upload a CSV file to validate in the background.

        The file as the body (`text/csv`, streamed to disk), or the part `file` of `multipart/form-data`, at most
        BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; `,`, `;` or tab;
        RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, a field over BATCH_MAX_FIELD_BYTES
        (65536), or a row over BATCH_MAX_ROW_BYTES (1048576 bytes, the header line included) is found while the file
        streams in: 422 `invalid-csv` with its `line`, nothing kept. Each row is priced and charged like one
        /v1/validate request as it is processed. Parameters go in the query or as form fields.
        """
        return self._t.request(
            "POST",
            "/v1/batches",
            body=upload_body(file),
            content_type=content_type,
            query={"address_columns": _joined(address_columns), "email_column": email_column, "phone_column": phone_column, "country_column": country_column, "feedback_column": feedback_column, "smtp": smtp, "name": name, "policy": policy},
            timeout=timeout,
        ).json()  # type: ignore[no-any-return]

    def list(
        self,
        *,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> List[Batch]:
        """``GET /v1/batches``: The account's batches, newest first."""
        return self._t.request(
            "GET",
            "/v1/batches",
            query={"limit": limit, "starting_after": starting_after},
            timeout=timeout,
        ).json()["batches"]  # type: ignore[no-any-return]

    def list_all(
        self,
        *,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Iterator[Batch]:
        """``GET /v1/batches``, every page: one item at a time.

        The items of ``list``, as a generator: a page (``limit`` items) is fetched when the loop reaches it, after the
        last item's id; each page is one call with these arguments.
        """
        after = starting_after
        while True:
            page: BatchList = self._t.request(
                "GET",
                "/v1/batches",
                query={"limit": limit, "starting_after": after},
                timeout=timeout,
            ).json()
            yield from page["batches"]
            if not page["has_more"] or not page["next_starting_after"]:
                return
            after = page["next_starting_after"]

    def get(self, batch_id: str, *, timeout: Optional[float] = None) -> Batch:
        """``GET /v1/batches/{batch_id}``: A batch's status and progress.

        Another account's batch answers 404, exactly like a missing one.
        """
        return self._t.request("GET", f"/v1/batches/{_segment(batch_id)}", timeout=timeout).json()  # type: ignore[no-any-return]

    def cancel(self, batch_id: str, *, timeout: Optional[float] = None) -> Batch:
        """``DELETE /v1/batches/{batch_id}``: Cancel a batch and delete its files.

        The batch stays listed as `canceled`; its result answers 410.
        """
        return self._t.request("DELETE", f"/v1/batches/{_segment(batch_id)}", timeout=timeout).json()  # type: ignore[no-any-return]

    def result(
        self,
        batch_id: str,
        *,
        partial: Optional[bool] = None,
        formula_escape: Optional[bool] = None,
        file: Union[None, str, "os.PathLike[str]", IO[bytes]] = None,
        timeout: Optional[float] = None,
    ) -> Union[BatchResult, int]:
        """``GET /v1/batches/{batch_id}/result``: Download the enriched file.

        Every input column in its order and spelling, then `cv_address_status, cv_address_standardized, cv_address_dpv,
        cv_address_zip4, cv_email_status, cv_email_risk, cv_email_smtp, cv_email_suggestion, cv_phone_status,
        cv_phone_type, cv_phone_carrier, cv_phone_e164, cv_error, cv_address_notes, cv_email_reason, cv_email_flags,
        cv_next_action, cv_address_lat, cv_address_lon, cv_address_precision, cv_address_evidence, cv_address_changes,
        cv_feedback`; rows in input order, with the input's delimiter and CRLF between rows. A cell holding a line break
        (CR, LF or CRLF) is quoted, so that every row is one record. A cell a spreadsheet would run as a formula is
        written with a leading `'` (OWASP), unless it is a plain number.
        """
        return download(self._t.request(
            "GET",
            f"/v1/batches/{_segment(batch_id)}/result",
            query={"partial": partial, "formula_escape": formula_escape},
            headers={"Accept": "text/csv, application/problem+json"},
            stream=True,
            timeout=timeout,
        ), file)

    def resume(self, batch_id: str, *, timeout: Optional[float] = None) -> Batch:
        """``POST /v1/batches/{batch_id}/resume``: Resume a paused batch now.

        A batch paused for want of credits also goes on by itself once the account has enough.
        """
        return self._t.request("POST", f"/v1/batches/{_segment(batch_id)}/resume", timeout=timeout).json()  # type: ignore[no-any-return]


class Policies:
    """``client.policies``."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self, *, timeout: Optional[float] = None) -> PolicyList:
        """``GET /v1/policies``: The presets and the account's policies."""
        return self._t.request("GET", "/v1/policies", timeout=timeout).json()  # type: ignore[no-any-return]

    def create(
        self,
        *,
        name: str,
        address: Optional[Dict[str, Any]] = NOT_GIVEN,
        email: Optional[Dict[str, Any]] = NOT_GIVEN,
        phone: Optional[Dict[str, Any]] = NOT_GIVEN,
        base: Optional[str] = NOT_GIVEN,
        timeout: Optional[float] = None,
    ) -> Policy:
        """``POST /v1/policies``: Make a policy of the account.

        From a preset (`base`), with the rules given changed. Its rules are kept whole: a later version's presets do not
        change it.
        """
        body = _members({
            "address": address,
            "email": email,
            "phone": phone,
            "name": name,
            "base": base,
        }, nullable=("name",))
        return self._t.request("POST", "/v1/policies", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def get(self, policy_id: str, *, timeout: Optional[float] = None) -> Policy:
        """``GET /v1/policies/{policy_id}``: One policy of the account."""
        return self._t.request("GET", f"/v1/policies/{_segment(policy_id)}", timeout=timeout).json()  # type: ignore[no-any-return]

    def update(
        self,
        policy_id: str,
        *,
        address: Optional[Dict[str, Any]] = NOT_GIVEN,
        email: Optional[Dict[str, Any]] = NOT_GIVEN,
        phone: Optional[Dict[str, Any]] = NOT_GIVEN,
        timeout: Optional[float] = None,
    ) -> Policy:
        """``PATCH /v1/policies/{policy_id}``: Change a policy's rules.

        The rules given change; the others keep their action. Answers made from then on follow it (within a second on
        every instance).
        """
        body = _members({"address": address, "email": email, "phone": phone})
        return self._t.request("PATCH", f"/v1/policies/{_segment(policy_id)}", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def delete(self, policy_id: str, *, timeout: Optional[float] = None) -> None:
        """``DELETE /v1/policies/{policy_id}``: Delete a policy.

        Refused (409 `policy-conflict`, `reason` `in_use`) while a live key has it as its default or a connector follows
        it.
        """
        self._t.request("DELETE", f"/v1/policies/{_segment(policy_id)}", timeout=timeout)


class Connectors:
    """``client.connectors``."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(
        self,
        *,
        type: Any,
        name: str,
        settings: Any,
        credentials: Any,
        schedule: Optional[str] = NOT_GIVEN,
        write_back: Optional[Any] = NOT_GIVEN,
        credit_cap_monthly: Optional[int] = NOT_GIVEN,
        policy: Optional[str] = NOT_GIVEN,
        timeout: Optional[float] = None,
    ) -> Connector:
        """``POST /v1/connectors``: Connect a CRM or a store.

        Every URL the connector will call must be https on a public address. Credentials are sealed with
        CONNECTOR_SECRET_KEY (503 while it is not set) and never returned. One shop has one connector: a shop that a
        connector (of any account) already connects answers 409 `shop-already-connected`: its account disconnects it
        first, or, when that connector no longer reaches the shop, the app's OAuth install moves it to your account.
        """
        body = _members({
            "type": type,
            "name": name,
            "schedule": schedule,
            "settings": settings,
            "credentials": credentials,
            "write_back": write_back,
            "credit_cap_monthly": credit_cap_monthly,
            "policy": policy,
        }, nullable=("type", "name", "settings", "credentials", "credit_cap_monthly", "policy",))
        return self._t.request("POST", "/v1/connectors", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def list(self, *, timeout: Optional[float] = None) -> List[Connector]:
        """``GET /v1/connectors``: The account's connectors."""
        return self._t.request("GET", "/v1/connectors", timeout=timeout).json()["connectors"]  # type: ignore[no-any-return]

    def get(self, connector_id: str, *, timeout: Optional[float] = None) -> Connector:
        """``GET /v1/connectors/{connector_id}``: A connector, with its status, last run and watermark.

        Another account's connector answers 404, exactly like a missing one.
        """
        return self._t.request("GET", f"/v1/connectors/{_segment(connector_id)}", timeout=timeout).json()  # type: ignore[no-any-return]

    def update(
        self,
        connector_id: str,
        *,
        name: Optional[str] = NOT_GIVEN,
        status: Optional[str] = NOT_GIVEN,
        schedule: Optional[str] = NOT_GIVEN,
        settings: Optional[Dict[str, Any]] = NOT_GIVEN,
        credentials: Optional[Dict[str, Any]] = NOT_GIVEN,
        write_back: Optional[Dict[str, Any]] = NOT_GIVEN,
        credit_cap_monthly: Optional[int] = NOT_GIVEN,
        policy: Optional[str] = NOT_GIVEN,
        timeout: Optional[float] = None,
    ) -> Connector:
        """``PATCH /v1/connectors/{connector_id}``: Pause, resume or change a connector."""
        body = _members({
            "name": name,
            "status": status,
            "schedule": schedule,
            "settings": settings,
            "credentials": credentials,
            "write_back": write_back,
            "credit_cap_monthly": credit_cap_monthly,
            "policy": policy,
        }, nullable=("credit_cap_monthly", "policy",))
        return self._t.request("PATCH", f"/v1/connectors/{_segment(connector_id)}", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def delete(self, connector_id: str, *, timeout: Optional[float] = None) -> None:
        """``DELETE /v1/connectors/{connector_id}``: Delete a connector, its runs and record hashes."""
        self._t.request("DELETE", f"/v1/connectors/{_segment(connector_id)}", timeout=timeout)

    def run(self, connector_id: str, *, timeout: Optional[float] = None) -> NewRun:
        """``POST /v1/connectors/{connector_id}/runs``: Start a run now."""
        return self._t.request("POST", f"/v1/connectors/{_segment(connector_id)}/runs", timeout=timeout).json()  # type: ignore[no-any-return]

    def runs(
        self,
        connector_id: str,
        *,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> List[ConnectorRun]:
        """``GET /v1/connectors/{connector_id}/runs``: A connector's runs, newest first."""
        return self._t.request(
            "GET",
            f"/v1/connectors/{_segment(connector_id)}/runs",
            query={"limit": limit, "starting_after": starting_after},
            timeout=timeout,
        ).json()["runs"]  # type: ignore[no-any-return]

    def runs_all(
        self,
        connector_id: str,
        *,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Iterator[ConnectorRun]:
        """``GET /v1/connectors/{connector_id}/runs``, every page: one item at a time.

        The items of ``runs``, as a generator: a page (``limit`` items) is fetched when the loop reaches it, after the
        last item's id; each page is one call with these arguments.
        """
        after = starting_after
        while True:
            page: ConnectorRunList = self._t.request(
                "GET",
                f"/v1/connectors/{_segment(connector_id)}/runs",
                query={"limit": limit, "starting_after": after},
                timeout=timeout,
            ).json()
            yield from page["runs"]
            if not page["has_more"] or not page["next_starting_after"]:
                return
            after = page["next_starting_after"]

    def check(self, connector_id: str, *, timeout: Optional[float] = None) -> ConnectorCheck:
        """``POST /v1/connectors/{connector_id}/check``: Check a connector before its first run.

        Signs in to the platform and finds what would keep a run from reading or writing: refused credentials, missing
        or read-only fields (the verdict fields the plugin writes, their field-level security), missing access scopes,
        and webhooks the platform refuses (subscribed, as each run does, when PUBLIC_BASE_URL is set). Every problem at
        once, each with what to do; 200 whatever it finds. Free of credits.
        """
        return self._t.request("POST", f"/v1/connectors/{_segment(connector_id)}/check", timeout=timeout).json()  # type: ignore[no-any-return]

    def create_shopify_install_link(
        self,
        *,
        shop: str,
        name: Optional[str] = NOT_GIVEN,
        schedule: Optional[str] = NOT_GIVEN,
        settings: Optional[Dict[str, Any]] = NOT_GIVEN,
        timeout: Optional[float] = None,
    ) -> ShopifyInstallLink:
        """``POST /v1/connectors/shopify/install``: A signed link that installs the Shopify app on a store.

        Needs the Shopify app configured (503 otherwise: The operator has not set up the Shopify app (SHOPIFY_API_KEY,
        SHOPIFY_API_SECRET, PUBLIC_BASE_URL): use a custom app's token instead.). The store is connected when its owner
        approves the app and Shopify calls back.
        """
        body = _members({
            "shop": shop,
            "name": name,
            "schedule": schedule,
            "settings": settings,
        }, nullable=("shop",))
        return self._t.request("POST", "/v1/connectors/shopify/install", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]


class WebhookEndpoints:
    """``client.webhook_endpoints``."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(
        self,
        *,
        url: str,
        events: List[str],
        timeout: Optional[float] = None,
    ) -> CreatedWebhookEndpoint:
        """``POST /v1/webhook_endpoints``: Register a webhook endpoint.

        The URL must be https on a public address. The answer carries the signing secret, this once. Each event is
        POSTed as JSON `{"id", "type", "created", "data"}` with `Contact-Validator-Signature: t=<unix>,v1=<hex
        HMAC-SHA256(secret, "<t>.<raw body>")>`; an answer other than 2xx is tried again with back-off for 72 hours. At
        most 16 endpoints per account. An owner or admin key only (docs/account.md#key-roles): a key a member made gets
        403 `owner-only`.
        """
        body = _members({"url": url, "events": events}, nullable=("url", "events",))
        return self._t.request("POST", "/v1/webhook_endpoints", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def list(self, *, timeout: Optional[float] = None) -> List[WebhookEndpoint]:
        """``GET /v1/webhook_endpoints``: The account's webhook endpoints."""
        return self._t.request("GET", "/v1/webhook_endpoints", timeout=timeout).json()["webhook_endpoints"]  # type: ignore[no-any-return]

    def delete(self, webhook_endpoint_id: str, *, timeout: Optional[float] = None) -> None:
        """``DELETE /v1/webhook_endpoints/{webhook_endpoint_id}``: Delete a webhook endpoint and its delivery log.

        Nothing more is sent to it, retries included. An owner or admin key only (docs/account.md#key-roles).
        """
        self._t.request("DELETE", f"/v1/webhook_endpoints/{_segment(webhook_endpoint_id)}", timeout=timeout)

    def deliveries(
        self,
        webhook_endpoint_id: str,
        *,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> List[WebhookDelivery]:
        """``GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries``: An endpoint's deliveries, newest first."""
        return self._t.request(
            "GET",
            f"/v1/webhook_endpoints/{_segment(webhook_endpoint_id)}/deliveries",
            query={"limit": limit, "starting_after": starting_after},
            timeout=timeout,
        ).json()["deliveries"]  # type: ignore[no-any-return]

    def deliveries_all(
        self,
        webhook_endpoint_id: str,
        *,
        limit: Optional[int] = None,
        starting_after: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Iterator[WebhookDelivery]:
        """``GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries``, every page: one item at a time.

        The items of ``deliveries``, as a generator: a page (``limit`` items) is fetched when the loop reaches it, after
        the last item's id; each page is one call with these arguments.
        """
        after = starting_after
        while True:
            page: WebhookDeliveryList = self._t.request(
                "GET",
                f"/v1/webhook_endpoints/{_segment(webhook_endpoint_id)}/deliveries",
                query={"limit": limit, "starting_after": after},
                timeout=timeout,
            ).json()
            yield from page["deliveries"]
            if not page["has_more"] or not page["next_starting_after"]:
                return
            after = page["next_starting_after"]

    def redeliver(
        self,
        webhook_endpoint_id: str,
        delivery_id: str,
        *,
        timeout: Optional[float] = None,
    ) -> WebhookDelivery:
        """``POST /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver``: Send a delivery again now.

        Sends the same event (same `id`, a fresh signature) at once, whatever its status, and answers with the delivery
        as that attempt left it; if it fails, it is tried again with back-off like a first delivery. An owner or admin
        key only (docs/account.md#key-roles).
        """
        return self._t.request(
            "POST",
            f"/v1/webhook_endpoints/{_segment(webhook_endpoint_id)}/deliveries/{_segment(delivery_id)}/redeliver",
            timeout=timeout,
        ).json()  # type: ignore[no-any-return]


class EmailChecks:
    """``client.email_checks``."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def get(self, check_id: str, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """``GET /v1/email-checks/{check_id}``: An e-mail answer that arrives later.

        A `temp_fail`, `throttled` or `timeout` e-mail answer carries `check_id`: the service asks the mail server again
        on a schedule (the server's own "try again in …" respected) and keeps the definite answer here, in the cache for
        the next `/v1/validate`, and in an `email.verified` event. No further charge. Another account's check answers
        404, exactly like a missing one.
        """
        return self._t.request("GET", f"/v1/email-checks/{_segment(check_id)}", timeout=timeout).json()  # type: ignore[no-any-return]


class Feedback:
    """``client.feedback``."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def send(self, *, email: str, outcome: str, timeout: Optional[float] = None) -> FeedbackRecorded:
        """``POST /v1/feedback``: Tell what became of a mail.

        A hard bounce makes the address `invalid` (`reason` `bounced`) in this account's answers from now on; the
        outcomes of a domain's addresses give its catch-all answers a `catch_all_score`. One outcome per address, the
        latest standing: telling the same thing twice counts once. Free. Kept in this account alone, never shared.
        """
        body = _members({"email": email, "outcome": outcome}, nullable=("email", "outcome",))
        return self._t.request("POST", "/v1/feedback", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]


class _RootOperations:
    """The client's own methods; ``ContactValidator`` adds the configuration."""

    _transport: Transport

    def validate(
        self,
        address: Optional[Union[str, Dict[str, Any]]] = NOT_GIVEN,
        email: Optional[str] = NOT_GIVEN,
        phone: Optional[str] = NOT_GIVEN,
        country: Optional[str] = NOT_GIVEN,
        options: Optional[ValidateOptions] = NOT_GIVEN,
        *,
        policy: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Validation:
        """``POST /v1/validate``: Validate an address, an e-mail address and a phone number.

        Checks the modules asked for in parallel, within the time budget. Priced per module before the slow work starts
        (e-mail 1, US/Canadian address 1, other address 3, phone 2, landline 3); an `unknown` e-mail is refunded. A
        publishable key (`cv_pub_…`) may call this endpoint only, from one of its origins. A test key (`cv_test_…`) is
        answered by the same engines with network checks off (no DNS, SMTP or live phone look-up), is charged nothing
        and gets `"test": true`. `next_action` says what to do with the answer: `accept`, `confirm` or `fix`.
        """
        body = _members({
            "address": address,
            "email": email,
            "phone": phone,
            "country": country,
            "options": options,
        }, nullable=("address", "email", "phone",))
        return self._transport.request(
            "POST",
            "/v1/validate",
            json_body=body,
            query={"policy": policy},
            headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())},
            idempotent=True,
            timeout=timeout,
        ).json()  # type: ignore[no-any-return]

    def validate_batch(
        self,
        *,
        contacts: List[Dict[str, Any]],
        policy: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> ValidateBatchAnswer:
        """``POST /v1/validate/batch``: Validate up to 100 contacts in one call.

        Each contact is a /v1/validate body with an `input_id` of yours, echoed back with its answer; up to 100
        contacts, checked together within one time budget, priced and charged each as /v1/validate would be, once each.
        A contact that cannot be answered (the credits ran out before it, an engine fault) gets its `problem` in its
        place and is not charged; the others are answered (HTTP 200, `failed` counts them). An `Idempotency-Key` covers
        the whole call: a retry replays the answer and charges nothing again. Secret keys only.
        """
        body = _members({"contacts": contacts}, nullable=("contacts",))
        return self._transport.request(
            "POST",
            "/v1/validate/batch",
            json_body=body,
            query={"policy": policy},
            headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())},
            idempotent=True,
            timeout=timeout,
        ).json()  # type: ignore[no-any-return]

    def autocomplete_address(
        self,
        query: str,
        *,
        country: Optional[str] = None,
        limit: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> List[AddressSuggestion]:
        """``GET /v1/address/autocomplete``: Suggest addresses as a person types.

        Delivery points of the loaded reference data (the embedded RRAD sample, and the OpenAddresses, NAR and USPS
        files an operator imported) and places of the postal data (GeoNames ZIP codes and Canadian FSAs) whose written
        form starts with `q`, best first. Free: no credits are charged; rate-limited per key (and per client address for
        a publishable key, which may call it from its origins). The reference data is the service's, the same for every
        account.
        """
        return self._transport.request(
            "GET",
            "/v1/address/autocomplete",
            query={"q": query, "country": country, "limit": limit},
            timeout=timeout,
        ).json()["suggestions"]  # type: ignore[no-any-return]

    def account(self, *, timeout: Optional[float] = None) -> Account:
        """``GET /v1/account``: The key's own account.

        Balance, grants with their expiry, usage per module over 30 days, and API keys (prefixes only).
        """
        return self._transport.request("GET", "/v1/account", timeout=timeout).json()  # type: ignore[no-any-return]

    def update_account(
        self,
        *,
        low_balance_threshold: Optional[int],
        timeout: Optional[float] = None,
    ) -> Account:
        """``PATCH /v1/account``: Change the account's settings.

        `low_balance_threshold`: when the balance falls below it, the owner gets one e-mail and the endpoints one
        `credits.low` webhook, and no more until credits added bring the balance back at or above it (changing the
        threshold does not), at most 3 a UTC day. A new threshold is checked at once. An owner or admin key only
        (docs/account.md#key-roles): a key a member made gets 403 `owner-only`.
        """
        body = _members({"low_balance_threshold": low_balance_threshold}, nullable=("low_balance_threshold",))
        return self._transport.request("PATCH", "/v1/account", json_body=body, timeout=timeout).json()  # type: ignore[no-any-return]

    def get_usage(
        self,
        *,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> List[Any]:
        """``GET /v1/usage``: Usage per module per day.

        UTC days from `from` to `to` (inclusive, at most 366; by default the last 30), every day listed, zeros included.
        """
        return self._transport.request("GET", "/v1/usage", query={"from": from_, "to": to}, timeout=timeout).json()["days"]  # type: ignore[no-any-return]
