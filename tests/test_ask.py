"""`bridgelaw ask` at a terminal: typed answers, one wrong in each interview, and the ruling `rule` gives.

Each interview in tests/interviews/interviews.yaml is typed into a pseudo-terminal one prompt at a time (the
prompts and explanations go to the terminal; with --json only the ruling reaches stdout).
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time

import pytest
import yaml

from conftest import ROOT

INTERVIEWS = yaml.safe_load((ROOT / "tests" / "interviews" / "interviews.yaml").read_text(encoding="utf-8"))


def type_interview(code: str, answers: list[str], *flags: str) -> tuple[str, str]:
    """Run `bridgelaw ask CODE` with stdin and stderr on a pseudo-terminal; type each answer when the prompt
    shows. Returns (stdout, what the terminal showed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "bridgelaw", "ask", code, *flags], stdin=slave, stderr=slave,
                         stdout=subprocess.PIPE, text=True)
    os.close(slave)
    shown = b""

    def read(until_prompt: bool, seconds: float) -> bool:
        """Read what the terminal shows; True once a prompt waits (or, not until_prompt, the child ended)."""
        nonlocal shown
        deadline = time.monotonic() + seconds
        while not (until_prompt and shown.rstrip(b" ").endswith(b">")):
            r, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
            if not r:
                return False
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child has closed the terminal: it ended
                return not until_prompt
            if not chunk:
                return not until_prompt
            shown += chunk
        return True

    try:
        for answer in answers:
            if not read(True, 30):
                raise AssertionError(f"no prompt for {answer!r} (exit {p.poll()}); the terminal showed:\n"
                                     f"{shown.decode(errors='replace')}")
            os.write(master, str(answer).encode() + b"\n")
            shown += b"\n"
        if not read(False, 30) or p.wait(30) is None:
            raise AssertionError(f"the interview wanted more answers; the terminal showed:\n"
                                 f"{shown.decode(errors='replace')}")
        out = p.stdout.read() if p.stdout else ""
    finally:
        if p.poll() is None:
            p.kill()
        if p.stdout:
            p.stdout.close()
        os.close(master)
    assert p.returncode == 0, shown.decode()
    return out, shown.decode(errors="replace")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", INTERVIEWS, ids=[c["name"] for c in INTERVIEWS])
def test_an_interview_typed_at_the_terminal_rules_as_rule_does(case):
    from bridgelaw import api

    out, shown = type_interview(case["code"], case["answers"], "--json")
    assert "!" in shown, "each interview types one wrong answer, which must be explained"
    assert json.loads(out) == json.loads(json.dumps(api.rule(case["incident"])))  # what `rule --json` prints
    incident_out, _ = type_interview(case["code"], case["answers"], "--incident")
    assert json.loads(incident_out) == case["incident"]


def test_the_kind_menu_is_numbered_and_grouped_by_phase():
    from bridgelaw.interview import Interview

    iv = Interview(code="wcny-1913")
    step = iv.step()
    assert step.key == "irregularity"
    groups = [c.group for c in step.choices]
    assert groups == sorted(groups, key=("deal", "auction", "play", "scoring").index)
    assert [c.number for c in step.choices] == list(range(1, len(step.choices) + 1))


@pytest.mark.parametrize("typed, kind", [("revoke", "revoke"), ("Revoke", "revoke"),
                                         ("lead out of turn", "lead_out_of_turn"),
                                         ("bid out of turn", "call_out_of_turn"),
                                         ("insufficient bid", "insufficient_bid"),
                                         ("a card exposed during the play", "exposed_card")])
def test_words_typed_find_the_kind(typed, kind):
    from bridgelaw.interview import Interview

    iv = Interview(code="wcny-1913")
    iv.give(typed)
    assert iv.irregularity == kind


@pytest.mark.parametrize("typed, card", [("KS", "SK"), ("SK", "SK"), ("king of spades", "SK"), ("K♠", "SK"),
                                         ("10 of hearts", "HT"), ("ten of hearts", "HT"), ("h10", "HT"),
                                         ("the deuce of clubs", "C2"), ("qd", "DQ")])
def test_a_card_as_a_referee_says_it(typed, card):
    from bridgelaw.interview import parse_card

    assert parse_card(typed) == card


@pytest.mark.parametrize("typed", ["KZ", "king", "spades", "11 of hearts", ""])
def test_a_card_that_is_not_one_is_explained(typed):
    from bridgelaw.errors import InputError
    from bridgelaw.interview import parse_card

    with pytest.raises(InputError, match="king of spades"):
        parse_card(typed)


def test_the_interview_never_asks_for_what_the_calls_show():
    """The old interview asked for the lowest sufficient bid and believed 2S over 1H; now it asks for the
    calls and the engine works out 4S."""
    from bridgelaw.interview import Interview

    iv = Interview(code="wcny-1913")
    iv.give("insufficient bid")
    asked = []
    for answer in ("S", "1H 1S"):
        asked.append(iv.step().key)
        iv.give(answer)
    assert asked == ["dealer", "auction"] and iv.step() is None
    r = iv.ruling()
    assert r.options[0].effects[0].to_dict() == {"kind": "amend_call", "seat": "W", "call": "4S"}


def test_answers_kept_by_a_client_resume_the_interview():
    from bridgelaw.interview import Interview

    iv = Interview(code="wcny-1913")
    for a in ("revoke", "E", "S", "1H P P P"):
        iv.give(a)
    again = Interview.from_dict(json.loads(json.dumps(iv.to_dict())))
    assert again.step() == iv.step() and again.step().key == "facts.established"
