# Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
"""The service's answers, typed: ``TypedDict`` classes over the plain dicts the client returns, and the closed
vocabularies as ``Literal`` types plus tuples of their values. The service may add members and (documented) values;
a client reading an unknown one gets it unchanged."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict, Union

if sys.version_info >= (3, 11):
    from typing import NotRequired
elif TYPE_CHECKING:  # pragma: no cover - only type checkers read it on 3.9/3.10 (annotations are strings here)
    from typing_extensions import NotRequired

__all__ = [
    "LocationPrecision",
    "LOCATION_PRECISIONS",
    "AddressStatus",
    "ADDRESS_STATUSES",
    "Dpv",
    "DPV_CODES",
    "NextAction",
    "NEXT_ACTIONS",
    "AddressEvidence",
    "ADDRESS_EVIDENCE",
    "EmailStatus",
    "EMAIL_STATUSES",
    "EmailRisk",
    "EMAIL_RISKS",
    "EmailSmtp",
    "EMAIL_SMTP_RESULTS",
    "PhoneStatus",
    "PHONE_STATUSES",
    "PhoneType",
    "PHONE_TYPES",
    "CarrierSource",
    "CARRIER_SOURCES",
    "BatchStatus",
    "BATCH_STATUSES",
    "RunStatus",
    "RUN_STATUSES",
    "StreamStatus",
    "STREAM_STATUSES",
    "ConnectorStatus",
    "CONNECTOR_STATUSES",
    "ValidateOptions",
    "AddressComponents",
    "AddressLocation",
    "AddressResult",
    "EmailResult",
    "PhoneResult",
    "Credits",
    "Validation",
    "AddressSuggestion",
    "AddressSuggestions",
    "Grant",
    "PublishableScope",
    "ApiKey",
    "Usage",
    "ModuleUsage",
    "LowBalanceAlert",
    "Account",
    "KeyList",
    "NewApiKey",
    "RevokedKey",
    "Batch",
    "BatchColumns",
    "NewBatch",
    "BatchList",
    "RunError",
    "ConnectorRun",
    "ConnectorStream",
    "Connector",
    "ConnectorList",
    "ConnectorRunList",
    "NewRun",
    "WebhookEndpoint",
    "CreatedWebhookEndpoint",
    "WebhookEndpointList",
    "WebhookDelivery",
    "WebhookDeliveryList",
    "FieldError",
    "ValidateBatchRequest",
    "ValidateBatchAnswer",
    "UsageDays",
    "PolicyList",
    "NewPolicyRequest",
    "Policy",
    "PolicyChanges",
    "ConnectorCheck",
    "ShopifyInstallRequest",
    "ShopifyInstallLink",
    "FeedbackReport",
    "FeedbackRecorded",
]


LocationPrecision = Literal["rooftop", "parcel", "interpolated", "postal_code"]
"""`rooftop`: on the building (NAD Placement, NAR); `parcel`: on its property (a parcel centroid, or an OpenAddresses point, which does not say where on the property it stands); `interpolated`: along a TIGER street segment by the house number; `postal_code`: the postal code's centre (GeoNames, about 1 km)"""
LOCATION_PRECISIONS: tuple[LocationPrecision, ...] = ("rooftop", "parcel", "interpolated", "postal_code")


AddressStatus = Literal["verified", "corrected", "partial", "plausible", "ambiguous", "invalid"]
"""`verified` delivery point confirmed; `corrected` confirmed by reference data after changing input components; `partial` building confirmed, unit missing or unknown; `plausible` well-formed and consistent but not confirmed (corrections made without reference data say so in `A#`/`B#`/`M#` footnotes); `ambiguous` several candidates; `invalid`"""
ADDRESS_STATUSES: tuple[AddressStatus, ...] = ("verified", "corrected", "partial", "plausible", "ambiguous", "invalid")


Dpv = Literal["Y", "N", "S", "D", ""]
"""USPS DPV code, or "" when no reference data covers the address"""
DPV_CODES: tuple[Dpv, ...] = ("Y", "N", "S", "D", "")


NextAction = Literal["accept", "confirm", "fix"]
"""What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid`"""
NEXT_ACTIONS: tuple[NextAction, ...] = ("accept", "confirm", "fix")


AddressEvidence = Literal["delivery_point", "address_point", "street_range", "street", "postal_code", "none"]
"""What confirmed the address (docs/api.md#address-evidence): `delivery_point` (USPS data holds it), `address_point` (an address file: NAD, OpenAddresses, NAR, RRAD), `street_range` (a TIGER number range of the street: not a house), `street` (the street is known in the postal code, the number not), `postal_code` (postal code, city and state agree), `none`"""
ADDRESS_EVIDENCE: tuple[AddressEvidence, ...] = ("delivery_point", "address_point", "street_range", "street", "postal_code", "none")


EmailStatus = Literal["valid", "invalid", "risky", "unknown"]
EMAIL_STATUSES: tuple[EmailStatus, ...] = ("valid", "invalid", "risky", "unknown")


EmailRisk = Literal["low", "medium", "high"]
EMAIL_RISKS: tuple[EmailRisk, ...] = ("low", "medium", "high")


EmailSmtp = Literal["deliverable", "undeliverable", "catch_all", "mailbox_full", "disabled", "unknown", "pending", "skipped"]
"""`pending`: the probe goes on past the budget; `skipped`: no probe was made"""
EMAIL_SMTP_RESULTS: tuple[EmailSmtp, ...] = ("deliverable", "undeliverable", "catch_all", "mailbox_full", "disabled", "unknown", "pending", "skipped")


PhoneStatus = Literal["valid", "invalid", "unknown"]
PHONE_STATUSES: tuple[PhoneStatus, ...] = ("valid", "invalid", "unknown")


PhoneType = Literal["mobile", "landline", "fixed_or_mobile", "voip", "toll_free", "premium_rate", "shared_cost", "personal", "pager", "uan", "voicemail", "unknown"]
PHONE_TYPES: tuple[PhoneType, ...] = ("mobile", "landline", "fixed_or_mobile", "voip", "toll_free", "premium_rate", "shared_cost", "personal", "pager", "uan", "voicemail", "unknown")


CarrierSource = Literal["live", "allocation", "none"]
"""`live`: current carrier from a live look-up; `allocation`: original holder of the number block; `none`"""
CARRIER_SOURCES: tuple[CarrierSource, ...] = ("live", "allocation", "none")


BatchStatus = Literal["queued", "running", "paused", "completed", "failed", "canceled"]
BATCH_STATUSES: tuple[BatchStatus, ...] = ("queued", "running", "paused", "completed", "failed", "canceled")


RunStatus = Literal["running", "completed", "failed", "paused"]
RUN_STATUSES: tuple[RunStatus, ...] = ("running", "completed", "failed", "paused")


StreamStatus = Literal["listening", "dropped", "starting", "stopped"]
"""`listening`: an instance is subscribed to the change events; `dropped`: the stream broke (a catch-up run reads what was missed, and the stream is taken again from the kept position); `starting`: no instance has subscribed yet; `stopped`: the connector is not active"""
STREAM_STATUSES: tuple[StreamStatus, ...] = ("listening", "dropped", "starting", "stopped")


ConnectorStatus = Literal["active", "paused", "error"]
CONNECTOR_STATUSES: tuple[ConnectorStatus, ...] = ("active", "paused", "error")


class ValidateOptions(TypedDict):
    smtp: NotRequired[bool]


class AddressComponents(TypedDict):
    """Absent parts are null."""

    primary_number: Optional[str]
    street_predirection: Optional[str]
    street_name: Optional[str]
    street_suffix: Optional[str]
    street_postdirection: Optional[str]
    secondary_designator: Optional[str]
    secondary_number: Optional[str]
    city: Optional[str]
    state: Optional[str]
    postal_code: Optional[str]
    plus4: Optional[str]
    country: Optional[str]
    extra_secondaries: NotRequired[List[str]]
    """US/Canada: units Pub 28 keeps off the delivery line (`BLDG A`, `FL 3`)"""
    urbanization: NotRequired[Optional[str]]
    """Puerto Rico's `URB` name"""
    delivery_type: NotRequired[Optional[str]]
    """US/Canada: what the delivery line is"""
    county: NotRequired[Optional[str]]
    """US: the ZIP code's county (GeoNames)"""
    delivery_installation: NotRequired[Optional[str]]
    """Canada: `STN MAIN`, `SUCC CENTRE-VILLE`"""


class AddressLocation(TypedDict):
    lat: float
    lon: float
    precision: LocationPrecision
    """`rooftop`: on the building (NAD Placement, NAR); `parcel`: on its property (a parcel centroid, or an OpenAddresses point, which does not say where on the property it stands); `interpolated`: along a TIGER street segment by the house number; `postal_code`: the postal code's centre (GeoNames, about 1 km)"""


class AddressResult(TypedDict):
    status: AddressStatus
    """`verified` delivery point confirmed; `corrected` confirmed by reference data after changing input components; `partial` building confirmed, unit missing or unknown; `plausible` well-formed and consistent but not confirmed (corrections made without reference data say so in `A#`/`B#`/`M#` footnotes); `ambiguous` several candidates; `invalid`"""
    standardized: Optional[str]
    """Upper case, one line, postal code included"""
    dpv: Dpv
    """USPS DPV code, or "" when no reference data covers the address"""
    zip4: Optional[str]
    """`12345-6789` when the reference data gives the add-on"""
    country: Optional[str]
    """ISO 3166-1 alpha-2"""
    components: AddressComponents
    footnotes: List[str]
    """Stable-prefix codes (`A#` ZIP, `B#` city/state, `N#` standardized, …)"""
    next_action: NextAction
    """What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid`"""
    evidence: AddressEvidence
    """What confirmed the address (docs/api.md#address-evidence): `delivery_point` (USPS data holds it), `address_point` (an address file: NAD, OpenAddresses, NAR, RRAD), `street_range` (a TIGER number range of the street: not a house), `street` (the street is known in the postal code, the number not), `postal_code` (postal code, city and state agree), `none`"""
    sources: List[str]
    """Ids of the data behind `evidence`: `usps`, `nad`, `openaddresses`, `nar`, `rrad`, `tiger`, `geonames`"""
    location: Optional[AddressLocation]
    """Where it is, and how closely; null when not known (or the address is invalid)"""
    changes: List[Dict[str, Any]]
    """What changed, part by part (docs/api.md#what-changed): each part the answer has, as written and as answered"""
    missing_unit: bool
    """The building has units and none was given (USPS DPV `D`): ask for the unit (`next_action` `confirm`, `next_action_reason` `missing_unit`)"""
    match_score: float
    """0 to 1: how far the evidence reaches (`delivery_point` 1 … `none` 0.2), less 0.05 a part inferred or spell-corrected, 0.1 a part replaced or a missing unit; 0 when `invalid`"""
    next_action_reason: Optional[str]
    """Which rule made `next_action` more than `accept`: `missing_unit`, `corrections` (a part corrected or added), or `status:<status>`; null for `accept`"""


class EmailResult(TypedDict):
    status: EmailStatus
    risk: EmailRisk
    smtp: EmailSmtp
    """`pending`: the probe goes on past the budget; `skipped`: no probe was made"""
    reason: str
    """Why the status: `syntax` (finer codes after a colon, `syntax:local_too_long`), `no_such_domain`, `no_mail_server`, `null_mx`, `mailbox_not_found`, `disabled`, `catch_all`, `mailbox_full`, `disposable`, `role`, `temp_fail`, `timeout`, `blocked`, `no_connect`, `dns_error`, `accepted`, `typo`, `not_checked`, `reserved_domain` (example.com, `.test`, `.example`, `.invalid`, `.localhost`: never a mailbox), `bounced` (the account reported a hard bounce, `POST /v1/feedback`), …"""
    normalized: Optional[str]
    suggestion: Optional[str]
    """A likely intended address when the domain looks mistyped"""
    disposable: bool
    role: bool
    free: bool
    next_action: NextAction
    """What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid`"""
    check_id: NotRequired[str]
    """On a `temp_fail`, `throttled` or `timeout` answer: the service asks again later; `GET /v1/email-checks/{check_id}` gives the answer that arrives, as do the cache, an `email.verified` event and a batch's result row (docs/email.md)"""
    catch_all_score: NotRequired[Dict[str, Any]]
    """On a catch-all answer, once the account has told outcomes of its mail (`POST /v1/feedback`): how likely a mail to the domain is delivered (docs/email.md#feedback)"""


class PhoneResult(TypedDict):
    status: PhoneStatus
    type: PhoneType
    carrier: Optional[str]
    carrier_source: CarrierSource
    """`live`: current carrier from a live look-up; `allocation`: original holder of the number block; `none`"""
    e164: Optional[str]
    country: Optional[str]
    reason: NotRequired[Optional[str]]
    """Why the number is invalid: `too_short`, `too_long`, `invalid_length`, `invalid_country_code`, `missing_country_code`, `invalid_for_region`, `not_a_number`, `empty`, `emergency_number` (`911`, `112`, …), `short_code` (`411`, an SMS short code)"""
    national: NotRequired[Optional[str]]
    """National format"""
    next_action: NextAction
    """What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid`"""


class Credits(TypedDict):
    charged: int
    remaining: int


class Validation(TypedDict):
    """Every module asked for has an object; a module not asked for is null."""

    address: Optional[AddressResult]
    email: Optional[EmailResult]
    phone: Optional[PhoneResult]
    credits: Optional[Credits]
    """null for a publishable key, which reads nothing of the account"""
    request_id: str
    response_ms: int
    test: bool
    """true when a test key (`cv_test_…`) asked: network checks off, nothing charged (docs/account.md#test-keys)"""
    next_action: NextAction
    """The most demanding of the modules asked: `fix` if one says fix, else `confirm` if one says confirm, else `accept`"""


class AddressSuggestion(TypedDict):
    text: str
    """One line as a form shows it: `6007 APPLEGATE LN, LOUISVILLE, KY 40219`"""
    street: Optional[str]
    """The delivery line (number and street), or the street alone; null for a place"""
    city: Optional[str]
    state: Optional[str]
    """State or province code"""
    zip: Optional[str]
    """ZIP or Canadian postal code; null for a city of several ZIPs or a Canadian FSA"""
    country: str
    kind: str
    """`address`: a delivery point of the loaded data (an address file's point, or a number inside a USPS range); `street`: a street of a postal code, without a number; `place`: a city, or a ZIP's or FSA's place"""


class AddressSuggestions(TypedDict):
    suggestions: List[AddressSuggestion]
    """Best first: with a house number typed, delivery points first; else places and streets"""


class Grant(TypedDict):
    id: str
    kind: str
    credits: int
    remaining: int
    price_usd: Optional[float]
    created_at: str
    expires_at: str
    expired: bool


class PublishableScope(TypedDict):
    origins: List[str]
    """The origins whose pages may use the key (CORS is answered for them alone)"""
    phone: bool
    """Whether the key may check phone numbers"""


class ApiKey(TypedDict):
    key_id: str
    prefix: str
    """The first characters of the key, to recognise it; the key itself is shown only at creation"""
    created_at: str
    revoked_at: Optional[str]
    publishable: NotRequired[PublishableScope]
    """Present for a publishable key"""
    test: bool
    """A test key (`cv_test_…`, docs/account.md#test-keys)"""
    policy: NotRequired[str]
    """Its default policy, when it has one (docs/api.md#policies)"""


class Usage(TypedDict):
    """Requests charged and credits spent per module over the window"""

    window_days: int
    address: ModuleUsage
    email: ModuleUsage
    phone: ModuleUsage


class ModuleUsage(TypedDict):
    requests: int
    credits: int


class LowBalanceAlert(TypedDict):
    """One e-mail to the owner and one `credits.low` webhook each time the balance falls below the threshold, at most 3 a UTC day"""

    threshold: Optional[int]
    """Alert when the balance falls below this many credits; null: no alert"""
    armed: bool
    """false once an alert went out, until credits added bring the balance back at or above the threshold"""
    last_alert_at: Optional[str]


class Account(TypedDict):
    account_id: str
    name: str
    created_at: str
    balance: int
    """Usable credits: what the unexpired grants have left"""
    grants: List[Grant]
    usage: Usage
    """Requests charged and credits spent per module over the window"""
    keys: List[ApiKey]
    low_balance_alert: LowBalanceAlert


class KeyList(TypedDict):
    keys: List[ApiKey]


class NewApiKey(TypedDict):
    key_id: str
    api_key: str
    """Shown this once; only its hash is kept"""
    publishable: NotRequired[PublishableScope]
    test: NotRequired[bool]
    """`true` for a test key; absent otherwise"""
    policy: NotRequired[str]
    """Its default policy, when one was given"""


class RevokedKey(TypedDict):
    key_id: str
    revoked_at: str


class Batch(TypedDict):
    batch_id: str
    name: Optional[str]
    status: BatchStatus
    reason: Optional[str]
    """`credits_exhausted` for a paused batch; why, for a failed one"""
    rows_total: int
    rows_done: int
    """Rows processed, the failed ones included"""
    rows_failed: int
    credits_charged: int
    created_at: str
    started_at: Optional[str]
    finished_at: Optional[str]
    expires_at: Optional[str]
    """When the file and results are deleted (BATCH_RETENTION_DAYS)"""
    eta_seconds: Optional[int]
    email_checks: NotRequired[Dict[str, Any]]
    """GET /v1/batches/{batch_id} only: its e-mail answers that arrive later (docs/batches.md#answers-that-arrive-later)"""


class BatchColumns(TypedDict):
    """The columns read, as named or as detected from the header"""

    address: List[str]
    """Header names joined with ", " into the one-line address"""
    email: Optional[str]
    phone: Optional[str]
    country: Optional[str]
    feedback: Optional[str]
    """The feedback column (docs/batches.md#feedback)"""


class NewBatch(Batch):
    columns: BatchColumns
    """The columns read, as named or as detected from the header"""
    delimiter: str
    """The delimiter detected: `,`, `;` or tab"""


class BatchList(TypedDict):
    batches: List[Batch]
    """Newest first, a page (docs/api.md#lists)"""
    has_more: bool
    """Whether older items follow this page"""
    next_starting_after: Optional[str]
    """While `has_more`: the last item's id, to send as `starting_after` for the next page; else null"""


class RunError(TypedDict):
    key: str
    error: str


class ConnectorRun(TypedDict):
    run_id: str
    status: RunStatus
    reason: Optional[str]
    """Why a run failed or paused"""
    message: Optional[str]
    """The platform's own words, for the operator"""
    triggered_by: str
    started_at: str
    finished_at: Optional[str]
    records_read: int
    """Distinct records read"""
    records_validated: int
    records_written: int
    records_skipped: int
    """Records whose checked fields did not change: free"""
    records_failed: int
    credits_charged: int
    errors: List[RunError]
    """Per record, the platform's reason"""


class ConnectorStream(TypedDict):
    status: StreamStatus
    """`listening`: an instance is subscribed to the change events; `dropped`: the stream broke (a catch-up run reads what was missed, and the stream is taken again from the kept position); `starting`: no instance has subscribed yet; `stopped`: the connector is not active"""
    detail: Optional[str]
    """While `dropped`, the platform's reason"""


class Connector(TypedDict):
    connector_id: str
    type: str
    """The platform: one of the create body variants"""
    name: str
    status: ConnectorStatus
    reason: Optional[str]
    reason_detail: Optional[str]
    schedule: str
    """A cron expression"""
    settings: Dict[str, Any]
    """The platform's settings, defaults filled in"""
    write_back: Dict[str, Any]
    policy: Optional[str]
    """The policy every answer's `next_action` follows, and so the next action each plugin writes beside the statuses: a preset or one of the account's (docs/api.md#policies); null: the fixed table"""
    watermark: Dict[str, Any]
    """Where reading stopped, per stream; opaque"""
    credit_cap_monthly: Optional[int]
    """What the connector's records may take each calendar month (UTC); null: no cap"""
    credits_this_month: int
    """What the connector's records took this calendar month (UTC)"""
    last_run: Optional[ConnectorRun]
    created_at: str
    updated_at: str
    realtime: Optional[ConnectorStream]
    """The change stream of a connector with `settings.realtime` (a platform's change stream, such as Change Data Capture); null without real time"""


class ConnectorList(TypedDict):
    connectors: List[Connector]


class ConnectorRunList(TypedDict):
    runs: List[ConnectorRun]
    """Newest first, a page (docs/api.md#lists)"""
    has_more: bool
    """Whether older items follow this page"""
    next_starting_after: Optional[str]
    """While `has_more`: the last item's id, to send as `starting_after` for the next page; else null"""


class NewRun(TypedDict):
    run_id: str


class WebhookEndpoint(TypedDict):
    id: str
    url: str
    events: List[str]
    created_at: str


class CreatedWebhookEndpoint(TypedDict):
    id: str
    url: str
    events: List[str]
    created_at: str
    secret: str
    """The signing secret, shown this once: `Contact-Validator-Signature` is the HMAC-SHA256 of `<t>.<raw body>` under it"""


class WebhookEndpointList(TypedDict):
    webhook_endpoints: List[WebhookEndpoint]
    """Newest first"""


class WebhookDelivery(TypedDict):
    id: str
    event_id: str
    """The `id` of the body sent: the same for every attempt, and every endpoint"""
    type: str
    status: str
    """`pending`: not yet delivered, tried again at `next_attempt_at`; `failed`: given up after the retry window"""
    attempts: int
    response_status: Optional[int]
    """The endpoint's last HTTP status; null when it gave none (refused, unreachable, timed out)"""
    response_text: Optional[str]
    """At most 200 characters of the last answer, or why there was none"""
    created_at: str
    last_attempt_at: Optional[str]
    next_attempt_at: Optional[str]


class WebhookDeliveryList(TypedDict):
    deliveries: List[WebhookDelivery]
    """Newest first, a page (docs/api.md#lists)"""
    has_more: bool
    """Whether older items follow this page"""
    next_starting_after: Optional[str]
    """While `has_more`: the last item's id, to send as `starting_after` for the next page; else null"""


class FieldError(TypedDict):
    field: str
    """Dotted path of the field, or `(body)`"""
    message: str


class ValidateBatchRequest(TypedDict):
    contacts: List[Dict[str, Any]]
    """1 to 100 contacts, each a /v1/validate body with its `input_id`; more is 422 `too-many-contacts`"""


class ValidateBatchAnswer(TypedDict):
    results: List[Dict[str, Any]]
    """One per contact, in the order sent"""
    failed: int
    """How many results carry a `problem` instead of an answer"""
    credits: Credits
    """`charged`: the whole call; `remaining`: the balance after it"""
    request_id: str
    response_ms: int


class UsageDays(TypedDict):
    days: List[Dict[str, Any]]


class PolicyList(TypedDict):
    presets: List[Dict[str, Any]]
    """The named presets, the same on every service (`default` is the fixed table)"""
    policies: List[Policy]
    """The account's own, by name"""


class NewPolicyRequest(TypedDict):
    """A name, the preset to start from, and any rules to change in it; rules left out are the preset's."""

    address: NotRequired[Dict[str, Any]]
    email: NotRequired[Dict[str, Any]]
    phone: NotRequired[Dict[str, Any]]
    name: str
    """Unique in the account; not a preset's name"""
    base: NotRequired[str]
    """The preset whose rules the ones given change (default `default`)"""


class Policy(TypedDict):
    address: Dict[str, Any]
    email: Dict[str, Any]
    phone: Dict[str, Any]
    policy_id: str
    name: str
    base: str
    """The preset it was made from"""
    created_at: str
    updated_at: str


class PolicyChanges(TypedDict):
    """Rules to change; those left out keep their action."""

    address: NotRequired[Dict[str, Any]]
    email: NotRequired[Dict[str, Any]]
    phone: NotRequired[Dict[str, Any]]


class ConnectorCheck(TypedDict):
    ok: bool
    """No problem keeps the connector from running (warnings may remain)"""
    problems: List[Dict[str, Any]]


class ShopifyInstallRequest(TypedDict):
    shop: str
    name: NotRequired[str]
    schedule: NotRequired[str]
    settings: NotRequired[Dict[str, Any]]


class ShopifyInstallLink(TypedDict):
    install_url: str
    """Open it in the browser of the store's owner: it is valid an hour"""
    expires_at: str


class FeedbackReport(TypedDict):
    email: str
    """The address the mail went to"""
    outcome: str
    """`bounced`: a hard bounce (5xx: no such mailbox); `delivered`; `complained`: delivered, and marked as spam"""


class FeedbackRecorded(TypedDict):
    email: str
    """The address, normalized as the answers normalize it"""
    outcome: str
    domain: str
    """Its domain, in lower-case A-labels"""
    domain_outcomes: Dict[str, Any]
    """The account's outcomes at the domain, one per address (its latest)"""
    catch_all_score: Dict[str, Any]
    """What the domain's catch-all answers now carry (docs/email.md#feedback)"""
