"""The real service for the tests: clients/testing/start-service.ts, started once per session from the repository root.

It prints {"url", "direct_url", "api_key", "account_id", "control_url"} and stops when its stdin closes. `url` is a
fault proxy (503/429 answers, connections dropped before or after forwarding) told what to do through `control_url`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # no install step: the package is imported from src/

from contact_validator import ContactValidator  # noqa: E402

REPO_ROOT = HERE.parents[2]


class Service:
    def __init__(self, info: Dict[str, str]) -> None:
        self.url = info["url"]
        self.direct_url = info["direct_url"]
        self.api_key = info["api_key"]
        self.account_id = info["account_id"]
        self.control_url = info["control_url"]

    def fault(self, fault: str, count: int = 1) -> None:
        """The proxy answers the next `count` requests with `fault` (503, 429, drop_before, drop_after)."""
        request = urllib.request.Request(
            self.control_url, data=json.dumps({"fault": fault, "count": count}).encode(),
            headers={"Content-Type": "application/json"}, method="POST",
        )
        urllib.request.urlopen(request, timeout=5).read()

    def counts(self) -> Dict[str, int]:
        """{"forwarded", "faulted", "pending"}: what the proxy did so far."""
        return json.loads(urllib.request.urlopen(self.control_url, timeout=5).read())

    def client(self, **kwargs: Any) -> ContactValidator:
        kwargs.setdefault("base_url", self.url)
        kwargs.setdefault("timeout", 15.0)
        return ContactValidator(kwargs.pop("api_key", self.api_key), **kwargs)


@pytest.fixture(scope="session")
def service() -> Iterator[Service]:
    process = subprocess.Popen(
        ["node", "--import", "tsx", "clients/testing/start-service.ts"],
        cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None and process.stdin is not None
    line = process.stdout.readline()
    if not line:
        process.wait(timeout=10)
        raise RuntimeError(f"start-service.ts did not start: {process.stderr.read() if process.stderr else ''}")
    try:
        yield Service(json.loads(line))
    finally:
        process.stdin.close()  # the service stops, deleting its files, when its stdin closes
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture()
def client(service: Service) -> Iterator[ContactValidator]:
    c = service.client()
    yield c
    c.close()


# ---- a tiny local HTTP server for what the real service will not do on demand (402, slowness) ----

Script = Callable[[BaseHTTPRequestHandler], None]


class LocalServer:
    def __init__(self, script: Script) -> None:
        self.requests: List[Dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _any(self) -> None:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        body += self.rfile.read(size + 2)[:size]  # the chunk and its CRLF; the last one is "0\r\n\r\n"
                        if size == 0:
                            break
                else:
                    length = int(self.headers.get("Content-Length") or 0)
                    body = self.rfile.read(length) if length else b""
                outer.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body})
                script(self)

            do_GET = do_POST = do_DELETE = do_PATCH = _any

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def answer(handler: BaseHTTPRequestHandler, status: int, body: Dict[str, Any], headers: Dict[str, str] = {}) -> None:
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/problem+json" if status >= 400 else "application/json")
    handler.send_header("Content-Length", str(len(data)))
    for k, v in headers.items():
        handler.send_header(k, v)
    handler.end_headers()
    handler.wfile.write(data)


@pytest.fixture()
def local_server() -> Iterator[Callable[[Script], LocalServer]]:
    servers: List[LocalServer] = []

    def start(script: Script) -> LocalServer:
        s = LocalServer(script)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()
