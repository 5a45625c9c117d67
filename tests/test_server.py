"""The referee's desk over HTTP: the JSON API against the CLI's contracts, safety, the ruling log, the kill test,
and schemathesis against /openapi.json."""

from __future__ import annotations

import http.client
import io
import json
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
from hypothesis import HealthCheck, Phase, settings

from bridgelaw import cli
from bridgelaw.rulinglog import RulingLog
from bridgelaw.server import MAX_BODY, make_server
from conftest import ROOT

REVOKE = {"code": "wcny-1913", "irregularity": "revoke", "offender": "N", "declarer": "E",
          "facts": {"established": True, "revokes_by_side": 1}}
INSUFFICIENT = {"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]}
RUBBER = ROOT / "rulings" / "wcny-1913" / "scores" / "fosters-we-they-rubber-is-won-by-they-by-450.yaml"
RULING_V = jsonschema.Draft202012Validator(json.loads((ROOT / "schema" / "ruling.schema.json").read_text()))


class Desk:
    """A desk on an ephemeral port, served from a thread of this process."""

    def __init__(self, log_path: Path) -> None:
        self.server = make_server("127.0.0.1", 0, log_path, quiet=True)
        self.port = self.server.server_address[1]
        self.url = self.server.url
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                raw: bytes | None = None) -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
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

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.server.log.close()


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
    import yaml

    result = yaml.safe_load(RUBBER.read_text())["result"]
    status, _, data = desk.request("POST", "/score", result)
    rc, out, _ = run_cli(capsys, monkeypatch, "score", str(RUBBER), "--json")
    assert status == 200 and data == json.loads(out) and data["rubber"]["won_by"] == "EW"

    for calls in (["1H", "1S"], ["1H", "2C", "P", "2H", "P", "P", "P"], ["1H", "W:2C"]):
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


# ------------------------------------------------------------------ errors and safety


@pytest.mark.parametrize("path", [
    "/codes/..%2F..%2Fetc/laws/1", "/codes/../laws/1", "/codes/%2e%2e/laws/1", "/codes/wcny-1913%00/laws/1",
    "/codes/wcny-1913/laws/..%2F..%2F..%2Fetc%2Fpasswd", "/codes/wcny-1913/laws/%2Fetc%2Fpasswd",
    "/codes/laws/laws/1", "/codes/wcny-1913/laws/98", "/codes/nope", "/codes/%2E%2E",
])
def test_paths_cannot_reach_outside_laws(desk, path):
    status, headers, data = desk.request("GET", path)
    assert status == 404 and headers["content-type"] == "application/json"
    assert isinstance(data, dict) and data["error"] and "Traceback" not in data["error"]
    assert "root:" not in json.dumps(data)


def test_unknown_routes_and_methods(desk):
    status, _, data = desk.request("GET", "/nope")
    assert status == 404 and "no such resource" in data["error"]
    status, _, data = desk.request("GET", "/codes/")
    assert status == 404
    status, headers, data = desk.request("DELETE", "/codes")
    assert status == 405 and headers["allow"] == "GET, HEAD"
    status, headers, _ = desk.request("GET", "/rule")
    assert status == 405 and headers["allow"] == "POST"


def test_bad_input_is_one_line_never_a_traceback(desk):
    from bridgelaw import InputError, rule

    bad = {"code": "wcny-1913", "irregularity": "revok"}
    with pytest.raises(InputError) as e:
        rule(bad)
    status, _, data = desk.request("POST", "/rule", bad)
    assert status == 422 and data["error"] == str(e.value) and data["field"] == "irregularity"

    cases = [
        (b"{not json", "application/json", 400),
        (b"", "application/json", 400),
        (b"NaN", "application/json", 400),
        (b"[1, 2]", "application/json", 422),
        (json.dumps({"code": "wcny-1913", "irregularity": "revoke", "offender": "Q"}).encode(), "application/json", 422),
        (json.dumps({"code": "x", "irregularity": "revoke"}).encode(), "application/json", 422),
        (json.dumps(REVOKE).encode(), "text/plain", 415),
        (b"\xff\xfe", "application/json", 400),
        (b"[" * 100000, "application/json", 413),
        (b"[" * 60000, "application/json", 400),
    ]
    for raw, ctype, want in cases:
        status, _, data = desk.request("POST", "/rule", raw=raw, headers={"Content-Type": ctype})
        assert status == want, (raw[:40], data)
        assert isinstance(data, dict) and "\n" not in data["error"] and "Traceback" not in data["error"]

    for path, want in (("/search", 400), ("/search?q=", 400), ("/diff?a=wcny-1912", 400),
                       ("/diff?a=wcny-1912&b=nope", 400), ("/diff?a=wcny-1912&b=wcny-1913&topic=nope", 400),
                       ("/casebook?code=nope", 400), ("/log?limit=abc", 400), ("/log?limit=0", 400),
                       ("/log/abc", 404), ("/log/99999999", 404)):
        status, _, data = desk.request("GET", path)
        assert status == want and data["error"], path

    status, _, data = desk.request("POST", "/auction", {"code": "wcny-1913", "dealer": "S", "calls": ["1H", "9Z"]})
    assert status == 422 and "9Z" in data["error"]
    status, _, data = desk.request("POST", "/score", {"code": "wcny-1913"})
    assert status == 422 and data["field"]


def test_body_size_limit_is_413_and_the_connection_survives(desk):
    conn = http.client.HTTPConnection("127.0.0.1", desk.port, timeout=30)
    body = json.dumps({**REVOKE, "note": "x" * MAX_BODY}).encode()
    conn.request("POST", "/rule", body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    assert resp.status == 413 and "at most" in json.loads(resp.read())["error"]
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


def test_host_header_must_be_this_desk(desk):
    status, _, data = desk.request("GET", "/codes", headers={"Host": "evil.example:8913"})
    assert status == 403 and "localhost" in data["error"]
    assert desk.request("GET", "/codes", headers={"Host": f"localhost:{desk.port}"})[0] == 200


def test_the_page_is_self_contained(desk):
    status, headers, page = desk.request("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in headers["content-security-policy"]
    text = page.decode()
    assert '<meta name="viewport"' in text and "@media" in text
    # nothing from elsewhere: no external scripts, styles, fonts or images
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:)?//""", text)
    assert not re.search(r"url\(\s*['\"]?(https?:)?//|@import", text)
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
        assert status == want and data["error"], body
    # a ruling logged in one go, with its choice and note
    status, _, other = desk.request("POST", "/log", {"incident": INSUFFICIENT, "choice": "penalize", "note": "4S"})
    assert status == 200 and other["id"] > entry_id and other["ruling"]["options"][0]["id"] == "penalize"

    status, _, log = desk.request("GET", "/log?limit=5")
    assert status == 200 and log["entries"][-1]["id"] == other["id"]
    mine = next(e for e in log["entries"] if e["id"] == entry_id)
    assert mine["laws"] == ["84"] and mine["choice"] == "tricks" and "ruling" not in mine
    status, _, full = desk.request("GET", f"/log/{entry_id}")
    assert status == 200 and full["ruling"]["laws"][0]["number"] == "84"

    # bridgelaw log, and its CSV export
    path = str(desk.server.log.path)
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--log", path)
    assert rc == 0 and f"#{entry_id}" in out and "chose: tricks" in out and "East took three" in out
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--log", path, "--csv")
    import csv

    rows = list(csv.DictReader(io.StringIO(out)))
    row = next(r for r in rows if r["id"] == str(entry_id))
    assert rc == 0 and row["choice"] == "tricks" and row["note"] == "East took three" and row["laws"] == "84"
    assert json.loads(row["incident"]) == REVOKE and json.loads(row["ruling"])["code"] == "wcny-1913"
    monkeypatch.setenv("BRIDGELAW_LOG", path)
    rc, out, _ = run_cli(capsys, monkeypatch, "log", "--json", "--limit", "1")
    assert rc == 0 and json.loads(out)[0]["id"] == other["id"]


def test_log_of_nothing_and_default_path(tmp_path, capsys, monkeypatch):
    from bridgelaw.rulinglog import default_path

    monkeypatch.setenv("BRIDGELAW_LOG", str(tmp_path / "none.sqlite3"))
    assert default_path() == tmp_path / "none.sqlite3"
    rc, out, _ = run_cli(capsys, monkeypatch, "log")
    assert rc == 0 and "no rulings logged yet" in out and not (tmp_path / "none.sqlite3").exists()
    monkeypatch.delenv("BRIDGELAW_LOG")
    assert default_path() == Path.home() / ".local" / "share" / "bridgelaw" / "rulings.sqlite3"


def test_the_log_is_wal_and_each_write_one_transaction(tmp_path):
    book = RulingLog(tmp_path / "log.sqlite3")
    from bridgelaw import rule

    ruling = rule(REVOKE).to_dict()
    ids = [book.record(REVOKE, ruling) for _ in range(3)]
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
                             headers={"Content-Type": "application/json"})
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
    deadline = time.monotonic() + 20
    while len(acked) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)  # while the writers are writing
    proc.wait(timeout=10)
    stop.set()
    for t in threads:
        t.join(timeout=15)
    assert len(acked) >= 60, "the server acknowledged too few rulings before the kill"

    db = sqlite3.connect(log)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = dict(db.execute("SELECT id, incident FROM rulings").fetchall())
    db.close()
    for entry_id, tag in acked.items():
        assert entry_id in rows, f"acknowledged ruling {entry_id} was lost"
        assert json.loads(rows[entry_id])["note"] == tag

    proc, port = _start_desk(log)  # and the desk starts again on the same log, and goes on logging
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/log?limit=10000")
        data = json.loads(conn.getresponse().read())
        assert {e["id"] for e in data["entries"]} >= set(acked)
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


def test_serve_on_a_busy_port_is_one_line(desk, capsys, monkeypatch, tmp_path):
    rc, _, err = run_cli(capsys, monkeypatch, "serve", "--port", str(desk.port), "--log", str(tmp_path / "l.sqlite3"))
    assert rc == 2 and err.count("\n") == 1 and "cannot listen" in err


# ------------------------------------------------------------------ OpenAPI and schemathesis


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
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(doc)


schemathesis = pytest.importorskip("schemathesis")


def _document() -> dict[str, Any]:
    """The document the desk serves (built here, so that the tests are generated at collection time)."""
    from bridgelaw.loader import code_ids, load_kinds
    from bridgelaw.openapi import document

    return document(code_ids(), list(load_kinds()[1]))


def test_the_desk_serves_the_document(desk):
    assert desk.request("GET", "/openapi.json")[2] == _document()


schema = schemathesis.openapi.from_dict(_document())


@schema.parametrize()
@settings(max_examples=int(os.environ.get("BRIDGELAW_FUZZ_EXAMPLES", "25")), deadline=None,
          suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
def test_api_conforms_to_its_openapi_document(case, desk):
    """Generated requests for every operation; responses checked against the document (status codes, content
    types, bodies, headers), no server error, and invalid input rejected. Not ``positive_data_acceptance``: a
    schema-valid incident may still be wrong (facts of the wrong kind), and the engine says so with a 422."""
    case.call_and_validate(base_url=desk.url.rstrip("/"),
                           excluded_checks=[schemathesis.checks.positive_data_acceptance])


def test_the_document_accepts_every_casebook_case(desk):
    """The request schemas describe what the engine takes: every casebook incident and result passes them."""
    from bridgelaw.casebook import load_cases

    rulings = ROOT / "rulings"
    for case in load_cases(rulings):
        assert desk.server.checker.body("POST", "/rule", json.loads(json.dumps(case.incident, default=str))) is None, \
            case.path
    for case in load_cases(rulings, scores=True):
        assert desk.server.checker.body("POST", "/score", json.loads(json.dumps(case.incident, default=str))) is None, \
            case.path
