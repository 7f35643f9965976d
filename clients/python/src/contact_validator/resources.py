"""The resource namespaces: ``client.keys``, ``client.batches``, ``client.connectors``."""

from __future__ import annotations

import csv
import io
import itertools
import os
import time
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Union, overload
from urllib.parse import quote

from ._http import Response, StreamedBody, Transport
from .errors import APIConnectionError, BatchWaitTimeout
from .types import (
    BATCH_FINAL_STATUSES, ApiKey, Batch, Connector, ConnectorRun, NewApiKey, NewBatch, NewRun, RevokedKey,
)

FileInput = Union[str, "os.PathLike[str]", bytes, bytearray, IO[bytes], IO[str]]
"""A CSV file for ``batches.create``: a path, a binary or text file object, the bytes, or the text itself."""


def _id(value: str) -> str:
    if not value:
        raise ValueError("an id is needed")
    return quote(str(value), safe="")


class Keys:
    """``client.keys``: the account's API keys."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self) -> List[ApiKey]:
        """``GET /v1/keys``."""
        return self._t.request("GET", "/v1/keys").json()["keys"]  # type: ignore[no-any-return]

    def create(
        self, *, publishable: bool = False, origins: Optional[Sequence[str]] = None, phone: Optional[bool] = None,
        test: bool = False,
    ) -> NewApiKey:
        """``POST /v1/keys``: a secret key, or with ``publishable=True`` and ``origins`` a key for web pages, or with
        ``test=True`` a test key (``cv_test_…``: validates with network checks off, never charged)."""
        body: Dict[str, Any] = {}
        if test:
            body["test"] = True
        if publishable:
            body["publishable"] = True
            body["origins"] = list(origins or [])
            if phone is not None:
                body["phone"] = phone
        return self._t.request("POST", "/v1/keys", json_body=body).json()  # type: ignore[no-any-return]

    def revoke(self, key_id: str) -> RevokedKey:
        """``DELETE /v1/keys/{key_id}``: the key stops working at once."""
        return self._t.request("DELETE", f"/v1/keys/{_id(key_id)}").json()  # type: ignore[no-any-return]


class BatchResult:
    """The rows of a batch's result CSV as dicts (input columns, then ``cv_…``), read as they arrive.

    Iterate it once; use it as a context manager (or call ``close``) if you may stop early. ``fieldnames`` and
    ``delimiter`` are known once the first row is read (or after ``start()``). Cells the service made formula-safe
    keep their leading ``'`` (docs/batches.md).
    """

    def __init__(self, body: StreamedBody) -> None:
        self._body = body
        self._rows: Optional[Iterator[List[str]]] = None
        self.fieldnames: List[str] = []
        self.delimiter = ","

    def start(self) -> "BatchResult":
        if self._rows is None:
            text = io.TextIOWrapper(self._body.raw(), encoding="utf-8-sig", newline="")
            try:
                header = text.readline()
            except OSError as exc:
                self.close()
                raise APIConnectionError(f"The download was interrupted: {exc!r}") from exc
            at = header.find("cv_address_status")
            # The result keeps the input's delimiter; the character before the first cv_ column is it.
            self.delimiter = header[at - 1] if at > 0 else ","
            self._rows = csv.reader(itertools.chain([header], text), delimiter=self.delimiter)
            self.fieldnames = next(self._rows, [])
        return self

    def __iter__(self) -> Iterator[Dict[str, str]]:
        self.start()
        assert self._rows is not None
        try:
            for row in self._rows:
                yield dict(zip(self.fieldnames, row))
        except (OSError, csv.Error) as exc:
            raise APIConnectionError(f"The download was interrupted: {exc!r}") from exc
        finally:
            self.close()

    def close(self) -> None:
        self._body.close()

    def __enter__(self) -> "BatchResult":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Utf8Reader(io.RawIOBase):
    """A text stream read as UTF-8 bytes, so that text files upload streamed like binary ones."""

    def __init__(self, text: IO[str]) -> None:
        self._text = text
        self._pending = b""

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            data = self._pending + self._text.read().encode("utf-8")
            self._pending = b""
            return data
        while len(self._pending) < size:
            chunk = self._text.read(size)
            if not chunk:
                break
            self._pending += chunk.encode("utf-8")
        data, self._pending = self._pending[:size], self._pending[size:]
        return data


def _upload_body(file: FileInput) -> Union[bytes, IO[bytes], Callable[[], IO[bytes]]]:
    """What the transport sends: bytes as they are; a path opened afresh for each attempt; files streamed."""
    if isinstance(file, (bytes, bytearray)):
        return bytes(file)
    if isinstance(file, str) and ("\n" in file or "\r" in file):
        return file.encode("utf-8")  # the CSV text itself: a path has no line break, a CSV file always has one
    if isinstance(file, (str, os.PathLike)):
        path = os.fspath(file)
        if not os.path.isfile(path):
            raise FileNotFoundError(path)
        return lambda: open(path, "rb")
    if isinstance(file, io.TextIOBase) or (hasattr(file, "read") and isinstance(file.read(0), str)):
        text: IO[str] = file  # type: ignore[assignment]
        if text.seekable():
            start = text.tell()

            def reopen() -> IO[bytes]:
                text.seek(start)
                return _Utf8Reader(text)  # type: ignore[return-value]

            return reopen
        return _Utf8Reader(text)  # type: ignore[return-value]
    if hasattr(file, "read"):
        return file  # type: ignore[return-value]
    raise TypeError(f"batches.create takes a path, a file object, bytes or str, not {type(file).__name__}")


class Batches:
    """``client.batches``: CSV files validated in the background (docs/batches.md)."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(
        self,
        file: FileInput,
        *,
        name: Optional[str] = None,
        smtp: Optional[bool] = None,
        address_columns: Union[None, str, Sequence[str]] = None,
        email_column: Optional[str] = None,
        phone_column: Optional[str] = None,
        country_column: Optional[str] = None,
        content_type: str = "text/csv",
        timeout: Optional[float] = None,
    ) -> NewBatch:
        """``POST /v1/batches``: uploads the file (streamed, never read whole into memory) and answers the queued batch.

        ``file``: a path (``str`` without a line break, or ``pathlib.Path``), a binary or text file object, ``bytes``,
        or the CSV text itself (a ``str`` with a line break). Naming a column turns the service's detection off.
        ``timeout`` overrides the client's for this upload (a large file may need longer). A path, bytes or a
        seekable file can be sent again after a 429/503; a one-way stream is sent once.
        """
        query = {
            "name": name, "smtp": smtp, "email_column": email_column, "phone_column": phone_column,
            "country_column": country_column,
            "address_columns": address_columns if isinstance(address_columns, (str, type(None))) else ",".join(address_columns),
        }
        response = self._t.request(
            "POST", "/v1/batches", query=query, body=_upload_body(file), content_type=content_type, timeout=timeout,
        )
        return response.json()  # type: ignore[no-any-return]

    def get(self, batch_id: str) -> Batch:
        """``GET /v1/batches/{id}``: status and progress."""
        return self._t.request("GET", f"/v1/batches/{_id(batch_id)}").json()  # type: ignore[no-any-return]

    def list(self) -> List[Batch]:
        """``GET /v1/batches``: the account's batches, newest first."""
        return self._t.request("GET", "/v1/batches").json()["batches"]  # type: ignore[no-any-return]

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

    @overload
    def result(self, batch_id: str, *, partial: bool = ..., file: None = ..., timeout: Optional[float] = ...) -> BatchResult: ...

    @overload
    def result(
        self, batch_id: str, *, partial: bool = ..., file: Union[str, "os.PathLike[str]", IO[bytes]], timeout: Optional[float] = ...,
    ) -> int: ...

    def result(
        self,
        batch_id: str,
        *,
        partial: bool = False,
        file: Union[None, str, "os.PathLike[str]", IO[bytes]] = None,
        timeout: Optional[float] = None,
    ) -> Union[BatchResult, int]:
        """``GET /v1/batches/{id}/result``, streamed.

        With ``file`` (a path or a binary file object) the CSV is written there as it arrives and the number of bytes
        is returned; without, a ``BatchResult`` iterates the rows as dicts. ``partial=True`` gives the rows done so
        far of a batch not yet completed (otherwise that is a ``ConflictError``). ``timeout`` bounds the wait for the
        answer to start and each pause in it, not the whole download.
        """
        response: Response = self._t.request(
            "GET", f"/v1/batches/{_id(batch_id)}/result", query={"partial": True if partial else None},
            headers={"Accept": "text/csv, application/problem+json"}, stream=True, timeout=timeout,
        )
        assert response.stream is not None
        if file is None:
            return BatchResult(response.stream)
        written = 0
        if isinstance(file, (str, os.PathLike)):
            path = os.fspath(file)
            partial_path = f"{path}.part"
            try:
                with open(partial_path, "wb") as out:
                    for chunk in response.stream.iter_bytes():
                        out.write(chunk)
                        written += len(chunk)
                os.replace(partial_path, path)  # never a half-written file under the name asked for
            finally:
                if os.path.exists(partial_path):
                    os.remove(partial_path)
            return written
        for chunk in response.stream.iter_bytes():
            file.write(chunk)
            written += len(chunk)
        return written

    def cancel(self, batch_id: str) -> Batch:
        """``DELETE /v1/batches/{id}``: cancels the batch and deletes its file and results; it stays listed."""
        return self._t.request("DELETE", f"/v1/batches/{_id(batch_id)}").json()  # type: ignore[no-any-return]

    def resume(self, batch_id: str) -> Batch:
        """``POST /v1/batches/{id}/resume``: goes on with a paused batch now (``ConflictError`` if it is not paused)."""
        return self._t.request("POST", f"/v1/batches/{_id(batch_id)}/resume").json()  # type: ignore[no-any-return]


class Connectors:
    """``client.connectors``: Salesforce and Shopify connectors (docs/connectors.md)."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self) -> List[Connector]:
        """``GET /v1/connectors``."""
        return self._t.request("GET", "/v1/connectors").json()["connectors"]  # type: ignore[no-any-return]

    def get(self, connector_id: str) -> Connector:
        """``GET /v1/connectors/{id}``: status, reason, last run, watermark."""
        return self._t.request("GET", f"/v1/connectors/{_id(connector_id)}").json()  # type: ignore[no-any-return]

    def create(
        self,
        *,
        type: str,
        name: str,
        credentials: Dict[str, Any],
        settings: Optional[Dict[str, Any]] = None,
        schedule: Optional[str] = None,
        write_back: Optional[Dict[str, Any]] = None,
    ) -> Connector:
        """``POST /v1/connectors``. Credentials are write-only: stored encrypted and never returned."""
        body: Dict[str, Any] = {"type": type, "name": name, "credentials": credentials}
        if settings is not None:
            body["settings"] = settings
        if schedule is not None:
            body["schedule"] = schedule
        if write_back is not None:
            body["write_back"] = write_back
        return self._t.request("POST", "/v1/connectors", json_body=body).json()  # type: ignore[no-any-return]

    def update(
        self,
        connector_id: str,
        *,
        name: Optional[str] = None,
        status: Optional[str] = None,
        schedule: Optional[str] = None,
        settings: Optional[Dict[str, Any]] = None,
        credentials: Optional[Dict[str, Any]] = None,
        write_back: Optional[Dict[str, Any]] = None,
    ) -> Connector:
        """``PATCH /v1/connectors/{id}``: only what is given changes; ``status`` ``"paused"`` or ``"active"``."""
        body = {
            k: v for k, v in {
                "name": name, "status": status, "schedule": schedule, "settings": settings,
                "credentials": credentials, "write_back": write_back,
            }.items() if v is not None
        }
        return self._t.request("PATCH", f"/v1/connectors/{_id(connector_id)}", json_body=body).json()  # type: ignore[no-any-return]

    def delete(self, connector_id: str) -> None:
        """``DELETE /v1/connectors/{id}``: the connector, its runs and record hashes."""
        self._t.request("DELETE", f"/v1/connectors/{_id(connector_id)}")

    def run(self, connector_id: str) -> NewRun:
        """``POST /v1/connectors/{id}/runs``: starts a run now (``ConflictError`` while one runs)."""
        return self._t.request("POST", f"/v1/connectors/{_id(connector_id)}/runs").json()  # type: ignore[no-any-return]

    def runs(self, connector_id: str) -> List[ConnectorRun]:
        """``GET /v1/connectors/{id}/runs``: newest first."""
        return self._t.request("GET", f"/v1/connectors/{_id(connector_id)}/runs").json()["runs"]  # type: ignore[no-any-return]
