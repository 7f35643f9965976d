"""The resource namespaces (``client.keys``, ``client.batches``, ``client.connectors``, …). Their methods are generated
from the OpenAPI description (``_resources.py``); here is only what is not an operation: waiting for a batch."""

from __future__ import annotations

import time
from typing import Callable, Optional

from ._resources import *  # noqa: F401,F403 - the generated resources keep their names here
from ._resources import _BatchesOperations
from ._streams import BatchResult, FileInput  # noqa: F401 - importable from here, as before
from .errors import BatchWaitTimeout
from .types import BATCH_FINAL_STATUSES, Batch


class Batches(_BatchesOperations):
    """``client.batches``: CSV files validated in the background (docs/batches.md)."""

    def wait(
        self,
        batch_id: str,
        *,
        on_progress: Optional[Callable[[Batch], None]] = None,
        poll_interval: float = 1.0,
        timeout: Optional[float] = None,
    ) -> Batch:
        """Polls the batch until it is ``completed``, ``failed``, ``canceled`` or ``paused`` and returns it.

        A ``paused`` batch (``reason`` ``credits_exhausted``) needs credits, so waiting longer would not help: it is
        returned for you to decide. ``on_progress(batch)`` is called after each poll. ``timeout`` (seconds, default
        none) raises ``BatchWaitTimeout`` carrying the last status.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            batch = self.get(batch_id)
            if on_progress is not None:
                on_progress(batch)
            if batch["status"] in BATCH_FINAL_STATUSES or batch["status"] == "paused":
                return batch
            pause = poll_interval
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BatchWaitTimeout(
                        f"batch {batch_id} is still {batch['status']} ({batch['rows_done']}/{batch['rows_total']} rows)",
                        batch,
                    )
                pause = min(pause, left)
            time.sleep(pause)
