"""A referee's desk served from a thread of the test process, and the clients the desk tests talk to it with."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from pathlib import Path
from typing import Any

from bridgelaw.httplimits import Limits
from bridgelaw.server import DeskServer, make_server


class Desk:
    """A desk on an ephemeral port, served by uvicorn in a thread of this process."""

    def __init__(self, log_path: Path, limits: Limits | None = None, host: str = "127.0.0.1",
                 token: str | None = None, allow_remote: bool = False) -> None:
        self.server: DeskServer = make_server(host, 0, log_path, quiet=True, limits=limits, token=token,
                                              allow_remote=allow_remote)
        self.port = self.server.server_address[1]
        self.url = self.server.url
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.uvicorn.started and time.monotonic() < deadline:
            time.sleep(0.01)

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                raw: bytes | None = None, host: str = "127.0.0.1") -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection(host, self.port, timeout=30)
        try:
            hdrs = dict(headers or {})
            data = raw
            if body is not None:
                data = json.dumps(body).encode()
                hdrs.setdefault("Content-Type", "application/json")
            conn.request(method, path, body=data, headers=hdrs)
            resp = conn.getresponse()
            payload = resp.read()
            ctype = resp.getheader("Content-Type", "")
            parsed = json.loads(payload) if ctype.startswith("application/json") and payload else payload
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, parsed
        finally:
            conn.close()

    def raw(self, data: bytes, timeout: float = 10.0) -> bytes:
        """Send bytes as they are; read until one whole response is in, the desk closes, or ``timeout``."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            try:
                s.sendall(data)
            except OSError:  # the desk closed before taking it all (a head over the limit)
                pass
            return read_response(s, time.monotonic() + timeout)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.server.log.close()


def read_response(s: socket.socket, deadline: float) -> bytes:
    """Bytes until one whole response (by its Content-Length, or chunked to its end), a close, or the deadline."""
    out = b""
    while time.monotonic() < deadline:
        s.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            break
        if not chunk:
            break
        out += chunk
        head, sep, body = out.partition(b"\r\n\r\n")
        if sep:
            m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            if m and len(body) >= int(m.group(1)):
                break
            if re.search(rb"(?im)^transfer-encoding:\s*chunked", head) and body.endswith(b"0\r\n\r\n"):
                break
    return out


def read_all(s: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk


def parse_response(data: bytes) -> tuple[int, dict[str, str], Any]:
    """The status, headers and JSON body of one HTTP/1.1 response given as bytes."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    if headers.get("transfer-encoding") == "chunked":
        out, rest = b"", body
        while rest:
            size_text, _, rest = rest.partition(b"\r\n")
            size = int(size_text, 16)
            if size == 0:
                break
            out, rest = out + rest[:size], rest[size + 2:]
        body = out
    elif "content-length" in headers:
        body = body[:int(headers["content-length"])]
    parsed = json.loads(body) if headers.get("content-type", "").startswith("application/json") and body else body
    return status, headers, parsed
