"""Comparing editions: alignment, text, parameters, provisions, rulings, history, audit, HTML."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import bridgelaw
from bridgelaw.compare import align, audit, diff_codes, history, render, ruling_diff, word_diff


def test_renumbered_laws_pair_up_by_text():
    pairs = align(bridgelaw.load_code("wcny-1912"), bridgelaw.load_code("wcny-1913"))
    by_a = {p.a.number: p for p in pairs if p.a}
    # the missing-card law is 38 in 1912 and 40 in 1913
    assert by_a["38"].b is not None and by_a["38"].b.number == "40" and by_a["38"].how == "text"
    assert by_a["84"].b.number == "84"


def test_word_diff_shows_the_revoke_penalty_change():
    ops = word_diff("his adversaries add 150 points", "his adversaries add 100 points")
    assert ("-", "150") in ops and ("+", "100") in ops


def test_parameter_differences_between_1912_and_1913():
    d = diff_codes("wcny-1912", "wcny-1913")
    params = {n: (a, b) for n, a, b in d.params}
    assert params["penalty.revoke"] == (150, 100)
    assert params["chicane"] == (2, None)  # chicane dropped in 1913


def test_topic_filter_and_formats():
    d = diff_codes("wcny-1912", "wcny-1913", topic="impossible-bid")
    assert d.pairs and all("impossible-bid" in p.topics for p in d.pairs)
    text = render(d, "text")
    assert "all the tricks" in text and "seven" in text
    assert render(d, "markdown").startswith("# wcny-1912")
    assert '"a": "wcny-1912"' in render(d, "json")


def test_ruling_diff_finds_the_revoke_penalty_difference():
    res = ruling_diff("wcny-1912", "wcny-1913", ["revoke"])
    assert res["incidents"] > 100
    points = [g for g in res["groups"]
              if "score 150" in g["wcny-1912"]["does"] and "score 100" in g["wcny-1913"]["does"]]
    assert points, "the revoke costs 150 under 1912 and 100 under 1913"
    ex = points[0]["example"]
    r12 = bridgelaw.rule({"code": "wcny-1912", **ex})
    r13 = bridgelaw.rule({"code": "wcny-1913", **ex})
    assert "150" in str(r12.to_dict()["options"] + r12.to_dict()["effects"])
    assert "100" in str(r13.to_dict()["options"] + r13.to_dict()["effects"])


def test_history_reads_a_topic_in_date_order():
    rows = history("revoke")
    years = [r["year"] for r in rows]
    assert years == sorted(years)
    assert any(r["code"] == "wcny-1913" and any(law["number"] == "84" for law in r["laws"]) for r in rows)


def test_audit_reports_silence_with_an_example():
    res = audit("wcny-1913")
    assert res["incidents"] > 0
    assert all("example" in x for x in res["silent"])


def test_unknown_topic_is_bad_input():
    proc = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "diff", "wcny-1912", "wcny-1913", "--topic", "revok"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "did you mean 'revoke'" in proc.stderr


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is installed by .ci/run")
def test_html_report_renders_offline_in_headless_chromium(tmp_path):
    page = tmp_path / "diff.html"
    page.write_text(render(diff_codes("wcny-1912", "wcny-1913", topic="revoke"), "html"), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert "laws aligned" in dom.stdout
    assert "<del>150</del>" in dom.stdout and "<ins>100</ins>" in dom.stdout
    shot = tmp_path / "diff.png"
    subprocess.run([CHROMIUM, *flags, f"--screenshot={shot}", "--window-size=1000,800", page.as_uri()],
                   capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10_000
