"""The command line's conventions, verb by verb (tests/cli/verbs.yaml): --json is JSON and nothing else on
standard output; a bad argument is one line naming the argument as the user typed it."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT

VERBS = yaml.safe_load((ROOT / "tests" / "cli" / "verbs.yaml").read_text(encoding="utf-8"))
BAD = [(v["verb"], b) for v in VERBS for b in v["bad"]]


def _fill(argv: list[str], tmp: Path) -> list[str]:
    return [str(a).replace("{tmp}", str(tmp)) for a in argv]


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
        stdin: str | None = None, case: dict[str, Any] | None = None) -> tuple[int, str, str]:
    """``case`` may give standard input as bytes (``stdin_latin1``: each character one byte) or as closed
    (``stdin_closed``: the process started with ``<&-``, so ``sys.stdin`` is None)."""
    from bridgelaw import cli

    case = case or {}
    monkeypatch.chdir(ROOT)
    if case.get("stdin_closed"):
        monkeypatch.setattr(sys, "stdin", None)
    elif "stdin_latin1" in case:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(case["stdin_latin1"].encode("latin-1")),
                                                           encoding="utf-8", errors="surrogateescape"))
    else:
        monkeypatch.setattr(sys, "stdin", io.StringIO((stdin or "") * case.get("stdin_repeat", 1)))
    capsys.readouterr()
    rc = cli.main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def json_out(text: str) -> Any:
    """Standard output as one JSON document, or as JSON Lines (a line a record)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        assert lines, "nothing on standard output"
        return lines


def test_every_verb_is_held_to_the_conventions():
    from bridgelaw.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert sorted(sub.choices) == sorted(v["verb"] for v in VERBS)
    for name, sp in sub.choices.items():
        assert any("--json" in a.option_strings for a in sp._actions), name
        for a in sp._actions:  # a positional argument is named in the usage line as its refusals name it
            assert a.option_strings or a.metavar == a.metavar.upper(), (name, a.dest)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("verb", [v for v in VERBS if v["verb"] != "serve"], ids=lambda v: v["verb"])
def test_json_is_json_and_nothing_else(verb, capsys, monkeypatch, tmp_path):
    rc, out, err = run(capsys, monkeypatch, _fill(verb["json"], tmp_path), verb.get("stdin"))
    assert rc == 0, err
    data = json_out(out)
    assert data is not None
    if verb["verb"] == "ask":  # only the ruling reaches standard output: the prompts went to standard error
        from bridgelaw import api

        assert data == json.loads(json.dumps(api.rule({"code": "wcny-1913", "irregularity": "insufficient_bid",
                                                       "dealer": "S", "auction": ["1H", "1S"]})))
        assert "What happened?" in err
    if verb["verb"] == "check":
        assert data["ok"] is True and data["problems"] == [] and "casebook rulings" in data["summary"]


@pytest.mark.timeout(60)
def test_serve_json_is_one_line_with_the_url_when_the_desk_listens(tmp_path):
    verb = next(v for v in VERBS if v["verb"] == "serve")
    p = subprocess.Popen([sys.executable, "-m", "bridgelaw", *_fill(verb["json"], tmp_path)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert p.stdout is not None
        ready = json.loads(p.stdout.readline())
        assert set(ready) == {"url", "host", "port", "log"} and ready["log"] == str(tmp_path / "desk.sqlite3")
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", ready["url"]) and ready["url"].endswith(f":{ready['port']}/")
        with urllib.request.urlopen(ready["url"] + "codes", timeout=30) as r:
            assert any(c["id"] == "wcny-1913" for c in json.load(r))
    finally:
        p.terminate()
        out, err = p.communicate(timeout=30)
    assert out == "", out  # nothing but the one line


@pytest.mark.timeout(60)
@pytest.mark.parametrize("verb, bad", BAD, ids=[f"{v} {' '.join(b['argv'][1:])}" for v, b in BAD])
def test_a_bad_argument_is_named_as_typed(verb, bad, capsys, monkeypatch, tmp_path):
    rc, out, err = run(capsys, monkeypatch, _fill(bad["argv"], tmp_path), bad.get("stdin"), bad)
    says = _fill([bad.get("says", "")], tmp_path)[0]
    if bad.get("result_line"):  # the verb's result, a line a record, says it too
        assert out.count("\n") == 1 and says in out, out
        out = ""
    assert rc == 2 and out == "" or verb == "ask" and rc == 2, (rc, out, err)
    assert "Traceback" not in err
    if "usage" in bad:  # argparse's own usage error: the usage line, then what is wrong
        assert bad["usage"] in err and err.startswith("usage: bridgelaw ")
        return
    assert err.count("\n") == 1 and err.startswith("bridgelaw: ") and says in err, err
    assert "laws/" not in err and "--topic:" not in err.replace("bridgelaw: --topic:", "")  # no path a pip user lacks


def test_the_range_of_a_codes_laws_is_each_series_in_order():
    from bridgelaw.api import law_range

    assert law_range(["1", "2", "50a", "50b", "97", "E1", "E12", "A", "H", "T1", "T15"]) == \
        "1 … 97, E1 … E12, A … H, T1 … T15"
    assert law_range(["1"]) == "1" and law_range([]) == ""


@pytest.mark.timeout(60)
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_standard_output_on_a_full_disk_is_one_line_and_exit_1():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "bridgelaw", "codes"], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr == "bridgelaw: standard output: cannot write: No space left on device\n"


@pytest.mark.timeout(60)
def test_a_data_root_without_laws_is_refused_not_read_as_no_codes(tmp_path):
    """BRIDGELAW_DATA naming a folder without laws/ (a typo, a file) is one line and exit 2, not an empty list."""
    import os

    for root in (tmp_path, tmp_path / "no-such-folder"):
        proc = subprocess.run([sys.executable, "-m", "bridgelaw", "codes"], capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "BRIDGELAW_DATA": str(root)}, timeout=60)
        assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
        assert proc.stderr == (f"bridgelaw: BRIDGELAW_DATA: {root}: no laws/ folder there (BRIDGELAW_DATA names the "
                               "folder that holds laws/); unset it for the shipped laws\n")


def test_a_ruling_log_from_the_environment_is_named_as_the_variable(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("BRIDGELAW_LOG", str(tmp_path))
    rc, out, err = run(capsys, monkeypatch, ["log"])
    assert rc == 2 and out == "" and err == (f"bridgelaw: BRIDGELAW_LOG: {tmp_path}: a directory, not a ruling log; "
                                             f"name a file in it, e.g. {tmp_path / 'rulings.sqlite3'}\n")


@pytest.mark.parametrize("argv, says", [
    (["scroe", "x.yaml"], "invalid choice: 'scroe'"),
    (["score", "--jsn", "x.yaml"], "unrecognized arguments: --jsn (did you mean '--json'?)"),
    (["diff", "--rulngs", "wcny-1913", "wcny-1912"], "unrecognized arguments: --rulngs (did you mean '--rulings'?)"),
    (["log", "--lmit", "3"], "unrecognized arguments: --lmit 3 (did you mean '--limit'?)"),
    (["log", "--versio"], "unrecognized arguments: --versio\n"),  # (log's own options: no --version)
])
def test_an_unknown_command_or_option_is_followed_by_the_nearest(argv, says, capsys, monkeypatch):
    rc, out, err = run(capsys, monkeypatch, argv)
    assert rc == 2 and out == "" and err.startswith("usage: bridgelaw") and says in err, err
    if argv[0] == "scroe":
        assert "(did you mean 'score'?)" in err


def _long_options() -> list[tuple[dict[str, Any], str]]:
    from bridgelaw.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    by_verb = {v["verb"]: v for v in VERBS}
    return [(by_verb[name], o) for name, sp in sub.choices.items() for a in sp._actions for o in a.option_strings
            if o.startswith("--") and len(o) > 4]


@pytest.mark.parametrize("verb, option", _long_options(), ids=lambda x: x if isinstance(x, str) else x["verb"])
def test_an_option_is_spelt_whole_never_abbreviated(verb, option, capsys, monkeypatch, tmp_path):
    """argparse would take ``--jso`` as ``--json`` (and an abbreviation could turn ambiguous when an option is
    added): every command refuses an option cut short, and says the option meant."""
    short = option[:-1]
    rc, out, err = run(capsys, monkeypatch, _fill(verb["json"], tmp_path) + [short])
    assert rc == 2 and out == "", (rc, out, err)
    assert f"unrecognized arguments: {short} (did you mean '" in err, err
    assert "Traceback" not in err
