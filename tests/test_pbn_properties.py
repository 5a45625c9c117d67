"""Properties of reading, writing and replaying (hypothesis; derandomized in CI):

* reading what is written gives the same games, for every game the strategy builds (tags, commentary,
  annotated auctions and plays with markers, supplemental sections);
* a deal played through the table with irregularities and remedies chosen at random, written as PBN, read
  and replayed, gives the same auction, play, rulings and score — and writing it again changes nothing;
* the reader, and the replay of what it reads, raise nothing but bridgelaw's own errors on any text, and on
  real-looking files mutated line by line and byte by byte; so does the JSON record path on any JSON.
"""

from __future__ import annotations

import codecs
import contextlib

import io
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bridgelaw.replay.result import STATUSES
from bridgelaw.errors import BridgelawError, InputError
from bridgelaw.pbn import Refusal, iter_games, read_pbn, write_games
from bridgelaw.pbn.model import AUCTION, PLAY, SUPPLEMENTAL, Item, PbnGame, Section, Tag
from bridgelaw.pbn.reader import _parse_full, _simple_game
from bridgelaw.pbn import text as pbn_text
from bridgelaw.pbn.text import decoded_lines, decoded_runs, split_games, split_runs
from bridgelaw.replay import replay_game, replay_record
from bridgelaw.replay.history_writer import history_game
from bridgelaw.replay.table_adapter import TableAdapter

from conftest import ROOT

# ------------------------------------------------------------------ games the strategy builds

_text = st.text(st.characters(min_codepoint=32, max_codepoint=0x24F, blacklist_characters="\x7f"), max_size=12)
_name = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,10}", fullmatch=True).filter(lambda n: n not in ("Auction", "Play"))
_brace = _text.map(lambda s: "{" + s.replace("}", ")") + "}")
_semi = _text.map(lambda s: "; " + s)
_comment = st.one_of(_brace, _semi)
_comments = st.lists(_comment, max_size=2).map(tuple)
_calls = st.sampled_from(["P", "X", "XX", "1C", "1D", "2H", "3S", "4NT", "7NT", "1R"])
_cards = st.sampled_from([s + r for s in "SHDC" for r in "AKQJT98765432"] + ["-"])
_suffix = st.sampled_from([None, "!", "?", "!!", "??", "!?", "?!"])
_note = st.one_of(st.none(), st.integers(1, 32))
_nags = st.lists(st.integers(0, 255), max_size=2).map(tuple)


def _items(tokens: st.SearchStrategy[str], markers: list[str | None], with_skip: bool) -> st.SearchStrategy[list[Item]]:
    one = st.builds(Item, tokens, st.sampled_from(markers), _suffix, _note, _nags, _comments).map(
        lambda i: Item(i.text, None, i.suffix, i.note, i.nags, i.comments) if i.text == "-" else i)
    skip = st.builds(Item, st.just("^S"), comments=_comments.map(lambda c: ()))
    body = st.lists(st.one_of(one, skip) if with_skip else one, max_size=9)
    return st.tuples(body, st.sampled_from([None, "*", "+"])).map(
        lambda x: x[0] + ([Item(x[1])] if x[1] else []))


_element = st.one_of(st.from_regex(r"[!#-$&-:<-Z\\^-z|~]{1,6}", fullmatch=True),
                     _text.map(lambda s: '"' + s.replace("\\", "/").replace('"', "'") + '"'))
_row = st.lists(_element, min_size=1, max_size=4).map(" ".join)
_value = _text.filter(lambda v: not v.startswith("#"))


@st.composite
def games(draw) -> PbnGame:
    tags = []
    for _ in range(draw(st.integers(1, 5))):
        t = Tag(draw(_name), draw(_value), draw(_comments))
        if draw(st.booleans()) and draw(st.booleans()):
            t.section = Section(SUPPLEMENTAL, rows=draw(st.lists(_row, min_size=1, max_size=3)),
                                comments=draw(_comments))
        tags.append(t)
    if draw(st.booleans()):
        tags.insert(draw(st.integers(0, len(tags))), Tag("Auction", draw(st.sampled_from("NESW")), draw(_comments),
                                                          Section(AUCTION, draw(_items(_calls, [None, "I"], True)))))
    if draw(st.booleans()):
        tags.append(Tag("Play", draw(st.sampled_from("NESW")), draw(_comments),
                        Section(PLAY, draw(_items(_cards, [None, "R", "L"], False)))))
    prologue = tuple(draw(st.lists(st.one_of(_comment, _text.map(lambda s: "%" + s)), max_size=2)))
    lead = tuple(draw(st.lists(st.sampled_from(["% PBN 2.1\n% EXPORT", "; a file of deals", "{between}"]),
                               max_size=1)))
    return PbnGame(tags=tags, prologue=prologue, lead=lead)


def _entries(section):
    return [x if type(x) is tuple else (x.text, x.raw, x.line, x.col, x.marker, x.suffix, x.note, x.nags, x.comments)
            for x in section.entries]


def _read_alike(text: str) -> int:
    """Every game of ``text`` the plain reader takes is read by it as the full reader reads it: the same game,
    every tag, call and card at the same line and column, the play's end at the same place. The games it took."""
    taken = 0
    for gt in split_games(decoded_lines(io.BytesIO(text.encode("utf-8")))):
        fast = _simple_game(gt, "f.pbn")
        if fast is None:
            continue
        taken += 1
        # what a replay reads before any tag is made (the plain reader keeps the pairs as found), as the full
        # reader's tags give it: every value (the first of a name, in the index's order), the count, the
        # sections, the auction's plain calls
        values, count = dict(fast.tag_values()), fast.tag_count()
        sections = {name: fast.section(name) for name in ("Auction", "Play", "Deal")}
        calls = sections["Auction"].plain_calls() if sections["Auction"] is not None else None
        full = _parse_full(gt, "f.pbn")
        assert list(values.items()) == list(full.tag_values().items()) and count == len(full.tags)
        if calls is not None:
            assert calls == [e[0] if type(e) is tuple else e.text for e in full.section("Auction").entries]
        assert fast == full
        for name, sec in sections.items():  # the tags, once made, hold the very sections given before
            assert sec is (fast.tag(name).section if fast.tag(name) is not None else None)
        for a, b in zip(fast.tags, full.tags):
            assert (a.line, a.col) == (b.line, b.col)
            assert (a.section is None) == (b.section is None)
            if a.section is not None:
                assert _entries(a.section) == _entries(b.section) and a.section.stop_at() == b.section.stop_at()
    return taken


_MARKS = ["", "", "", "^R ", "^L ", "^R ^L ", "^R  ", "^r ", "^R", " "]
_marked_line = st.one_of(  # mostly four cards with ^R or ^L before some; now and then a line that is not
    st.lists(st.tuples(st.sampled_from(_MARKS[:5]), st.sampled_from(["SA", "HK", "D2", "C9", "ST"])), min_size=4,
             max_size=4),
    st.lists(st.tuples(st.sampled_from(_MARKS), st.sampled_from(["SA", "HK", "D2", "C9", "ST", "*"])), min_size=3,
             max_size=5))


@settings(max_examples=200, deadline=None)
@given(st.lists(_marked_line, min_size=1, max_size=6), st.booleans())
def test_a_play_section_with_markers_before_cards_is_read_by_the_plain_reader_as_the_full_reader_reads_it(lines,
                                                                                                       star):
    """A play section whose lines are four cards with ^R or ^L before some (kept as its lines, the markers
    aside, and unfolded when asked) reads as the full reader reads it: every card, marker, line and column."""
    body = "\n".join(" ".join(m + c for m, c in line) for line in lines) + ("\n*" if star else "")
    text = '[Event "x"]\n[Dealer "N"]\n[Play "E"]\n' + body + "\n"
    taken = _read_alike(text)
    if all(len(line) == 4 and all(m in ("", "^R ", "^L ") and c != "*" for m, c in line) for line in lines):
        assert taken == 1  # (markers before cards alone: the plain reader's)
        gt = next(iter(split_games(decoded_lines(io.BytesIO(text.encode("utf-8"))))))
        kept = _simple_game(gt, "f.pbn").section("Play").plain_lines()
        marked = [j for j, line in enumerate(lines) if any(m for m, _ in line)]
        assert kept is not None and kept[3] == tuple(marked)
        assert kept[0] == [" ".join(c for _, c in line) for line in lines]


def _without_empty(games_read):
    return [g for g in games_read if isinstance(g, Refusal) or g.tags]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=1, max_size=3))
def test_utf_8_read_from_a_file_that_names_no_character_set_gives_the_same_games(gs):
    data = write_games(gs).encode("utf-8")  # as BBO and RealBridge write it: UTF-8, no mark, no charset line
    assert _without_empty(iter_games(data)) == _without_empty(iter_games(codecs.BOM_UTF8 + data)) == gs


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=1, max_size=3))
def test_reading_what_is_written_gives_the_same_games(gs):
    text = write_games(gs)
    back = _without_empty(iter_games(text))
    assert not [g.error for g in back if isinstance(g, Refusal)]
    assert back == gs
    assert write_games(back) == text
    _read_alike(text)


def test_the_plain_reader_reads_the_examples_and_fixtures_as_the_full_reader_does():
    taken = sum(_read_alike(path.read_text(encoding="latin-1")) for path in
                [*(ROOT / "examples").glob("*.pbn"), ROOT / "tests" / "pbn" / "real-world.pbn"])
    assert taken >= 1  # at least one of them is in the plainest export format


@contextlib.contextmanager
def _chunks_of(size: int):
    """The file read ``size`` bytes at a time (its head too), so that chunks end anywhere."""
    saved = pbn_text._HEAD, pbn_text._CHUNK
    pbn_text._HEAD = pbn_text._CHUNK = size
    try:
        yield
    finally:
        pbn_text._HEAD, pbn_text._CHUNK = saved


_plain_split_lines = [
    "", "", "", '[Event "x"]', '[Event"x"]', '[EventDate "y"]', '[Board "1"]', '[Board"2"]',
    '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]', '[Deal"N:-"]', '[Dealer "N"]',
    '[Auction "N"]', "1D Pass", "[Play \"E\"]", "SA HK D2 C9", "% PBN 2.1", "; a comment", "*", "é"]
_other_split_lines = [" ", "\t", "\x0c", "\xa0", " 1D Pass", "{ a comment", "}", "{one} line"]
# mostly files whose chunks are split as text; some with lines that send a chunk line by line
_split_file = st.one_of(st.lists(st.sampled_from(_plain_split_lines), max_size=40),
                        st.lists(st.sampled_from(_plain_split_lines + _other_split_lines), max_size=40))


@settings(max_examples=300, deadline=None)
@given(_split_file, st.sampled_from(["", "\n", "\n\n"]), st.one_of(st.integers(1, 40), st.integers(41, 2000)))
def test_a_file_split_into_games_as_text_gives_the_games_split_line_by_line(lines, end, chunk):
    """A chunk kept as text (no brace comment, no line that begins with white space) is split into games as
    text, and the rest line by line: the same games, wherever the file's chunks end."""
    data = ("\n".join(lines) + end).encode("utf-8")
    with _chunks_of(chunk):
        as_text = list(split_runs(decoded_runs(io.BytesIO(data))))
        by_line = list(split_games(decoded_lines(io.BytesIO(data))))
    assert as_text == by_line
    assert [g.text for g in as_text] == ["\n".join(g.lines) for g in by_line]


# ------------------------------------------------------------------ deals played at the table

_CODES = ["wcny-1913", "wcny-1912", "portland-1909", "wcny-1913-duplicate"]


def _deal(rng: random.Random) -> str:
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rng.shuffle(cards)
    hands = [cards[i::4] for i in range(4)]
    return "N:" + " ".join(".".join("".join(r for r in "AKQJT98765432" if s + r in h) for s in "SHDC") for h in hands)


def _settle(t: TableAdapter, rng: random.Random) -> bool:
    """Choose a remedy at random (a suit or card where it needs one), and for any ruling the remedy makes due;
    an established revoke is now and then taken as not noticed in time (§3.9 (C): no penalty). False when
    none can be applied."""
    for _ in range(4):
        r = t.pending_ruling()
        if r is None:
            return True
        if r.irregularity == "revoke" and r.facts.get("established") and rng.random() < 0.3:
            try:
                r = t.answer(after_next_cut=True)
            except InputError:
                pass
        if r.questions:
            return False
        options = [o.id for o in r.options] or [None]
        rng.shuffle(options)
        for option in options + [None]:
            try:
                t.apply(option, suit=rng.choice("SHDC"), card=None, how="chosen")
                break
            except InputError:
                continue
        else:
            return False
    return t.pending_ruling() is None


def _play_deal(seed: int, code: str, irregular: float) -> TableAdapter:
    rng = random.Random(seed)
    t = TableAdapter(code, rng.choice("NESW"), _deal(rng))
    bids = 0
    for _ in range(60):
        if t.phase != "auction":
            break
        seat = t.next_caller()
        legal = t.table.legal_calls()
        if rng.random() < irregular and bids:  # an insufficient bid, or a call out of rotation
            if rng.random() < 0.5 and t.last_bid():
                low = [f"{lv}{s}" for lv in "1234" for s in "CDHS" if t.insufficient(f"{lv}{s}", t.last_bid())]
                call, seat = (rng.choice(low), seat) if low else (rng.choice(legal), seat)
            else:
                call, seat = rng.choice([c for c in legal if c[:1].isdigit()] or legal), rng.choice(
                    [s for s in "NESW" if s != seat])
        else:
            passes = [c for c in legal if c == "P"]
            call = "P" if passes and (bids >= 2 or rng.random() < 0.3) else rng.choice(
                [c for c in legal if c != "P" and not c.startswith("X")] or legal)
        try:
            ans = t.call(seat, call)
        except InputError:
            continue
        bids += call[:1].isdigit()
        if ans.ruling is not None and not _settle(t, rng):
            assume(False)
    assume(t.phase in ("play", "new_deal", "done"))
    for _ in range(80):
        if t.phase != "play":
            break
        seat = t.next_player()
        legal = t.table.legal_cards()
        hand = t.table.hand(seat)
        card = rng.choice(legal)
        if rng.random() < irregular / 2:
            if t.cards_in_trick == 0:  # a lead out of turn
                seat = rng.choice([s for s in "NESW" if s != seat])
                card = rng.choice(t.table.hand(seat))
            elif [c for c in hand if c not in legal]:  # a renounce holding the suit: a revoke
                card = rng.choice([c for c in hand if c not in legal])
        try:
            ans = t.play(seat, card)
        except InputError:
            continue
        if ans.ruling is not None and not _settle(t, rng):
            assume(False)
        if rng.random() < irregular and t.pending_ruling() is None and any(
                r.seat == seat and not r.established for r in t.table.revokes):
            # the renounce corrected in time, the card of the suit led played instead
            try:
                ans = t.correct_revoke(seat)
            except InputError:
                continue
            led = (t.table.current_trick or t.table.tricks[-1].cards)[0][1][0]
            follow = [c for c in t.table.hand(seat) if c[0] == led]
            r = t.pending_ruling()
            options = [o.id for o in r.options] or [None]
            for option in options:
                try:
                    t.apply(option, card=rng.choice(follow) if follow else None, suit=rng.choice("SHDC"),
                            how="chosen")
                    break
                except InputError:
                    continue
            else:
                assume(False)
            if t.pending_ruling() is not None and not _settle(t, rng):
                assume(False)
    assume(t.phase in ("done", "new_deal"))
    return t


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.integers(0, 2**32 - 1), st.sampled_from(_CODES), st.sampled_from([0.0, 0.1, 0.25]))
def test_a_deal_written_read_and_replayed_is_the_same_deal(seed, code, irregular):
    t = _play_deal(seed, code, irregular)
    try:
        game = history_game(t)
    except InputError:
        assume(False)
    text = write_games([game])
    assert _read_alike(text) == 1  # a deal the table wrote is in the plainest export format
    read = read_pbn(text)[0]
    res, again = replay_game(read, keep=True, write=True)
    assert res.status == "scored", (res.reason, text)
    assert again is not None
    assert again.table.calls == t.table.calls
    assert again.table.tricks == t.table.tricks
    assert again.table.revokes == t.table.revokes
    assert [(r.kind, r.option, r.applied) for r in again.rulings()] == [(r.kind, r.option, r.applied) for r in t.rulings()]
    assert res.score == {k: v["total"] for k, v in t.score(t.result())["totals"].items()}
    # written again from the replay: the same game
    assert read_pbn(res.written) == read_pbn(write_games([history_game(again)])) == [read]


# ------------------------------------------------------------------ never anything but bridgelaw's own errors

_pbnish = st.lists(st.sampled_from(list('[]{}";%^*+-=$!?\\ \t\n\r') + list("ABCDEFHNPSWXacdehlnprstwx0123456789")
                                   + ["Dealer", "Auction", "Play", "Deal", "Pass", "Result", "N:", "\xe9", "\ufeff",
                                      '[Dealer "N"]', '[Auction "N"]', '[Play "E"]', "1NT", "SA", "^I", "^S"]),
                   max_size=120).map("".join)


def _replay_all(data: bytes | str) -> None:
    for g in iter_games(data, "f.pbn"):
        if isinstance(g, Refusal):
            assert g.error.field.startswith("f.pbn")
            continue
        if g.tags:
            res, _ = replay_game(g, "wcny-1913", write=True)
            assert "internal error" not in (res.reason or ""), res.reason
            if res.written:
                list(iter_games(res.written))


@settings(max_examples=200, deadline=None)
@given(_pbnish)
def test_any_text_is_read_or_refused_never_a_traceback(text):
    _replay_all(text)
    _replay_all(text.encode("utf-8", "replace"))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_are_read_or_refused(data):
    _replay_all(data)


_FIXTURES = [(ROOT / "examples" / "insufficient-bid-and-revoke.pbn").read_bytes(),
             (ROOT / "examples" / "one-spade-made.pbn").read_bytes(),
             (ROOT / "tests" / "pbn" / "real-world.pbn").read_bytes()]


@pytest.mark.timeout(300)
@settings(max_examples=150, deadline=None)
@given(st.sampled_from(range(len(_FIXTURES))), st.lists(st.tuples(st.sampled_from(["drop", "dup", "garble", "byte"]),
                                                                   st.integers(0, 10**6), st.integers(0, 255)),
                                                         min_size=1, max_size=6))
def test_real_looking_files_mutated_are_read_or_refused_board_by_board(which, mutations):
    lines = _FIXTURES[which].split(b"\n")
    for how, at, b in mutations:
        i = at % len(lines)
        if how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, lines[i])
        elif how == "garble" and lines[i]:
            j = at % len(lines[i])
            lines[i] = lines[i][:j] + bytes([b]) + lines[i][j + 1:]
        elif how == "byte":
            lines[i] = lines[i] + bytes([b])
        if not lines:
            lines = [b""]
    _replay_all(b"\n".join(lines))


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.sampled_from(["code", "dealer", "deal", "events", "seat", "call", "card", "trick", "apply",
                                          "answer", "by", "suit", "x"]), inner, max_size=5), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(_json, st.sampled_from([None, "wcny-1913"]))
def test_any_json_record_is_replayed_or_refused_at_its_field(record, code):
    if isinstance(record, dict) and "code" not in record and code is None:
        record = dict(record, code="wcny-1913")
    try:
        res, _ = replay_record(record, code)
    except BridgelawError:  # pragma: no cover - replay_record reports, it does not raise
        raise
    assert res.status in STATUSES
    json.dumps(res.to_json())
