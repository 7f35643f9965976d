# Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
"""The client's base: its own methods and one attribute per resource (``client.batches``)."""

from __future__ import annotations

from ._http import Transport
from ._resources import Connectors, EmailChecks, Feedback, Keys, Policies, WebhookEndpoints, _RootOperations
from .resources import Batches


class _ContactValidatorBase(_RootOperations):
    def __init__(self, transport: Transport) -> None:
        self._transport = transport
        self.keys = Keys(transport)
        self.batches = Batches(transport)
        self.policies = Policies(transport)
        self.connectors = Connectors(transport)
        self.webhook_endpoints = WebhookEndpoints(transport)
        self.email_checks = EmailChecks(transport)
        self.feedback = Feedback(transport)
