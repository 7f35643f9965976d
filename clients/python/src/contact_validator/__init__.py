"""Python client of the contact-validator API: postal address, e-mail and phone validation, CSV batches, connectors.

    from contact_validator import ContactValidator
    client = ContactValidator("cv_live_…", base_url="http://localhost:8080")
    answer = client.validate(address="1600 Amphitheatre Pkwy, Mountain View, CA 94043", email="someone@example.com")
"""

__version__ = "0.1.0"

from ._client import ContactValidator  # noqa: E402
from .errors import (  # noqa: E402
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BatchWaitTimeout,
    ConflictError,
    ContactValidatorError,
    GoneError,
    InsufficientCreditsError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    PermissionError,
    RateLimitError,
    ServiceUnavailableError,
)
from .resources import BatchResult  # noqa: E402
from .webhooks import SIGNATURE_HEADER, WebhookSignatureError, verify_webhook  # noqa: E402
from . import types  # noqa: E402

__all__ = [
    "ContactValidator", "BatchResult", "types", "__version__",
    "ContactValidatorError", "APIConnectionError", "APITimeoutError", "AuthenticationError", "InsufficientCreditsError",
    "PermissionError", "PermissionDeniedError", "NotFoundError", "GoneError", "ConflictError", "InvalidRequestError",
    "RateLimitError", "APIError", "ServiceUnavailableError", "BatchWaitTimeout",
    "verify_webhook", "WebhookSignatureError", "SIGNATURE_HEADER",
]
