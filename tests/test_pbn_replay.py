"""What a PBN record means, replayed (tests/pbn/replay.yaml), and the examples."""

from __future__ import annotations

import json

import pytest
import yaml

from bridgelaw.pbn import read_pbn
from bridgelaw.replay import replay_game

from conftest import ROOT

DATA = yaml.safe_load((ROOT / "tests" / "pbn" / "replay.yaml").read_text(encoding="utf-8"))


def game_of(case):
    text = case["pbn"]
    if "[Deal " not in text:
        text += f'[Deal "{DATA["deal"]}"]\n'
    return read_pbn(text)[0]


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["name"] for c in DATA["cases"]])
def test_a_record_replays_to_what_it_means(case):
    res, _ = replay_game(game_of(case), case.get("code", DATA["code"]))
    exp = case["expect"]
    assert res.status == exp["status"], res.reason
    for k in ("contract", "declarer", "tricks", "score", "source", "code"):
        if k in exp:
            assert getattr(res, k) == exp[k], k
    if "rulings" in exp:
        assert [[r["kind"], r["remedy"]] for r in res.rulings] == exp["rulings"]
    if "at" in exp:
        assert [r["at"] for r in res.rulings] == exp["at"]
    for k in ("reason", "reason2"):
        if k in exp:
            assert exp[k] in res.reason, res.reason
    if "where" in exp:
        assert res.where == f"<pbn>:{exp['where']}"
    if "note" in exp:
        assert any(exp["note"] in n for n in res.notes), res.notes
    line = res.json_line()  # the replay --json line: the result as one line of JSON, its text not escaped
    assert "\n" not in line and line == json.dumps(res.to_json(), ensure_ascii=False)
