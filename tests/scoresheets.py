"""Mostly-valid score sheets for fuzzing `bridgelaw.score`, and the checks every score must pass.

Used by tests/test_score_sheets.py (through hypothesis) and benchmarks/fuzz_scoring.py (10,000 sheets).
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEATS = "NESW"
HELD = ["three_between_partners", "four_between_partners", "five_between_partners", "four_in_one_hand",
        "four_in_one_hand_fifth_in_partners", "five_in_one_hand", "three_aces_between_partners",
        "four_aces_between_partners", "four_aces_in_one_hand", "six_in_one_hand"]
CHOICES = ["tricks", "points", "take-tricks", "deduct-value", "add-value", None]
GARBAGE: list[Any] = [None, True, -1, 5, 10 ** 30, "", "NS", "garbage", [], {}, ["N", "N"], 3.5, "9" * 400]


@lru_cache(maxsize=None)
def codes() -> tuple[tuple[str, str, int, tuple[str, ...]], ...]:
    from bridgelaw import load_code
    from bridgelaw.loader import code_ids

    return tuple((c, load_code(c).game, load_code(c).players, tuple(load_code(c).params["trick_values"]))
                 for c in code_ids())


def random_deal(rnd: random.Random) -> str:
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rnd.shuffle(cards)
    hands = []
    for i in range(4):
        mine = cards[i * 13:(i + 1) * 13]
        hands.append(".".join("".join(c[1] for c in mine if c[0] == s) for s in "SHDC"))
    return f"{rnd.choice(SEATS)}:" + " ".join(hands)


def random_sheet(rnd: random.Random, only: str | None = None) -> dict[str, Any]:
    """A deal's sheet (or, now and then, a rubber's) under a random code, or under ``only`` (a deal)."""
    code, game, players, strains = next(c for c in codes() if c[0] == only) if only else rnd.choice(codes())
    strain = rnd.choice(strains + (("R",) if rnd.random() < 0.05 else ()))
    if game == "auction":
        contract = f"{rnd.randint(1, 7)}{strain}{rnd.choice(['', '', 'X', 'XX'])}"
    else:
        contract = strain + rnd.choice(["", "", " x2", " x4", " x8", " x16", " x64"])
    sheet: dict[str, Any] = {"code": code, "declarer": rnd.choice(SEATS), "contract": contract,
                             "tricks": rnd.randint(0, 13)}
    dummy = rnd.choice(SEATS)
    if players == 3:
        sheet["dummy"] = dummy
        while sheet["declarer"] == dummy and rnd.random() < 0.9:
            sheet["declarer"] = rnd.choice(SEATS)
    r = rnd.random()
    if r < 0.3:
        sheet["deal"] = random_deal(rnd)
    elif r < 0.85:
        if players == 3:
            left = 4 if strain == "NT" else 5
            counts = {}
            for s in rnd.sample([x for x in SEATS if x != dummy], rnd.randint(0, 3)):
                counts[s] = rnd.randint(0, left)
                left -= counts[s]
            if rnd.random() < 0.2:  # the dummy's own honours, counted apart from the declarer's (T13)
                counts[dummy] = rnd.randint(0, left + (rnd.random() < 0.1))
                left -= counts[dummy]
            if counts and left > 0 and rnd.random() < 0.85:  # every honour is someone's: the rest to the declarer
                counts[sheet["declarer"]] = counts.get(sheet["declarer"], 0) + left
            if counts:
                sheet["honours"] = counts
        else:  # 'none' can be only at no trumps (two aces each); at a trump declaration the honours go unstated
            h = rnd.choice(["none", {"side": rnd.choice(["NS", "EW"]), "held": rnd.choice(HELD)}])
            if h != "none" or strain == "NT":
                sheet["honours"] = h
            if type(h) is dict and strain != "NT" and type(sheet["declarer"]) is str:  # mostly tricks the honours
                from bridgelaw.scoring.sheet import tricks_against_holding  # can leave (each wins its trick)

                declaring = "NS" if sheet["declarer"] in "NS" else "EW"
                while tricks_against_holding(h["side"], h["held"], declaring, sheet["tricks"]) and rnd.random() < 0.9:
                    sheet["tricks"] = rnd.randint(0, 13)
    if rnd.random() < 0.15:
        sheet["chicane"] = rnd.sample(SEATS, rnd.randint(1, 2))
    if rnd.random() < 0.25:
        sheet["revokes"] = [{"offender": rnd.choice(SEATS), **({"choice": c} if (c := rnd.choice(CHOICES)) else {})}
                            for _ in range(rnd.randint(1, 3))]
    if rnd.random() < 0.15:
        side = rnd.choice([x for x in SEATS if x != dummy]) if players == 3 else rnd.choice(["NS", "EW"])
        sheet["penalties"] = [{"side": side, "points": rnd.choice([50, 100, 25]), "law": rnd.choice(["54", "1", "T5", "A"]),
                               **({"column": rnd.choice(["honour", "trick"])} if rnd.random() < 0.5 else {})}]
    if rnd.random() < 0.3:
        sheet["dealer"] = rnd.choice(SEATS)
        if game != "auction" and sheet["dealer"] != sheet["declarer"] and rnd.random() < 0.9:
            sheet["dealer"] = sheet["declarer"]  # straight bridge: the dealer plays the combined hands
    if rnd.random() < 0.1:
        sheet["original_one_spade"] = rnd.random() < 0.5
    if rnd.random() < 0.15:  # one field spoiled
        key = rnd.choice(list(sheet) + ["chicane", "honours", "tricks", "revokes", "penalties", "deal", "dumy"])
        sheet[key] = rnd.choice(GARBAGE)
    if only is None and rnd.random() < 0.05:
        deals = [random_sheet(rnd, code) for _ in range(rnd.randint(1, 4))]
        for d in deals:
            d.pop("code", None)
        return {"code": code, "deals": deals, **({"unfinished": True} if rnd.random() < 0.3 else {})}
    return sheet


@lru_cache(maxsize=None)
def validators() -> tuple[Any, Any, Any]:
    import jsonschema

    schema = json.loads((ROOT / "schema" / "score.schema.json").read_text(encoding="utf-8"))
    sub = {k: v for k, v in schema.items() if k in ("$schema", "$defs")}
    mk = jsonschema.Draft202012Validator
    return mk({**sub, "$ref": "#/$defs/result"}), mk({**sub, "$ref": "#/$defs/rubber"}), mk(schema)


def schema_valid(sheet: Any) -> bool:
    result, rubber, _ = validators()
    return (rubber if isinstance(sheet, dict) and "deals" in sheet else result).is_valid(sheet)


def problems(sheet: dict[str, Any], s: Any) -> list[str]:
    """What is wrong with a score: a seat the code lacks, totals that do not add up, an invalid JSON view."""
    from bridgelaw import load_code
    from bridgelaw.values import Seat

    out = []
    code = load_code(sheet["code"])
    allowed = {p.value for p in s.players} if code.players == 3 else {"NS", "EW"}
    if code.players == 3 and len(allowed) != 3:
        out.append(f"three-hand score for {sorted(allowed)}")
    for e in s.entries:
        if e.side.value not in allowed:
            out.append(f"entry for {e.side.value}, not one of {sorted(allowed)}")
        if isinstance(e.side, Seat) and code.players != 3:
            out.append(f"a four-hand entry names a seat {e.side.value}")
    t = s.totals()
    for who, cols in t.items():
        for col in ("trick", "honour"):
            want = sum(e.points for e in s.entries if e.side.value == who and e.column == col)
            if cols[col] != want:
                out.append(f"totals.{who}.{col} {cols[col]} != {want}")
        if cols["total"] != cols["trick"] + cols["honour"]:
            out.append(f"totals.{who} do not add up")
    if sum(c["total"] for c in t.values()) != sum(e.points for e in s.entries):
        out.append("an entry is missing from the totals")
    if not validators()[2].is_valid(s.to_dict()):
        out.append("the score is not valid under schema/score.schema.json")
    return out
