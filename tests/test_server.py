"""The referee's desk over HTTP: the JSON API against the CLI's contracts, refusals (each a JSON error), the ruling
log (paged, idempotent, exported as CSV), the kill test, and schemathesis against /openapi.json.

The HTTP layer's own limits (raw requests, slow clients, connection limits, the token) are tests/test_desk_http.py.
"""

from __future__ import annotations

import csv
import functools
import http.client
import io
import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bridgelaw import cli
from bridgelaw.rulinglog import MAX_PAGE, RequestKey, RulingLog
from bridgelaw.server import MAX_BODY, page_csp
from conftest import ROOT
from deskclient import Desk

REVOKE = {"code": "wcny-1913", "irregularity": "revoke", "offender": "N", "declarer": "E",
          "facts": {"established": True, "revokes_by_side": 1}}
INSUFFICIENT = {"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]}
RUBBER = ROOT / "rulings" / "wcny-1913" / "scores" / "fosters-we-they-rubber-is-won-by-they-by-450.yaml"
RULING_V = jsonschema.Draft202012Validator(json.loads((ROOT / "schema" / "ruling.schema.json").read_text()))
BAD_BODIES = yaml.safe_load((Path(__file__).parent / "desk" / "bad-bodies.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory):
    d = Desk(tmp_path_factory.mktemp("desk") / "rulings.sqlite3")
    yield d
    d.close()


def run_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str,
            stdin: str | None = None) -> tuple[int, str, str]:
    capsys.readouterr()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = cli.main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def one_error(data: Any) -> dict[str, Any]:
    """The desk's error document: one line, naming the field (or null), nothing else."""
    assert isinstance(data, dict) and set(data) == {"error"}, data
    err = data["error"]
    assert set(err) == {"field", "message"} and isinstance(err["message"], str) and err["message"], err
    assert "\n" not in err["message"] and "Traceback" not in err["message"]
    return err


# ------------------------------------------------------------------ the same contracts as the CLI


def test_codes_kinds_and_law_are_the_cli_documents(desk, capsys, monkeypatch):
    for path, args in (("/codes", ["codes", "--json"]), ("/kinds", ["kinds", "--json"]),
                       ("/codes/wcny-1913/laws/84", ["law", "wcny-1913", "84", "--json"]),
                       ("/codes/wcny-1913/laws/50b", ["law", "wcny-1913", "50b", "--json"]),
                       ("/codes/portland-1909/laws/97", ["law", "portland-1909", "97", "--json"])):
        status, _, data = desk.request("GET", path)
        rc, out, _ = run_cli(capsys, monkeypatch, *args)
        assert status == 200 and rc == 0, path
        assert data == json.loads(out), path


def test_rule_is_bridgelaw_rule_json(desk, capsys, monkeypatch):
    for incident in (REVOKE, INSUFFICIENT, {"code": "wcny-1913", "irregularity": "revoke"}):
        status, headers, data = desk.request("POST", "/rule?log=false", incident)
        rc, out, _ = run_cli(capsys, monkeypatch, "rule", "-", "--json", stdin=json.dumps(incident))
        assert status == 200 and rc == 0
        assert data == json.loads(out)
        RULING_V.validate(data)
        assert "x-bridgelaw-log-id" not in headers
    assert data["questions"] and {"fact", "ask", "type"} <= set(data["questions"][0])


def test_score_auction_and_diff_are_the_cli_documents(desk, capsys, monkeypatch):
    result = yaml.safe_load(RUBBER.read_text())["result"]
    status, _, data = desk.request("POST", "/score", result)
    rc, out, _ = run_cli(capsys, monkeypatch, "score", str(RUBBER), "--json")
    assert status == 200 and data == json.loads(out) and data["rubber"]["won_by"] == "EW"

    for calls in (["1H", "1S"], ["1H", "2C", "P", "2H", "P", "P", "P"], ["1H", "W:2C"], ["1H", "1S", "2H", "P"]):
        status, _, data = desk.request("POST", "/auction", {"code": "wcny-1913", "dealer": "S", "calls": calls})
        rc, out, _ = run_cli(capsys, monkeypatch, "auction", "--code", "wcny-1913", "--dealer", "S", *calls, "--json")
        assert status == 200 and data == json.loads(out), calls

    status, _, data = desk.request("GET", "/diff?a=wcny-1912&b=wcny-1913&topic=revoke")
    rc, out, _ = run_cli(capsys, monkeypatch, "diff", "wcny-1912", "wcny-1913", "--topic", "revoke", "--format", "json")
    assert status == 200 and data == json.loads(out)


def test_search_code_detail_and_casebook(desk, capsys, monkeypatch):
    status, _, hits = desk.request("GET", "/search?q=royal%20spades")
    rc, out, _ = run_cli(capsys, monkeypatch, "search", "royal", "spades", "--json")
    assert status == 200 and hits == json.loads(out) and hits
    status, _, hits = desk.request("GET", "/search?q=revoke&code=wcny-1913")
    assert status == 200 and hits and {h["code"] for h in hits} == {"wcny-1913"}

    status, _, detail = desk.request("GET", "/codes/wcny-1913")
    assert status == 200 and "revoke" in detail["kinds"] and detail["index"][0]["number"] == "1"

    status, _, cases = desk.request("GET", "/casebook?code=wcny-1913")
    assert status == 200 and cases and {c["code"] for c in cases} == {"wcny-1913"}
    revoke = [c for c in cases if c["path"].endswith("an-adversarys-first-established-revoke-gives-the-declarer"
                                                     "-a-choice.yaml")]
    assert revoke and revoke[0]["incident"]["irregularity"] == "revoke" and revoke[0]["story"]
    assert any(c["kind"] == "score" and "result" in c for c in cases)


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("path", [
    "/codes/..%2F..%2Fetc/laws/1", "/codes/../laws/1", "/codes/%2e%2e/laws/1", "/codes/wcny-1913%00/laws/1",
    "/codes/wcny-1913/laws/..%2F..%2F..%2Fetc%2Fpasswd", "/codes/wcny-1913/laws/%2Fetc%2Fpasswd",
    "/codes/laws/laws/1", "/codes/wcny-1913/laws/98", "/codes/nope", "/codes/%2E%2E",
])
def test_paths_cannot_reach_outside_laws(desk, path):
    status, headers, data = desk.request("GET", path)
    assert status == 404 and headers["content-type"] == "application/json"
    one_error(data)
    assert "root:" not in json.dumps(data)


def test_unknown_routes_and_methods(desk):
    status, _, data = desk.request("GET", "/nope")
    assert status == 404 and "no such resource" in one_error(data)["message"]
    status, _, data = desk.request("GET", "/codes/")
    assert status == 404
    status, headers, data = desk.request("DELETE", "/codes")
    assert status == 405 and headers["allow"] == "GET, HEAD" and one_error(data)["field"] == "method"
    status, headers, _ = desk.request("GET", "/rule")
    assert status == 405 and headers["allow"] == "POST"
    status, headers, _ = desk.request("PUT", "/log")
    assert status == 405 and headers["allow"] == "GET, HEAD, POST"


@pytest.mark.parametrize("case", BAD_BODIES, ids=[c["name"] for c in BAD_BODIES])
def test_a_bad_body_is_one_json_error_and_logs_nothing(desk, case):
    if "raw" in case:
        data = case["raw"].encode("latin-1")
    elif "json" in case:
        data = json.dumps(case["json"]).replace("{{LONG_NOTE}}", "x" * 4001).encode()
    else:
        data = case["body"].replace("{{DEEP}}", "[" * 100 + "]" * 100).encode()
    before = desk.server.log.count()
    status, _, answer = desk.request("POST", case.get("path", "/rule"), raw=data,
                                     headers={"Content-Type": case.get("content_type", "application/json")})
    err = one_error(answer)
    assert status == case["status"], err
    if "field" in case:
        assert err["field"] == case["field"], err
    assert desk.server.log.count() == before


def test_the_engine_and_the_desk_refuse_alike(desk, capsys, monkeypatch):
    """The royal-spades reproducer: the CLI says it in one line (exit 2), the desk in one JSON error (422)."""
    from bridgelaw import InputError, rule

    for bad in ({"code": "wcny-1913", "irregularity": "revok"},
                {"code": "portland-1909", "irregularity": "insufficient_bid",
                 "facts": {"call": "1H", "previous_bid": "1R"}}):
        with pytest.raises(InputError) as e:
            rule(bad)
        status, _, data = desk.request("POST", "/rule", bad)
        assert status == 422 and one_error(data) == {"field": e.value.field, "message": e.value.message}
        rc, _, err = run_cli(capsys, monkeypatch, "rule", "-", stdin=json.dumps(bad))
        assert rc == 2 and err == f"bridgelaw: {e.value}\n"


def test_bad_parameters_are_one_json_error(desk):
    for path, want, name in (("/search", 400, "q"), ("/search?q=", 400, "q"), ("/diff?a=wcny-1912", 400, "b"),
                             ("/diff?a=wcny-1912&b=nope", 400, "b"), ("/diff?a=wcny-1912&b=wcny-1913&topic=nope", 400,
                                                                      "topic"),
                             ("/casebook?code=nope", 400, "code"), ("/log?limit=abc", 400, "limit"),
                             ("/log?limit=0", 400, "limit"), (f"/log?limit={MAX_PAGE + 1}", 400, "limit"),
                             ("/log?limit=10000", 400, "limit"), ("/log?before=0", 400, "before"),
                             ("/rule?log=maybe", 405, None), ("/log/abc", 404, "id"), ("/log/99999999", 404, "id")):
        status, _, data = desk.request("GET", path)
        err = one_error(data)
        assert status == want, (path, err)
        if name:
            assert err["field"] == name, (path, err)


def test_body_size_limit_is_413_and_closes_the_connection(desk):
    conn = http.client.HTTPConnection("127.0.0.1", desk.port, timeout=30)
    body = json.dumps({**REVOKE, "note": "x" * MAX_BODY}).encode()
    conn.request("POST", "/rule", body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    assert resp.status == 413 and "at most" in one_error(json.loads(resp.read()))["message"]
    assert resp.getheader("Connection") == "close"
    conn.close()
    # an error before the body is read must not poison a kept-alive connection
    conn = http.client.HTTPConnection("127.0.0.1", desk.port, timeout=30)
    conn.request("POST", "/nope", body=b'{"a": 1}', headers={"Content-Type": "application/json"})
    r1 = conn.getresponse()
    r1.read()
    assert r1.status == 404
    if r1.getheader("Connection") != "close":
        conn.request("GET", "/codes")
        assert conn.getresponse().status == 200
    conn.close()


def test_keep_alive_serves_many_requests_on_one_connection(desk):
    conn = http.client.HTTPConnection("127.0.0.1", desk.port, timeout=30)
    for _ in range(5):
        conn.request("POST", "/rule?log=false", body=json.dumps(INSUFFICIENT), headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        assert r.status == 200 and json.loads(r.read())["options"]
        conn.request("GET", "/kinds")
        r = conn.getresponse()
        assert r.status == 200 and r.read()
    conn.close()


def test_host_header_must_be_this_desk(desk):
    status, _, data = desk.request("GET", "/codes", headers={"Host": "evil.example:8913"})
    assert status == 403 and one_error(data)["field"] == "Host"
    assert desk.request("GET", "/codes", headers={"Host": f"localhost:{desk.port}"})[0] == 200
    assert desk.request("GET", "/codes", headers={"Host": f"[::1]:{desk.port}"})[0] == 200


def test_the_page_is_self_contained_and_its_csp_allows_only_its_own_inline_code(desk):
    status, headers, page = desk.request("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    text = page.decode()
    import base64
    import hashlib

    for tag in ("script", "style"):
        blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", text, flags=re.S)
        assert blocks, tag
        for b in blocks:
            digest = base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in re.search(rf"{tag}-src ([^;]*)", csp).group(1)
    assert page_csp(page) == csp
    # nothing the CSP would refuse: no inline handlers, style attributes, javascript: URLs or external code
    assert not re.search(r"<[^>]+\s(on[a-z]+|style)\s*=", text, flags=re.I)
    assert "javascript:" not in text.lower()
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:)?//""", text)
    assert not re.search(r"url\(\s*['\"]?(https?:)?//|@import", text)
    assert '<meta name="viewport"' in text and "@media" in text
    assert desk.request("HEAD", "/")[0] == 200


def test_page_ships_in_the_wheel_package():
    pkg = ROOT / "engine" / "bridgelaw" / "web" / "index.html"
    assert pkg.is_file()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'packages = ["engine/bridgelaw"]' in pyproject


# ------------------------------------------------------------------ the ruling log


def test_rulings_are_logged_with_the_choice_and_note(desk, capsys, monkeypatch):
    status, headers, ruling = desk.request("POST", "/rule", REVOKE)
    assert status == 200 and headers["x-bridgelaw-log-id"].isdigit()
    entry_id = int(headers["x-bridgelaw-log-id"])
    # a ruling that still asks questions is not logged
    status, headers, _ = desk.request("POST", "/rule", {"code": "wcny-1913", "irregularity": "revoke"})
    assert status == 200 and "x-bridgelaw-log-id" not in headers

    status, _, entry = desk.request("POST", "/log", {"id": entry_id, "choice": "tricks", "note": "East took three"})
    assert status == 200 and entry["choice"] == "tricks" and entry["note"] == "East took three"
    assert entry["ruling"] == ruling and entry["incident"] == REVOKE and entry["noted_at"]

    for body, want in (({"id": entry_id, "choice": "nonsense"}, 422), ({"id": 10 ** 9, "note": "x"}, 404),
                       ({"id": entry_id, "note": "x" * 4001}, 422), ({"note": "x"}, 422),
                       ({"id": entry_id, "incident": REVOKE}, 422), ({"id": True}, 422), ({"id": entry_id, "x": 1}, 422),
                       ({"incident": {"code": "wcny-1913", "irregularity": "revoke"}}, 422)):
        status, _, data = desk.request("POST", "/log", body)
        assert status == want and one_error(data), body
    status, _, other = desk.request("POST", "/log", {"incident": INSUFFICIENT, "choice": "penalize", "note": "4S"})
    assert status == 200 and other["id"] > entry_id and other["ruling"]["options"][0]["id"] == "penalize"

    status, _, log = desk.request("GET", "/log?limit=5")
    assert status == 200 and log["entries"][-1]["id"] == other["id"] and "path" not in log
    assert str(desk.server.log.path) not in json.dumps(log)  # the log's file is the desk's business
    mine = next(e for e in log["entries"] if e["id"] == entry_id)
    assert mine["laws"] == ["84"] and mine["choice"] == "tricks" and "ruling" not in mine
    status, _, full = desk.request("GET", f"/log/{entry_id}")
    assert status == 200 and full["ruling"]["laws"][0]["number"] == "84"

    path = str(desk.server.log.path)
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--log", path)
    assert rc == 0 and f"#{entry_id}" in out and "chose: tricks" in out and "East took three" in out
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--log", path, "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    row = next(r for r in rows if r["id"] == str(entry_id))
    assert rc == 0 and row["choice"] == "tricks" and row["note"] == "East took three" and row["laws"] == "84"
    assert json.loads(row["incident"]) == REVOKE and json.loads(row["ruling"])["code"] == "wcny-1913"
    monkeypatch.setenv("BRIDGELAW_LOG", path)
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--json", "--limit", "1")
    assert rc == 0 and [e["id"] for e in json.loads(out)] == [other["id"]]
    rc, _, err = run_cli(capsys, monkeypatch, "log", "--limit", "0")
    assert rc == 2 and err.count("\n") == 1 and "--limit" in err


def test_a_note_added_later_keeps_the_choice_recorded(desk):
    """A field an annotation does not send is kept (a note added later never wipes the choice); an empty note
    clears the note."""
    status, headers, _ = desk.request("POST", "/rule", REVOKE)
    entry_id = int(headers["x-bridgelaw-log-id"])
    status, _, entry = desk.request("POST", "/log", {"id": entry_id, "choice": "tricks"})
    assert status == 200 and entry["choice"] == "tricks" and entry["note"] is None
    status, _, entry = desk.request("POST", "/log", {"id": entry_id, "note": "claimed before the cut"})
    assert status == 200 and (entry["choice"], entry["note"]) == ("tricks", "claimed before the cut")
    status, _, entry = desk.request("POST", "/log", {"id": entry_id, "note": ""})
    assert status == 200 and (entry["choice"], entry["note"]) == ("tricks", None)


def test_the_log_is_paged_by_a_cursor_and_streamed(tmp_path):
    book = RulingLog(tmp_path / "paged.sqlite3")
    from bridgelaw import rule

    ruling = rule(INSUFFICIENT).to_dict()
    ids = [book.record(INSUFFICIENT, ruling, note=f"ruling {i}").entry.id for i in range(23)]
    book.close()
    d = Desk(tmp_path / "paged.sqlite3")
    try:
        seen: list[int] = []
        before = ""
        pages = 0
        while True:
            status, headers, page = d.request("GET", f"/log?limit=5{before}")
            assert status == 200 and page["count"] == 23 and len(page["entries"]) <= 5
            assert headers.get("transfer-encoding") == "chunked"  # streamed, not built whole
            got = [e["id"] for e in page["entries"]]
            assert got == sorted(got)
            seen = got + seen
            pages += 1
            if page["next_before"] is None:
                break
            assert page["next_before"] == got[0]
            before = f"&before={page['next_before']}"
        assert seen == ids and pages == 5
        status, _, page = d.request("GET", f"/log?limit=3&before={ids[0]}")
        assert status == 200 and page["entries"] == [] and page["next_before"] is None
        assert d.request("HEAD", "/log")[0] == 200
    finally:
        d.close()


def test_an_empty_log_is_a_page_of_nothing(tmp_path):
    d = Desk(tmp_path / "empty.sqlite3")
    try:
        status, _, page = d.request("GET", "/log")
        assert status == 200 and page == {"count": 0, "next_before": None, "entries": []}
    finally:
        d.close()


def test_a_retried_request_with_its_idempotency_key_is_answered_from_the_log(desk):
    key = {"Idempotency-Key": "0f7e5a0c-retry-rule"}
    status, h1, first = desk.request("POST", "/rule", REVOKE, headers=key)
    count = desk.server.log.count()
    status2, h2, again = desk.request("POST", "/rule", REVOKE, headers=key)
    assert status == status2 == 200 and again == first and h2["x-bridgelaw-log-id"] == h1["x-bridgelaw-log-id"]
    assert h2["x-bridgelaw-replayed"] == "true" and "x-bridgelaw-replayed" not in h1
    assert desk.server.log.count() == count
    # the same key with another request is refused; another key is a new ruling
    status, _, data = desk.request("POST", "/rule", INSUFFICIENT, headers=key)
    assert status == 409 and one_error(data)["field"] == "Idempotency-Key"
    status, _, data = desk.request("POST", "/rule?log=true", REVOKE, headers={"Idempotency-Key": "other-key"})
    assert desk.server.log.count() == count + 1

    # POST /log: a retried note never undoes a later one
    entry = int(h1["x-bridgelaw-log-id"])
    k1, k2 = {"Idempotency-Key": "note-1"}, {"Idempotency-Key": "note-2"}
    s, _, a1 = desk.request("POST", "/log", {"id": entry, "choice": "tricks", "note": "first"}, headers=k1)
    s, _, a2 = desk.request("POST", "/log", {"id": entry, "choice": "points", "note": "second"}, headers=k2)
    s, h, a1_again = desk.request("POST", "/log", {"id": entry, "choice": "tricks", "note": "first"}, headers=k1)
    assert s == 200 and a1_again == a1 and h["x-bridgelaw-replayed"] == "true"
    assert desk.server.log.get(entry).note == "second" and a2["choice"] == "points"
    # a ruling logged through POST /log in one go, retried
    body = {"incident": INSUFFICIENT, "choice": "penalize", "note": "once"}
    count = desk.server.log.count()
    s, _, b1 = desk.request("POST", "/log", body, headers={"Idempotency-Key": "log-once"})
    s, _, b2 = desk.request("POST", "/log", body, headers={"Idempotency-Key": "log-once"})
    assert b1 == b2 and desk.server.log.count() == count + 1


def test_a_reply_lost_after_the_commit_is_got_by_the_retry(desk):
    """The client sends, the desk commits, the client goes before the answer: its retry with the key gets the
    ruling that was logged, and nothing is logged twice."""
    import socket

    body = json.dumps({**REVOKE, "note": "the reply to this one is lost"}).encode()
    head = (f"POST /rule HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Idempotency-Key: lost-reply-1\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    count = desk.server.log.count()
    with socket.create_connection(("127.0.0.1", desk.port)) as s:
        s.sendall(head + body)  # and close at once, never reading the answer
    deadline = time.monotonic() + 10
    while desk.server.log.count() == count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert desk.server.log.count() == count + 1
    status, headers, ruling = desk.request("POST", "/rule", json.loads(body), headers={"Idempotency-Key": "lost-reply-1"})
    assert status == 200 and headers["x-bridgelaw-replayed"] == "true"
    assert desk.server.log.get(int(headers["x-bridgelaw-log-id"])).ruling == ruling
    assert desk.server.log.count() == count + 1


def test_request_keys_are_stored_with_the_row_unique(tmp_path):
    from bridgelaw import rule
    from bridgelaw.errors import RequestConflictError

    book = RulingLog(tmp_path / "keys.sqlite3")
    ruling = rule(REVOKE).to_dict()
    k = RequestKey.of("k1", "rule", REVOKE, {"log": True})
    first = book.record(REVOKE, ruling, request=k)
    again = book.record(REVOKE, ruling, request=k)
    assert not first.replayed and again.replayed and again.entry == first.entry and book.count() == 1
    with pytest.raises(RequestConflictError) as e:
        book.record(INSUFFICIENT, rule(INSUFFICIENT).to_dict(), request=RequestKey.of("k1", "rule", INSUFFICIENT))
    assert e.value.field == "Idempotency-Key" and book.count() == 1
    db = sqlite3.connect(tmp_path / "keys.sqlite3")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO request_keys (key, digest, entry, time) VALUES ('k1', 'x', 1, 'now')")
    db.close()
    book.close()


def test_a_log_of_the_first_version_is_brought_up_to_date(tmp_path):
    path = tmp_path / "v1.sqlite3"
    db = sqlite3.connect(path)
    from bridgelaw.rulinglog import _MIGRATIONS

    db.executescript(_MIGRATIONS[0])
    db.execute("INSERT INTO rulings (time, code, irregularity, incident, ruling) VALUES "
               "('2024-01-01T00:00:00.000Z', 'wcny-1913', 'revoke', '{}', '{\"laws\": []}')")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    book = RulingLog(path)
    assert book.count() == 1 and book.get(1).code == "wcny-1913"
    assert book.replay(RequestKey.of("new", "rule", {})) is None
    book.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    from bridgelaw.errors import InputError

    with pytest.raises(InputError, match="newer bridgelaw"):
        RulingLog(path)


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(tmp_path, capsys, monkeypatch):
    from bridgelaw import rule

    book = RulingLog(tmp_path / "csv.sqlite3")
    ruling = rule(INSUFFICIENT).to_dict()
    notes = ["=HYPERLINK(\"http://evil.example\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "plain",
             "a = b", "'quoted"]
    for n in notes:
        book.record(INSUFFICIENT, ruling, note=n)
    book.close()
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--log", str(tmp_path / "csv.sqlite3"), "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and len(rows) == len(notes)
    for n, row in zip(notes, rows):
        cell = row["note"]
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
        assert cell == ("'" + n if n.startswith(("=", "+", "-", "@", "\t", "\r")) else n)
        for v in row.values():
            assert not v.startswith(("=", "+", "-", "@", "\t", "\r")), row
        assert json.loads(row["incident"]) == INSUFFICIENT  # the JSON columns stay JSON


def test_log_of_nothing_and_default_path(tmp_path, capsys, monkeypatch):
    from bridgelaw.rulinglog import default_path

    monkeypatch.setenv("BRIDGELAW_LOG", str(tmp_path / "none.sqlite3"))
    assert default_path() == tmp_path / "none.sqlite3"
    rc, out, _ = run_cli(capsys, monkeypatch, "log")
    assert rc == 0 and "no rulings logged yet" in out and not (tmp_path / "none.sqlite3").exists()
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--csv")
    assert rc == 0 and out.startswith("id,time,code") and not (tmp_path / "none.sqlite3").exists()
    monkeypatch.delenv("BRIDGELAW_LOG")
    assert default_path() == Path.home() / ".local" / "share" / "bridgelaw" / "rulings.sqlite3"


def test_the_log_is_wal_and_each_write_one_transaction(tmp_path):
    book = RulingLog(tmp_path / "log.sqlite3")
    from bridgelaw import rule

    ruling = rule(REVOKE).to_dict()
    ids = [book.record(REVOKE, ruling).entry.id for _ in range(3)]
    with pytest.raises(Exception):
        book.record(REVOKE, ruling, choice="not-an-option")
    assert book.count() == 3 and ids == sorted(ids)
    db = sqlite3.connect(tmp_path / "log.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    book.close()


def _start_desk(log: Path) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen([sys.executable, "-m", "bridgelaw.cli", "serve", "--port", "0", "--log", str(log), "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    line = p.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert m, (line, p.stderr.read() if p.poll() is not None else "")
    return p, int(m.group(1))


@pytest.mark.timeout(120)
def test_nothing_acknowledged_is_lost_when_the_server_is_killed(tmp_path):
    log = tmp_path / "rulings.sqlite3"
    proc, port = _start_desk(log)
    acked: dict[int, str] = {}
    lock = threading.Lock()
    stop = threading.Event()

    def writer(w: int) -> None:
        i = 0
        while not stop.is_set():
            i += 1
            tag = f"writer {w} ruling {i}"
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("POST", "/rule", body=json.dumps({**REVOKE, "note": tag}),
                             headers={"Content-Type": "application/json", "Idempotency-Key": f"w{w}-{i}"})
                resp = conn.getresponse()
                resp.read()
                if resp.status == 200:
                    with lock:
                        acked[int(resp.getheader("X-Bridgelaw-Log-Id"))] = tag
                conn.close()
            except (OSError, http.client.HTTPException):
                return  # the server is gone

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(6)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while len(acked) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)  # while the writers are writing
    proc.wait(timeout=10)
    stop.set()
    for t in threads:
        t.join(timeout=15)
    for f in (proc.stdout, proc.stderr):
        if f:
            f.close()
    assert len(acked) >= 60, "the server acknowledged too few rulings before the kill"

    db = sqlite3.connect(log)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = dict(db.execute("SELECT id, incident FROM rulings").fetchall())
    keys = db.execute("SELECT count(*), count(DISTINCT entry) FROM request_keys").fetchone()
    db.close()
    for entry_id, tag in acked.items():
        assert entry_id in rows, f"acknowledged ruling {entry_id} was lost"
        assert json.loads(rows[entry_id])["note"] == tag
    assert keys[0] == keys[1] == len(rows)  # every row written with its key, in one transaction

    proc, port = _start_desk(log)  # and the desk starts again on the same log, and goes on logging
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        ids: set[int] = set()
        before = ""
        while True:
            conn.request("GET", f"/log?limit={MAX_PAGE}{before}")
            data = json.loads(conn.getresponse().read())
            ids |= {e["id"] for e in data["entries"]}
            if data["next_before"] is None:
                break
            before = f"&before={data['next_before']}"
        assert ids >= set(acked)
        conn.request("POST", "/rule", body=json.dumps(REVOKE), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200 and int(resp.getheader("X-Bridgelaw-Log-Id")) > max(acked)
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        for f in (proc.stdout, proc.stderr):
            if f:
                f.close()
    db = sqlite3.connect(log)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()


def test_serve_refusals_are_one_line_and_exit_2(desk, capsys, monkeypatch, tmp_path):
    log = str(tmp_path / "l.sqlite3")
    for args, says in ((["--port", str(desk.port)], "cannot listen"),
                       (["--port", "99999"], "--port: expected a port from 0 to 65535, got 99999"),
                       (["--port", "-1"], "--port: expected a port"),
                       (["--host", "no such host.invalid"], "--host: cannot listen"),
                       (["--host", "0.0.0.0"], "--host: 0.0.0.0 is not a loopback address"),
                       (["--host", "0.0.0.0", "--allow-remote"], "--token-file: serving 0.0.0.0 needs a token"),
                       (["--token-file", str(tmp_path / "missing")], "--token-file:")):
        monkeypatch.delenv("BRIDGELAW_TOKEN", raising=False)
        rc, _, err = run_cli(capsys, monkeypatch, "serve", *args, "--log", log, "--quiet")
        assert rc == 2 and err.count("\n") == 1 and says in err, (args, err)
    (tmp_path / "short").write_text("abc\n")
    rc, _, err = run_cli(capsys, monkeypatch, "serve", "--token-file", str(tmp_path / "short"), "--log", log)
    assert rc == 2 and "16 to 256 characters" in err


# ------------------------------------------------------------------ fuzzing the input paths

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4),
                    max_leaves=20)
FIELDS = ["code", "irregularity", "dealer", "declarer", "offender", "auction", "callers", "offence_at", "facts", "note"]


@pytest.mark.timeout(180)
@settings(max_examples=int(os.environ.get("BRIDGELAW_FUZZ_EXAMPLES", "40")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/rule?log=false", "/score", "/auction", "/log"]), body=JSON)
def test_any_json_body_is_answered_never_a_server_error(desk, path, body):
    status, _, data = desk.request("POST", path, raw=json.dumps(body).encode(),
                                   headers={"Content-Type": "application/json"})
    assert status < 500, data
    if status >= 400:
        one_error(data)


@functools.lru_cache(maxsize=1)
def _cases() -> list[dict[str, Any]]:
    from bridgelaw.casebook import load_cases

    return [json.loads(json.dumps(c.incident, default=str)) for c in load_cases(ROOT / "rulings")]


@pytest.mark.timeout(180)
@settings(max_examples=int(os.environ.get("BRIDGELAW_FUZZ_EXAMPLES", "40")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_casebook_incident_mutated_is_ruled_or_refused_never_a_server_error(desk, data):
    incident = dict(data.draw(st.sampled_from(_cases())))
    for _ in range(data.draw(st.integers(1, 3))):
        facts = incident.get("facts") if isinstance(incident.get("facts"), dict) else {}
        name = data.draw(st.sampled_from(FIELDS + list(facts)))
        how = data.draw(st.sampled_from(["drop", "replace", "text"]))
        target = incident if name in FIELDS else dict(facts)
        if how == "drop":
            target.pop(name, None)
        elif how == "replace":
            target[name] = data.draw(JSON)
        else:
            target[name] = data.draw(st.text(alphabet=st.characters(codec="utf-8"), max_size=8))
        if name not in FIELDS:
            incident["facts"] = target
    status, _, answer = desk.request("POST", "/rule?log=false", incident)
    assert status in (200, 400, 422), answer
    if status != 200:
        one_error(answer)


# ------------------------------------------------------------------ OpenAPI and schemathesis


def test_the_not_blank_pattern_is_pythons_idea_of_a_blank_over_the_whole_bmp():
    import re

    from bridgelaw.openapi import _NOT_BLANK

    pat = re.compile(_NOT_BLANK)
    assert [hex(i) for i in range(0x10000) if (pat.search(chr(i)) is None) != chr(i).isspace()] == []


@pytest.mark.parametrize("q", ["\x1d", " \x1c\t", "\u3000", "\ufeff", "a", " 84 ", "re\u200bvoke", "\x00", "\x7f",
                               "\ue000", "\uff52\uff45\uff56\uff4f\uff4b\uff45"])
def test_the_search_schema_counts_blanks_as_the_engine_does(desk, q):
    """A query the published patterns take is searched; one they refuse, the engine refuses too (``\\S`` would
    differ: Python's blanks include U+001C-U+001F, ECMA-262's do not), and a control or format character (a NUL, a
    zero-width space, a byte-order mark) is named in the engine's words."""
    import re
    import unicodedata
    from urllib.parse import quote

    status, _, doc = desk.request("GET", "/openapi.json")
    (param,) = [p for p in doc["paths"]["/search"]["get"]["parameters"] if p["name"] == "q"]
    takes = re.search(param["schema"]["pattern"], q) is not None
    status, _, body = desk.request("GET", "/search?q=" + quote(q))
    odd = [c for c in q if ord(c) < 0x10000 and not c.isspace() and unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs")]
    assert (status == 200) == takes and takes == (bool(q.strip()) and not odd), (q, status, body)
    if odd:
        assert body["error"]["message"].startswith(f"U+{ord(odd[0]):04X} ("), body


def test_a_query_that_is_not_utf8_is_refused_naming_the_parameter(desk):
    """Bytes that are no UTF-8 would be read as U+FFFD and searched for (finding nothing): refused instead."""
    status, _, body = desk.request("GET", "/search?q=re%FFvoke")
    assert status == 400 and body["error"] == {"field": "q", "message": "not UTF-8 text: the byte %FF is no character; "
                                                                      "percent-encode the words as UTF-8"}
    status, _, body = desk.request("GET", "/diff?a=wcny-1913&b=%C0%AF")
    assert status == 400 and body["error"]["field"] == "b"
    status, _, body = desk.request("GET", "/search?q=%EF%BD%92%EF%BD%85%EF%BD%96%EF%BD%8F%EF%BD%8B%EF%BD%85")
    assert status == 200 and body == desk.request("GET", "/search?q=revoke")[2]  # full-width letters are letters


def test_openapi_document_is_valid_and_reuses_the_schemas(desk):
    status, _, doc = desk.request("GET", "/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.1")
    schemas = doc["components"]["schemas"]
    published = json.loads((ROOT / "schema" / "ruling.schema.json").read_text())
    assert schemas["Ruling"]["properties"]["trace"] == published["properties"]["trace"]
    assert schemas["Ruling"]["properties"]["effects"]["items"] == {"$ref": "#/components/schemas/RulingEffect"}
    assert doc["paths"]["/rule"]["post"]["requestBody"]["content"]["application/json"]["schema"] == \
        {"$ref": "#/components/schemas/Incident"}
    for p in ("/codes", "/codes/{id}/laws/{n}", "/search", "/rule", "/score", "/auction", "/diff", "/kinds",
              "/casebook", "/log"):
        assert p in doc["paths"]
    assert [p["name"] for p in doc["paths"]["/rule"]["post"]["parameters"]] == ["log", "Idempotency-Key"]
    assert "securitySchemes" not in doc["components"]  # this desk takes no token
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(doc)
    from bridgelaw.openapi import for_loaded_codes

    with_token = for_loaded_codes(token=True)
    validator.validate(with_token)
    assert with_token["security"] and all("401" in op["responses"] for item in with_token["paths"].values()
                                          for op in item.values())


schemathesis = pytest.importorskip("schemathesis")


def _document() -> dict[str, Any]:
    """The document the desk serves (built here, so that the tests are generated at collection time)."""
    from bridgelaw.openapi import for_loaded_codes

    return for_loaded_codes()


def test_the_desk_serves_the_document(desk):
    assert desk.request("GET", "/openapi.json")[2] == _document()


def _schema(mode: str) -> Any:
    from schemathesis.generation import GenerationMode

    s = schemathesis.openapi.from_dict(_document())
    s.config.generation.update(modes=[GenerationMode(mode)])
    # a body that breaks the document may also be refused for its size (413): that is a refusal too
    rejection = s.config.checks.negative_data_rejection
    rejection.expected_statuses = [*rejection.expected_statuses, "413"]
    return s


positive, negative = _schema("positive"), _schema("negative")
FUZZ = dict(max_examples=int(os.environ.get("BRIDGELAW_FUZZ_EXAMPLES", "25")), deadline=None,
            suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])


# Bodies whose schemas cannot state everything the engine checks (an offence_at past the auction's end, a
# "insufficient" bid that is sufficient, a choice that is not one of the ruling's options, a score sheet's
# cross-field rules, interview answers that contradict one another): a schema-valid body may still be refused by
# the engine, with a 422 naming the field. An incident (POST /rule) only by a field of bridgelaw.incident.CROSS_FIELD:
# its schema names the codes, the kinds, each kind's facts and three-hand's empty seats. GET /diff: the two codes
# must differ (a 400 naming b).
SEMANTIC = {"POST /rule", "POST /log", "POST /score", "POST /auction", "POST /interview", "GET /diff"}


@positive.parametrize()
@pytest.mark.timeout(300)
@settings(**FUZZ)
def test_schema_valid_requests_are_accepted(case, desk):
    """Generated schema-valid requests for every operation: no server error, every response as documented
    (status, content type, body, headers). None is refused by the desk itself: every GET is answered
    (positive_data_acceptance), and a body is never refused as malformed, too large, or not JSON; only the
    engine may refuse what the schema cannot say, with its one-line 422."""
    if case.operation.label not in SEMANTIC:
        case.call_and_validate(base_url=desk.url.rstrip("/"))
        return
    response = case.call_and_validate(base_url=desk.url.rstrip("/"),
                                      excluded_checks=[schemathesis.checks.positive_data_acceptance])
    assert response.status_code in ((200, 400) if case.method == "GET" else (200, 404, 409, 422)), response.text[:300]
    if response.status_code != 200:
        err = one_error(response.json())
        if case.operation.label == "GET /diff":
            assert err["field"] == "b" and case.query["a"] == case.query["b"], err
        if case.operation.label == "POST /rule" and response.status_code != 409:  # (409: a key used twice)
            from bridgelaw.incident import cross_field  # the schema states all but what is left to the engine

            assert response.status_code == 422 and cross_field(err["field"] or ""), (case.body, err)


@negative.parametrize()
@pytest.mark.timeout(300)
@settings(**FUZZ)
def test_schema_invalid_requests_are_refused(case, desk):
    """Generated requests that break the document: no server error, and each refused with a 4xx as documented
    (negative_data_rejection)."""
    case.call_and_validate(base_url=desk.url.rstrip("/"))


def test_the_document_accepts_every_casebook_case(desk):
    """The request schemas describe what the engine takes: every casebook incident and result passes them."""
    from bridgelaw.casebook import load_cases

    rulings = ROOT / "rulings"
    for case in load_cases(rulings):
        assert desk.server.desk.checker.body("POST", "/rule", json.loads(json.dumps(case.incident, default=str))) \
            is None, case.path
    for case in load_cases(rulings, scores=True):
        assert desk.server.desk.checker.body("POST", "/score", json.loads(json.dumps(case.incident, default=str))) \
            is None, case.path


def test_a_bug_is_one_line_in_the_desks_log_and_a_json_500(desk, monkeypatch, caplog):
    def broken(entry_id: int) -> Any:
        return {"not": "an entry"}[entry_id]  # a KeyError, as a bug in the engine would raise

    monkeypatch.setattr(desk.server.log, "get", broken)
    with caplog.at_level(logging.INFO, logger="bridgelaw.desk"):
        status, _, data = desk.request("GET", "/log/1")
    assert status == 500 and "KeyError" in one_error(data)["message"]
    lines = [r.getMessage() for r in caplog.records if r.name == "bridgelaw.desk"]
    assert len(lines) == 1 and "\n" not in lines[0] and "KeyError" in lines[0] and "test_server.py" in lines[0]
    assert all(r.exc_info is None for r in caplog.records)  # no traceback anywhere


def test_the_document_lists_exactly_the_routes_and_methods_the_desk_serves(desk):
    """The document against the desk's routes: every path and method served is documented and no other; a method
    the document does not list is a 405 naming the allowed ones; a documented GET takes no body and a documented
    POST takes only the body its document states, so its other refusals (415, 400) are documented too."""
    from bridgelaw.server import ROUTES

    doc = desk.request("GET", "/openapi.json")[2]
    served = {(path, m.lower()) for path, methods in ROUTES for m in methods}
    documented = {(path, m) for path, item in doc["paths"].items() for m in item}
    assert served == documented
    for path, item in doc["paths"].items():
        concrete = path.replace("{id}", "wcny-1913" if path.startswith("/codes") else "1").replace("{n}", "84")
        allowed = {m.upper() for m in item} | ({"HEAD"} if "get" in item else set())
        for method in ("GET", "POST", "PUT", "DELETE", "PATCH"):
            if method in allowed:
                continue
            status, headers, body = desk.request(method, concrete)
            assert status == 405 and set(headers["allow"].split(", ")) == allowed, (method, path, status)
            assert one_error(body)["field"] == "method"
        for method, op in item.items():
            if method == "get":
                assert "requestBody" not in op
                continue
            assert list(op["requestBody"]["content"]) == ["application/json"]
            for header, value in (("Content-Type", "text/plain"), ("Content-Type", "application/json; charset=latin-1"),
                                  ("Content-Type", "application/json; v=2"), ("Content-Encoding", "gzip")):
                status, _, body = desk.request("POST", concrete, raw=b"{}", headers={
                    "Content-Type": "application/json", header: value})
                assert status == 415 and "415" in op["responses"], (path, header, value, status)
                assert one_error(body)["field"] == header


@pytest.mark.parametrize("raw, words", [
    (b"\xef\xbb\xbf{}", "byte-order mark"),
    (b'{"tricks": ' + b"9" * 5000 + b"}", "a number of 5000 digits"),
    (b'{"tricks": -' + b"9" * 41 + b"}", "a number of 41 digits"),
])
def test_a_body_the_desk_cannot_read_as_sent_is_refused_in_its_own_words(desk, raw, words):
    status, _, body = desk.request("POST", "/score", raw=raw, headers={"Content-Type": "application/json"})
    err = one_error(body)
    assert status == 400 and err["field"] == "body" and words in err["message"], body
    assert "sys." not in err["message"] and "utf-8-sig" not in err["message"]


@pytest.mark.parametrize("path, key, inner", [
    ("/score", "result", {"code": "wcny-1913", "declarer": "S", "contract": "4H", "tricks": 10}),
    ("/rule", "incident", {"code": "wcny-1913", "irregularity": "revoke"}),
])
def test_a_casebook_entry_sent_to_the_desk_is_refused_naming_the_field_it_wraps(desk, path, key, inner):
    status, _, body = desk.request("POST", path + ("?log=false" if path == "/rule" else ""),
                                   {"name": "an entry", key: inner})
    err = one_error(body)
    assert status == 422 and err["field"] == key and "casebook entry" in err["message"], body
    assert desk.request("POST", path + ("?log=false" if path == "/rule" else ""), inner)[0] == 200


_TOKEN = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789-_.UTF"), min_size=1, max_size=12)


@pytest.mark.timeout(120)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(params=st.lists(st.tuples(st.one_of(st.just("charset"), _TOKEN), _TOKEN), max_size=3),
       coding=st.one_of(st.none(), st.sampled_from(["identity", "gzip", "br", "deflate", "x-custom"])))
def test_a_json_body_is_read_only_as_the_utf8_it_says_it_is(desk, params, coding):
    """Content-Type with any parameters and any Content-Encoding: scored only where the body is declared UTF-8
    (charset=utf-8 or none) and sent unencoded; else a 415 naming the header, never a body read otherwise."""
    ctype = "; ".join(["application/json", *(f"{k}={v}" for k, v in params)])
    headers = {"Content-Type": ctype, **({"Content-Encoding": coding} if coding else {})}
    status, _, body = desk.request("POST", "/score", {"code": "wcny-1913", "declarer": "S", "contract": "4H",
                                                      "tricks": 10}, headers=headers)
    utf8 = all(k.lower() == "charset" and v.lower() in ("utf-8", "utf8") for k, v in params)
    plain = coding in (None, "identity")
    if utf8 and plain:
        assert status == 200, (headers, body)
    else:
        assert status == 415 and one_error(body)["field"] == ("Content-Type" if not utf8 else "Content-Encoding"), \
            (headers, body)


@pytest.mark.parametrize("path, body, field, message", [
    ("/auction", {"code": "wcny-1913", "dealer": "S", "calls": ["P"] * 3000}, "calls", "3000 items; at most"),
    ("/score", {"code": "wcny-1913", "declarer": "S", "contract": "4H", "tricks": 10, "note": "x" * 900}, "note",
     "900 characters; at most 500 are taken"),
])
def test_a_size_bound_broken_is_said_by_its_numbers_not_the_values_repr(desk, path, body, field, message):
    got = desk.server.desk.checker.body("POST", path, body)
    assert got is not None and got[0] == field and got[1].startswith(message) and "['P'" not in got[1], got


def test_free_texts_take_no_control_characters_one_pattern_everywhere(desk):
    """A note or a reason (an incident's, a sheet's, the referee's in the log) is refused a control character (a
    NUL, an escape sequence that `bridgelaw log` would write to a terminal): the schemas' pattern is the engine's."""
    from bridgelaw.limits import NOTE_PATTERN

    found = []

    def walk(o: Any, at: str) -> None:
        if isinstance(o, dict):
            for k, v in o.items():
                if k in ("note", "reason") and isinstance(v, dict) and "string" in str(v.get("type")):
                    found.append((at + "." + k, v.get("pattern")))
                walk(v, at + "." + str(k))
        elif isinstance(o, list):
            for i, v in enumerate(o):
                walk(v, f"{at}[{i}]")

    for name in ("incident", "score"):
        walk(json.loads((ROOT / "schema" / f"{name}.schema.json").read_text()), name)
    walk({k: v for k, v in _document()["components"]["schemas"].items()
          if k not in ("Law", "LogEntry", "LogSummary")}, "openapi")  # (answers: a law's note; entries as kept)
    assert len(found) >= 8 and all(p == NOTE_PATTERN for _, p in found), found
    assert any(at.startswith("openapi.") for at, _ in found), found
    status, headers, _ = desk.request("POST", "/rule", {"code": "wcny-1913", "irregularity": "insufficient_bid",
                                                       "dealer": "S", "offender": "W",
                                                       "facts": {"call": "1S", "previous_bid": "1C"}})
    entry = int(headers["x-bridgelaw-log-id"])
    status, _, body = desk.request("POST", "/log", {"id": entry, "note": "seen \x1b]0;title\x07"})
    assert status == 422 and body["error"]["field"] == "note" and body["error"]["message"].startswith("U+001B"), body
