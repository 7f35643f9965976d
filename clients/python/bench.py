"""The client's overhead per call over a raw urllib request, at 32 concurrent calls (threads), in one run (issue #30).

    cd clients/python && python bench.py [--threads 32] [--calls 20] [--rounds 5]

Starts the real service (clients/testing/start-service.ts, from the repository root; the direct URL, not the fault
proxy) and sends the same POST /v1/validate (one phone) four ways, round-robin in rounds so that drift in the
machine hits each alike:

  raw urllib            urllib.request.urlopen + json.loads: a new connection per call, no Idempotency-Key
  raw urllib + key      the same with an Idempotency-Key, as the client sends it (the service then stores the answer)
  raw http.client k-a   http.client, one kept-alive connection per thread, with an Idempotency-Key
  client.validate       this library (kept-alive connection per thread, Idempotency-Key, retries armed)

Per call: wall-clock latency as the caller sees it, and the calling thread's CPU time (the client's own cost, free of
the service's). Overhead = (client - raw urllib) / raw urllib, on the mean latency.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Callable, Dict, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "src"))

from contact_validator import ContactValidator  # noqa: E402

BODY = {"phone": "+14155550123"}


def raw_urllib(url: str, key: str, with_key: bool) -> Callable[[], None]:
    data = json.dumps(BODY).encode()

    def call() -> None:
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        if with_key:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        request = urllib.request.Request(f"{url}/v1/validate", data=data, headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            json.loads(response.read())

    return call


def raw_keep_alive(url: str, key: str) -> Callable[[], Callable[[], None]]:
    host, port = url.split("//")[1].split(":")
    data = json.dumps(BODY).encode()

    def per_thread() -> Callable[[], None]:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)

        def call() -> None:
            conn.request("POST", "/v1/validate", body=data, headers={
                "Authorization": f"Bearer {key}", "Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4()),
            })
            json.loads(conn.getresponse().read())

        return call

    return per_thread


def run(make_call: Callable[[], Callable[[], None]], threads: int, calls: int) -> Tuple[List[float], List[float], float]:
    latencies: List[float] = []
    cpu: List[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(threads + 1)

    def worker() -> None:
        call = make_call()
        call()  # warm: a first connection, imports
        mine, mine_cpu = [], []
        barrier.wait()
        for _ in range(calls):
            t0, c0 = time.perf_counter(), time.thread_time()
            call()
            mine_cpu.append(time.thread_time() - c0)
            mine.append(time.perf_counter() - t0)
        with lock:
            latencies.extend(mine)
            cpu.extend(mine_cpu)

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for w in workers:
        w.start()
    barrier.wait()
    started = time.perf_counter()
    for w in workers:
        w.join()
    return latencies, cpu, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=32)
    parser.add_argument("--calls", type=int, default=20, help="calls per thread per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    service = subprocess.Popen(
        ["node", "--import", "tsx", "clients/testing/start-service.ts"], cwd=HERE.parents[1],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert service.stdin is not None and service.stdout is not None
    info = json.loads(service.stdout.readline())
    url, key = info["direct_url"], info["api_key"]
    try:
        client = ContactValidator(key, base_url=url)
        variants: Dict[str, Callable[[], Callable[[], None]]] = {
            "raw urllib": lambda: raw_urllib(url, key, with_key=False),
            "raw urllib + key": lambda: raw_urllib(url, key, with_key=True),
            "raw http.client k-a": raw_keep_alive(url, key),
            "client.validate": lambda: (lambda: client.validate(phone=BODY["phone"]) and None),
        }
        results: Dict[str, Dict[str, List[float]]] = {name: {"lat": [], "cpu": [], "wall": []} for name in variants}
        names = list(variants)
        for round_ in range(args.rounds):
            for name in names[round_ % len(names):] + names[:round_ % len(names)]:  # each variant leads a round in turn
                make = variants[name]
                lat, cpu, wall = run(make, args.threads, args.calls)
                results[name]["lat"] += lat
                results[name]["cpu"] += cpu
                results[name]["wall"].append(wall)
    finally:
        service.stdin.close()
        service.wait(timeout=15)

    n = args.threads * args.calls * args.rounds
    base = statistics.mean(results["raw urllib"]["lat"])
    base_p50 = statistics.median(results["raw urllib"]["lat"])
    print(f"POST /v1/validate (one phone), {args.threads} threads, {n} calls per variant, {args.rounds} interleaved rounds, "
          f"Python {sys.version.split()[0]}")
    print()
    print("| variant | mean ms | p50 ms | p95 ms | calls/s | caller CPU µs/call | mean vs raw urllib | p50 vs raw urllib |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in results.items():
        lat = sorted(r["lat"])
        mean, p50 = statistics.mean(lat), statistics.median(lat)
        rate = n / sum(r["wall"])
        print(f"| {name} | {mean * 1000:.2f} | {p50 * 1000:.2f} | {lat[int(len(lat) * 0.95)] * 1000:.2f} "
              f"| {rate:.0f} | {statistics.mean(r['cpu']) * 1e6:.0f} | {(mean - base) / base * 100:+.1f}% "
              f"| {(p50 - base_p50) / base_p50 * 100:+.1f}% |")
    own = statistics.mean(results["client.validate"]["cpu"]) - statistics.mean(results["raw http.client k-a"]["cpu"])
    mean_client = statistics.mean(results["client.validate"]["lat"])
    print()
    print(f"The client's own work over the same request on the same kept-alive transport: {own * 1e6:+.0f} µs of CPU per "
          f"call, {own / mean_client * 100:.2f}% of a call's mean latency here.")


if __name__ == "__main__":
    main()
