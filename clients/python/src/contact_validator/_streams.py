"""The bodies that are not JSON, and the helpers the generated methods (``_resources.py``) share: an upload's file made
into a request body (a path opened afresh for each attempt, a file object streamed), a text answer (a batch's result
CSV) read as rows or written to a file, and the building of JSON bodies and paths."""

from __future__ import annotations

import csv
import io
import itertools
import os
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union
from urllib.parse import quote

from ._http import Response, StreamedBody
from .errors import APIConnectionError

FileInput = Union[str, "os.PathLike[str]", bytes, bytearray, IO[bytes], IO[str]]
"""A CSV file for ``batches.create``: a path, a binary or text file object, the bytes, or the text itself."""


class _NotGiven:
    """A keyword argument left out (``None`` is a value: it sends ``null`` where a member may be null)."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()


def _members(members: Dict[str, Any], nullable: Tuple[str, ...] = ()) -> Dict[str, Any]:
    """A JSON body of the members given; ``None`` leaves a member out unless it may be null."""
    return {k: v for k, v in members.items() if v is not NOT_GIVEN and (v is not None or k in nullable)}


def _joined(values: Union[None, str, Sequence[str]]) -> Optional[str]:
    """A query parameter of several values, comma-separated."""
    return values if values is None or isinstance(values, str) else ",".join(values)


def _segment(value: str) -> str:
    """One path segment, percent-encoded: an id never changes the path it is put in."""
    if not value:
        raise ValueError("an id is needed")
    return quote(str(value), safe="")


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


def upload_body(file: FileInput) -> Union[bytes, IO[bytes], Callable[[], IO[bytes]]]:
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


def download(response: Response, file: Union[None, str, "os.PathLike[str]", IO[bytes]]) -> Union[BatchResult, int]:
    """A streamed text answer: as rows (``BatchResult``), or written to ``file`` (a path or a binary file object), the
    number of bytes answered."""
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
