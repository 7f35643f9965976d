"""Typed answers of the API (docs/api.md#vocabularies, docs/batches.md, docs/connectors.md) and its closed vocabularies.

Answers are plain ``dict`` objects at run time, described by ``TypedDict`` classes: ``answer["email"]["status"]``
works with no conversion cost, and a type checker knows every key. The classes and vocabularies are generated from
the service's OpenAPI description into ``_models.py`` (``npm run clients:generate``); here are only what the
description does not carry.
"""

from __future__ import annotations

from typing import Any, Dict, List, Union

from ._models import *  # noqa: F401,F403 - the generated models are this module's public names
from ._models import __all__ as _generated

__all__ = [*_generated, "BATCH_FINAL_STATUSES", "JSON"]

BATCH_FINAL_STATUSES: frozenset[str] = frozenset({"completed", "failed", "canceled"})
"""The statuses a batch does not leave: waiting ends there."""

JSON = Union[Dict[str, Any], List[Any], str, int, float, bool, None]
