"""Typed answers of the API (docs/api.md#vocabularies, docs/batches.md, docs/connectors.md) and its closed vocabularies.

Answers are plain ``dict`` objects at run time, described by ``TypedDict`` classes: ``answer["email"]["status"]``
works with no conversion cost, and a type checker knows every key. The vocabularies are ``Literal`` types plus
tuples of their values, so that code can both annotate with them and iterate them. The service may add fields and
(documented) vocabulary values: a client reading an unknown one gets it unchanged.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Union

from typing import TYPE_CHECKING, Literal, TypedDict

if sys.version_info >= (3, 11):
    from typing import NotRequired
elif TYPE_CHECKING:  # pragma: no cover - only type checkers read it on 3.9/3.10 (annotations are strings here)
    from typing_extensions import NotRequired

__all__ = [
    "AddressStatus", "ADDRESS_STATUSES", "Dpv", "DPV_CODES",
    "EmailStatus", "EMAIL_STATUSES", "EmailRisk", "EMAIL_RISKS", "EmailSmtp", "EMAIL_SMTP_RESULTS",
    "PhoneStatus", "PHONE_STATUSES", "PhoneType", "PHONE_TYPES", "CarrierSource", "CARRIER_SOURCES",
    "BatchStatus", "BATCH_STATUSES", "BATCH_FINAL_STATUSES", "ConnectorStatus", "RunStatus",
    "AddressComponents", "AddressResult", "EmailResult", "PhoneResult", "Credits", "Validation",
    "Grant", "ApiKey", "NewApiKey", "RevokedKey", "Account",
    "BatchColumns", "Batch", "NewBatch", "Connector", "ConnectorRun", "NewRun", "ValidateOptions",
]

# ---- vocabularies (docs/api.md#vocabularies: closed sets; the service extends them only by adding documented values) ----

AddressStatus = Literal["verified", "corrected", "partial", "plausible", "ambiguous", "invalid"]
ADDRESS_STATUSES: tuple[AddressStatus, ...] = ("verified", "corrected", "partial", "plausible", "ambiguous", "invalid")

Dpv = Literal["Y", "N", "S", "D", ""]
"""USPS Delivery Point Validation code; ``""`` when no reference data covers the address."""
DPV_CODES: tuple[Dpv, ...] = ("Y", "N", "S", "D", "")

EmailStatus = Literal["valid", "invalid", "risky", "unknown"]
EMAIL_STATUSES: tuple[EmailStatus, ...] = ("valid", "invalid", "risky", "unknown")

EmailRisk = Literal["low", "medium", "high"]
EMAIL_RISKS: tuple[EmailRisk, ...] = ("low", "medium", "high")

EmailSmtp = Literal["deliverable", "undeliverable", "catch_all", "mailbox_full", "disabled", "unknown", "pending", "skipped"]
EMAIL_SMTP_RESULTS: tuple[EmailSmtp, ...] = (
    "deliverable", "undeliverable", "catch_all", "mailbox_full", "disabled", "unknown", "pending", "skipped",
)

PhoneStatus = Literal["valid", "invalid", "unknown"]
PHONE_STATUSES: tuple[PhoneStatus, ...] = ("valid", "invalid", "unknown")

PhoneType = Literal[
    "mobile", "landline", "fixed_or_mobile", "voip", "toll_free", "premium_rate", "shared_cost", "personal", "pager",
    "uan", "voicemail", "unknown",
]
PHONE_TYPES: tuple[PhoneType, ...] = (
    "mobile", "landline", "fixed_or_mobile", "voip", "toll_free", "premium_rate", "shared_cost", "personal", "pager",
    "uan", "voicemail", "unknown",
)

CarrierSource = Literal["live", "allocation", "none"]
CARRIER_SOURCES: tuple[CarrierSource, ...] = ("live", "allocation", "none")

BatchStatus = Literal["queued", "running", "paused", "completed", "failed", "canceled"]
BATCH_STATUSES: tuple[BatchStatus, ...] = ("queued", "running", "paused", "completed", "failed", "canceled")
BATCH_FINAL_STATUSES: frozenset[str] = frozenset({"completed", "failed", "canceled"})

ConnectorStatus = Literal["active", "paused", "error"]
RunStatus = Literal["running", "completed", "failed", "paused"]

# ---- POST /v1/validate ----


class ValidateOptions(TypedDict, total=False):
    smtp: bool
    """``False`` skips the mailbox probe."""


class AddressComponents(TypedDict, total=False):
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


class AddressResult(TypedDict):
    status: AddressStatus
    standardized: Optional[str]
    dpv: Dpv
    zip4: Optional[str]
    country: Optional[str]
    components: AddressComponents
    footnotes: List[str]


class EmailResult(TypedDict):
    status: EmailStatus
    risk: EmailRisk
    smtp: EmailSmtp
    reason: Optional[str]
    normalized: Optional[str]
    suggestion: Optional[str]
    disposable: bool
    role: bool
    free: bool


class PhoneResult(TypedDict):
    status: PhoneStatus
    type: PhoneType
    carrier: Optional[str]
    carrier_source: CarrierSource
    e164: Optional[str]
    country: Optional[str]
    national: NotRequired[Optional[str]]
    reason: NotRequired[Optional[str]]


class Credits(TypedDict):
    charged: int
    remaining: int


class Validation(TypedDict):
    """The answer of ``client.validate``: a module not asked for is ``None``."""

    address: Optional[AddressResult]
    email: Optional[EmailResult]
    phone: Optional[PhoneResult]
    credits: Optional[Credits]
    """``None`` for a publishable key."""
    request_id: str
    response_ms: int


# ---- account and keys ----


class Grant(TypedDict):
    id: str
    kind: str
    credits: int
    remaining: int
    price_usd: Optional[float]
    created_at: str
    expires_at: Optional[str]
    expired: bool


class ApiKey(TypedDict):
    key_id: str
    prefix: str
    created_at: str
    revoked_at: Optional[str]


class NewApiKey(TypedDict):
    key_id: str
    api_key: str
    """Shown once: keep it."""


class RevokedKey(TypedDict):
    key_id: str
    revoked_at: str


class Account(TypedDict):
    account_id: str
    name: str
    created_at: str
    balance: int
    grants: List[Grant]
    usage: Dict[str, Any]
    keys: List[ApiKey]


# ---- batches (docs/batches.md) ----


class BatchColumns(TypedDict):
    address: List[str]
    email: Optional[str]
    phone: Optional[str]
    country: Optional[str]


class Batch(TypedDict):
    batch_id: str
    name: Optional[str]
    status: BatchStatus
    reason: Optional[str]
    rows_total: int
    rows_done: int
    rows_failed: int
    credits_charged: int
    created_at: str
    started_at: Optional[str]
    finished_at: Optional[str]
    expires_at: NotRequired[Optional[str]]
    eta_seconds: Optional[int]


class NewBatch(Batch):
    """The answer of ``client.batches.create``: a batch, with the columns it found and the file's delimiter."""

    columns: BatchColumns
    delimiter: NotRequired[str]


# ---- connectors (docs/connectors.md) ----


class ConnectorRun(TypedDict):
    run_id: str
    status: RunStatus
    reason: Optional[str]
    message: NotRequired[Optional[str]]
    triggered_by: NotRequired[str]
    started_at: Optional[str]
    finished_at: Optional[str]
    records_read: int
    records_validated: int
    records_written: int
    records_skipped: int
    records_failed: int
    credits_charged: int
    errors: NotRequired[Any]


class NewRun(TypedDict):
    run_id: str


class Connector(TypedDict):
    connector_id: str
    type: str
    name: str
    status: ConnectorStatus
    reason: Optional[str]
    reason_detail: NotRequired[Optional[str]]
    schedule: str
    settings: Dict[str, Any]
    write_back: Dict[str, Any]
    watermark: Any
    last_run: Optional[ConnectorRun]
    created_at: NotRequired[str]
    updated_at: NotRequired[str]


JSON = Union[Dict[str, Any], List[Any], str, int, float, bool, None]
