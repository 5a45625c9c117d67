"""The referee's desk under load, on localhost, against baselines measured in the same run.

    python benchmarks/bench_desk.py [--quick] [--seconds N]

1. Load: 32 keep-alive clients for 30 s (--quick: 5 s), a mix of GET (a law, a code, a page of the log) and
   POST /rule (logged, committed with synchronous=FULL before each answer): requests/s, p50 and p99, against
   a bare ASGI hello-world on the same uvicorn settings, and against the standard library's
   ThreadingHTTPServer answering the same hello-world (the stack the desk used to run on).
2. Burst: 200 new connections at once, each asking for /codes: how many were answered, and none may time out.
3. Slow clients: 100 clients (a process of their own) that dribble their headers a byte at a time while one
   normal client measures its p99 (the median of three windows); the ratio to its p99 with no slow clients
   (target: at most 2x). The desk drops the slow ones at its head deadline.

The desk and the baselines each run as their own process (bridgelaw serve, as a user starts it); the load is
made by one asyncio process with one connection per client. The machine's cores are shared by the load and
the server, so the numbers are for comparing with each other, not with another machine's.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK = "--quick" in sys.argv
SECONDS = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else (5.0 if QUICK else 30.0)
CLIENTS = 32
RULE = json.dumps({"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]})
MIX = [("GET", "/codes/wcny-1913/laws/84", None), ("GET", "/codes/wcny-1913", None), ("GET", "/log?limit=20", None),
       ("POST", "/rule", RULE)]

HELLO_ASGI = """
import sys, uvicorn
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b'{"hello": "world"}'})
uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="error", lifespan="off",
                              access_log=False, server_header=False, http="h11", backlog=2048)).run()
"""
HELLO_STDLIB = """
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def _answer(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        body = b'{"hello": "world"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = _answer
    def log_message(self, *a):
        pass
s = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
s.daemon_threads = True
print("ready", flush=True)
s.serve_forever()
"""


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(cmd: list[str], port: int) -> subprocess.Popen[bytes]:
    import socket

    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p
        except OSError:
            time.sleep(0.1)
    p.kill()
    raise SystemExit(f"{cmd[0]} did not start listening on {port}")


def start_desk(log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env_cmd = [sys.executable, "-m", "bridgelaw.cli", "serve", "--port", str(port), "--log", str(log), "--quiet"]
    return start(env_cmd, port), port


# ------------------------------------------------------------------ a small asyncio HTTP/1.1 client


async def request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, method: str, path: str,
                  body: str | None) -> int:
    data = body.encode() if body else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    length, chunked = 0, False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        k, _, v = line.decode("latin-1").partition(":")
        if k.lower() == "content-length":
            length = int(v)
        elif k.lower() == "transfer-encoding" and "chunked" in v.lower():
            chunked = True
    if chunked:
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    else:
        await reader.readexactly(length)
    return status


async def load(port: int, seconds: float, clients: int, mix: list[tuple[str, str, str | None]]) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    stop = time.monotonic() + seconds

    async def client(i: int) -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        n = i
        try:
            while time.monotonic() < stop:
                method, path, body = mix[n % len(mix)]
                n += 1
                t0 = time.perf_counter()
                try:
                    status = await asyncio.wait_for(request(reader, writer, method, path, body), 30)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
                    errors += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                latencies.append(time.perf_counter() - t0)
                if status != 200:
                    errors += 1
        finally:
            writer.close()

    t0 = time.monotonic()
    await asyncio.gather(*(client(i) for i in range(clients)))
    took = time.monotonic() - t0
    latencies.sort()
    return {"rps": len(latencies) / took, "p50": pct(latencies, 50), "p99": pct(latencies, 99), "errors": errors,
            "n": len(latencies)}


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))]


def show(name: str, r: dict[str, float], base: dict[str, float] | None = None) -> None:
    ratio = f"{r['rps'] / base['rps']:5.2f}x of hello-world" if base else "(baseline)"
    print(f"load   {name:<28} {r['rps']:8.0f} req/s   p50 {r['p50'] * 1e3:7.1f} ms   p99 {r['p99'] * 1e3:7.1f} ms   "
          f"{int(r['errors'])} errors   {ratio}")


# ------------------------------------------------------------------ burst and slow clients


async def burst(port: int, n: int = 200, timeout: float = 10.0) -> dict[str, float]:
    async def one() -> float | None:
        t0 = time.perf_counter()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
            status = await asyncio.wait_for(request(reader, writer, "GET", "/codes", None), timeout)
            writer.close()
            return time.perf_counter() - t0 if status == 200 else None
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            return None

    results = await asyncio.gather(*(one() for _ in range(n)))
    ok = sorted(r for r in results if r is not None)
    return {"answered": len(ok), "failed": n - len(ok), "max": ok[-1] if ok else float("nan"), "p50": pct(ok, 50)}


async def normal_p99(port: int, seconds: float) -> float:
    r = await load(port, seconds, 1, [("GET", "/codes/wcny-1913/laws/84", None)])
    return r["p99"]


SLOW = """
import asyncio, sys, time
port, n, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
dropped = 0
async def slow():
    global dropped
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /codes HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nX-Slow: ")
            while time.monotonic() < stop:
                writer.write(b"a")
                await writer.drain()
                try:
                    await asyncio.wait_for(reader.read(1), 1.0)
                    dropped += 1  # answered (408) or closed: the desk let it go
                    break
                except asyncio.TimeoutError:
                    continue
            writer.close()
        except OSError:
            dropped += 1
            await asyncio.sleep(0.2)
async def main():
    await asyncio.gather(*(slow() for _ in range(n)))
    print(dropped)
asyncio.run(main())
"""


def with_slow_clients(port: int, seconds: float, n: int = 100) -> tuple[float, int]:
    """A normal client's p99 while ``n`` slow clients (in a process of their own) dribble their heads."""
    p = subprocess.Popen([sys.executable, "-c", SLOW, str(port), str(n), str(seconds)], stdout=subprocess.PIPE,
                         text=True)
    time.sleep(1.5)  # let them all connect
    window = max((seconds - 2.5) / 3, 1.0)
    p99 = statistics.median(asyncio.run(normal_p99(port, window)) for _ in range(3))
    out, _ = p.communicate(timeout=seconds + 30)
    return p99, int(out.strip() or 0)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        hello_port = free_port()
        hello = start([sys.executable, "-c", HELLO_ASGI, str(hello_port)], hello_port)
        try:
            base = asyncio.run(load(hello_port, SECONDS, CLIENTS, [(m, "/", b) for m, _, b in MIX]))
        finally:
            hello.terminate()
            hello.wait()
        stdlib_port = free_port()
        std = start([sys.executable, "-c", HELLO_STDLIB, str(stdlib_port)], stdlib_port)
        try:
            stdlib = asyncio.run(load(stdlib_port, SECONDS, CLIENTS, [(m, "/", b) for m, _, b in MIX]))
        finally:
            std.terminate()
            std.wait()
        desk, port = start_desk(Path(tmp) / "rulings.sqlite3")
        try:
            mixed = asyncio.run(load(port, SECONDS, CLIENTS, MIX))
            gets = asyncio.run(load(port, max(SECONDS / 3, 2), CLIENTS, MIX[:2]))
            print(f"{CLIENTS} keep-alive clients for {SECONDS:g} s each (GET and POST /rule mixed 3:1)")
            show("bare ASGI hello-world", base)
            show("stdlib hello-world", stdlib, base)
            show("desk, mixed GET + POST /rule", mixed, base)
            show("desk, GET only", gets, base)
            b = asyncio.run(burst(port))
            print(f"burst  200 new connections at once   {int(b['answered'])} answered, {int(b['failed'])} failed "
                  f"or timed out   p50 {b['p50'] * 1e3:.0f} ms   slowest {b['max'] * 1e3:.0f} ms   (target: 0 failed)")
            quiet_p99 = statistics.median(asyncio.run(normal_p99(port, max(SECONDS / 9, 2))) for _ in range(3))
            loaded_p99, dropped = with_slow_clients(port, max(SECONDS / 2, 12))
            print(f"slow   a normal client's p99         {quiet_p99 * 1e3:.1f} ms alone, {loaded_p99 * 1e3:.1f} ms "
                  f"beside 100 slow clients   {loaded_p99 / quiet_p99:5.2f}x   (target <= 2x; "
                  f"{dropped} slow connections dropped by the head deadline)")
        finally:
            desk.terminate()
            desk.wait()


if __name__ == "__main__":
    main()
