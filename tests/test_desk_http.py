"""The desk's HTTP layer below the routes: requests sent byte for byte (tests/desk/raw-requests.yaml), slow and
idle clients dropped on a total deadline, the connection limit, a burst of connections, the token a desk off
loopback requires, clients that go away (one line in the desk's log, never a traceback), and a fuzz of the
request bytes themselves."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgelaw.httplimits import Limits
from deskclient import Desk, parse_response, read_all

RAW = yaml.safe_load((Path(__file__).parent / "desk" / "raw-requests.yaml").read_text(encoding="utf-8"))
RULE = json.dumps({"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]})
TOKEN = "a-token-for-the-tests-0123456789"


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory):
    d = Desk(tmp_path_factory.mktemp("desk-http") / "rulings.sqlite3")
    yield d
    d.close()


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory):
    """A desk with short deadlines and few connections, to see them kept."""
    d = Desk(tmp_path_factory.mktemp("desk-quick") / "rulings.sqlite3",
             Limits(head_timeout=0.6, request_timeout=1.0, keep_alive=1.0, max_connections=6))
    yield d
    d.close()


def one_error(data: Any) -> dict[str, Any]:
    assert isinstance(data, dict) and set(data) == {"error"} and set(data["error"]) == {"field", "message"}, data
    assert "\n" not in data["error"]["message"] and "Traceback" not in data["error"]["message"]
    return data["error"]


@pytest.mark.parametrize("case", RAW, ids=[c["name"] for c in RAW])
def test_a_raw_request_is_answered_with_one_json_error(desk, case):
    data = case["send"].replace("{{BIG}}", "a" * 65537).encode("latin-1")
    status, headers, body = parse_response(desk.raw(data))
    err = one_error(body)
    assert (status, err["field"]) == (case["status"], case["field"]), err
    assert headers["content-type"] == "application/json"
    assert desk.request("GET", "/codes")[0] == 200  # and the desk goes on


def test_an_idle_connection_is_closed_on_the_deadline_without_a_word(quick):
    with socket.create_connection(("127.0.0.1", quick.port), timeout=10) as s:
        t0 = time.monotonic()
        assert read_all(s) == b""
        took = time.monotonic() - t0
    assert 0.5 <= took < 3, took


def test_a_client_dribbling_its_head_is_dropped_on_a_total_deadline(quick):
    """Each byte does not buy more time: the head must be in within the deadline from the first byte awaited."""
    with socket.create_connection(("127.0.0.1", quick.port), timeout=10) as s:
        s.sendall(b"GET /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        t0, got = time.monotonic(), b""
        s.settimeout(0.1)
        while time.monotonic() - t0 < 8:
            try:
                s.sendall(b"a")
            except OSError:
                break
            try:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
            except socket.timeout:
                continue
            except OSError:
                break
        took = time.monotonic() - t0
    assert took < 3, f"a dribbling client was kept {took:.1f} s"
    if got:  # the desk says why before it closes (unless the client's bytes raced the close)
        status, _, body = parse_response(got)
        assert status == 408 and one_error(body)["field"] == "request"


def test_a_client_dribbling_its_body_is_answered_408_on_the_request_deadline(quick):
    with socket.create_connection(("127.0.0.1", quick.port), timeout=10) as s:
        s.sendall(b"POST /rule HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 500\r\n\r\n{")
        t0 = time.monotonic()
        s.settimeout(0.1)
        got = b""
        while time.monotonic() - t0 < 8 and b"\r\n\r\n" not in got:
            try:
                s.sendall(b" ")
            except OSError:
                break
            try:
                got += s.recv(4096)
            except socket.timeout:
                continue
        took = time.monotonic() - t0
        s.settimeout(5)  # the head is in; the body may come in a segment of its own before the desk closes
        try:
            got += read_all(s)
        except socket.timeout:
            pass
    status, headers, body = parse_response(got)
    assert status == 408 and one_error(body)["field"] == "body" and headers["connection"] == "close"
    assert took < 3


def test_over_the_connection_limit_the_desk_answers_503_and_recovers(tmp_path):
    d = Desk(tmp_path / "r.sqlite3", Limits(max_connections=4, head_timeout=20))
    try:
        held = [socket.create_connection(("127.0.0.1", d.port), timeout=10) for _ in range(4)]
        time.sleep(0.2)
        status, headers, body = d.request("GET", "/codes")
        assert status == 503 and one_error(body)["field"] is None and headers["retry-after"]
        for s in held:
            s.close()
        deadline = time.monotonic() + 10
        while d.request("GET", "/codes")[0] != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        d.close()


def test_a_connection_answered_and_closing_is_not_counted_against_the_limit(tmp_path):
    """The desk lingers on a connection it has answered and closed (reading what its client still sends for up to
    a second): such connections are no longer open to the desk, so a new client is answered, not refused 503."""
    d = Desk(tmp_path / "r.sqlite3", Limits(max_connections=4, head_timeout=20))
    try:
        held = []
        for _ in range(4):  # answered, the desk's side closed, the client's left open: the desk lingers on each
            s = socket.create_connection(("127.0.0.1", d.port), timeout=10)
            s.sendall(b"GET /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert read_all(s).startswith(b"HTTP/1.1 200")
            held.append(s)
        status, _, _ = d.request("GET", "/codes")
        assert status == 200
        for s in held:
            s.close()
    finally:
        d.close()


@pytest.mark.timeout(120)
def test_a_burst_of_200_new_connections_is_all_answered(desk):
    def one(_: int) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", desk.port, timeout=30)
        try:
            conn.request("GET", "/codes")
            r = conn.getresponse()
            r.read()
            return r.status
        finally:
            conn.close()

    with ThreadPoolExecutor(200) as pool:
        statuses = list(pool.map(one, range(200)))
    assert statuses == [200] * 200


def test_a_desk_with_a_token_takes_requests_with_it_only(tmp_path):
    d = Desk(tmp_path / "r.sqlite3", token=TOKEN)
    try:
        status, headers, body = d.request("GET", "/codes")
        assert status == 401 and one_error(body)["field"] == "Authorization" and "bearer" in headers["www-authenticate"].lower()
        assert d.request("GET", "/codes", headers={"Authorization": "Bearer wrong-token-0123456789"})[0] == 401
        assert d.request("GET", "/codes", headers={"Authorization": f"Bearer {TOKEN}x"})[0] == 401
        assert d.request("POST", "/rule", json.loads(RULE))[0] == 401
        assert d.request("GET", "/codes", headers={"Authorization": f"Bearer {TOKEN}"})[0] == 200
        # the page: opened with the token once, it keeps it in a cookie the browser sends with each request
        status, headers, _ = d.request("GET", f"/?token={TOKEN}")
        assert status == 303 and headers["location"] == "/"
        cookie = headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        jar = cookie.split(";")[0]
        assert d.request("GET", "/", headers={"Cookie": jar})[0] == 200
        status, _, _ = d.request("POST", "/rule?log=false", json.loads(RULE), headers={"Cookie": jar})
        assert status == 200
        assert d.request("GET", "/?token=wrong")[0] == 401
        status, _, doc = d.request("GET", "/openapi.json", headers={"Authorization": f"Bearer {TOKEN}"})
        assert doc["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    finally:
        d.close()


def test_a_desk_off_loopback_needs_the_flag_and_a_token_and_checks_host(tmp_path):
    from bridgelaw.errors import InputError
    from bridgelaw.server import make_server

    with pytest.raises(InputError, match="not a loopback address"):
        make_server("0.0.0.0", 0, tmp_path / "a.sqlite3")
    with pytest.raises(InputError, match="needs a token"):
        make_server("0.0.0.0", 0, tmp_path / "b.sqlite3", allow_remote=True)
    d = Desk(tmp_path / "r.sqlite3", host="0.0.0.0", token=TOKEN, allow_remote=True)
    try:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert d.request("GET", "/codes")[0] == 401  # the Host check no longer switches off: the token is asked
        assert d.request("GET", "/codes", headers=auth)[0] == 200
        status, _, body = d.request("GET", "/codes", headers={**auth, "Host": "evil.example"})
        assert status == 403 and one_error(body)["field"] == "Host"
    finally:
        d.close()


def test_a_client_that_goes_away_mid_body_is_one_line_in_the_desks_log(desk, caplog):
    import logging

    with caplog.at_level(logging.INFO, logger="bridgelaw.desk"):
        with socket.create_connection(("127.0.0.1", desk.port), timeout=10) as s:
            s.sendall(b"POST /rule HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 400\r\n\r\n{\"code\":")
            time.sleep(0.2)
        deadline = time.monotonic() + 5
        while not [r for r in caplog.records if "went away" in r.getMessage()] and time.monotonic() < deadline:
            time.sleep(0.05)
    lines = [r.getMessage() for r in caplog.records if r.name == "bridgelaw.desk"]
    assert any("went away before sending its body" in m for m in lines), lines
    assert all("\n" not in m for m in lines) and all(r.exc_info is None for r in caplog.records)


@pytest.mark.timeout(120)
def test_the_desks_stderr_is_one_line_per_event_and_sigterm_stops_it(tmp_path):
    """The broken-pipe reproducer: clients that ask for a big answer and hang up, a malformed request, a
    dribbling one; then SIGTERM. Every line on stderr is the desk's one-line kind; none is a traceback."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen([sys.executable, "-m", "bridgelaw.cli", "serve", "--port", "0", "--log",
                          str(tmp_path / "r.sqlite3")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    try:
        assert p.stdout is not None
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", p.stdout.readline()).group(1))
        for path in ("/openapi.json", "/kinds", "/casebook", "/log") * 5:
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            # closed with a reset before reading a byte: the desk writes into a dead socket
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"GET /codes\r\n")
            read_all(s)
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /rule HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/rule", body=RULE, headers={"Content-Type": "application/json"})
        assert conn.getresponse().status == 200
        conn.close()
        time.sleep(0.5)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 0, err
    lines = err.splitlines()
    assert lines and "Traceback" not in err and "Error" not in "".join(lines).replace("errors", "")
    assert all(line.startswith("bridgelaw desk: ") for line in lines), lines
    assert any('"POST /rule HTTP/1.1" 200' in line for line in lines)
    assert any("refused: request line" in line for line in lines)


VALID = (b"POST /rule?log=false HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
         b"Content-Length: " + str(len(RULE)).encode() + b"\r\n\r\n" + RULE.encode())


@pytest.mark.timeout(180)
@settings(max_examples=int(os.environ.get("BRIDGELAW_FUZZ_EXAMPLES", "40")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(edits=st.lists(st.tuples(st.integers(0, len(VALID) - 1), st.sampled_from(["drop", "flip", "insert"]),
                                st.binary(min_size=1, max_size=3)), min_size=1, max_size=4))
def test_mutated_request_bytes_get_an_answer_or_a_close_never_a_hang(quick, edits):
    """Against the desk with short deadlines: a request left incomplete by the mutation is closed within them."""
    data = bytearray(VALID)
    for at, how, junk in edits:
        at = min(at, len(data) - 1)
        if how == "drop":
            del data[at]
        elif how == "flip":
            data[at] ^= junk[0] or 1
        else:
            data[at:at] = junk
    t0 = time.monotonic()
    answer = quick.raw(bytes(data), timeout=10)
    assert time.monotonic() - t0 < 5, "the desk neither answered nor closed within its deadlines"
    if answer:
        status, headers, body = parse_response(answer)
        assert status < 500, answer[:300]
        if status >= 400:
            one_error(body)
    assert quick.request("GET", "/codes")[0] == 200
