"""The ``bridgelaw`` command: a thin shell that translates I/O and errors.

Exit status: 0 success; 1 ``check`` found problems; 2 bad input (one line
naming the field, or ``path:line:col`` with a caret line).

Every verb takes ``--json`` (its output as JSON, and nothing else on standard
output). A refusal names the argument as the user typed it: a positional
argument by its name in the usage line (``CODE``, ``NUMBER``, ``TOPIC``), an
option by its flag (``--code``); codes, topics and seats are checked as the
arguments are read (:data:`CHECKED`).
"""

from __future__ import annotations

import argparse
import errno
import json
import sys
import time

from . import api
from .errors import BridgelawError, InputError

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable, Sequence

__all__ = ["main"]


def _read_input(arg: str) -> Any:
    """An incident or score sheet (YAML or JSON; ``-`` for standard input), read by the same strict reader as
    the law files: any problem is one line naming ``path:line:col``."""
    from .textfile import read_input

    return read_input(arg)[0]


def _wrap(text: str, indent: str = "    ") -> str:
    out = []
    for para in text.split("\n"):
        if not para.strip():
            out.append("")
            continue
        import textwrap  # deferred: not needed to start
        out.append(textwrap.fill(para, width=88, initial_indent=indent, subsequent_indent=indent))
    return "\n".join(out)


# --------------------------------------------------------------------------
# Commands


def coverage_rows() -> list[dict[str, Any]]:
    """One row per code: laws, missing text, remedy-bearing laws, provisions, rulings, provisions without one."""
    from .casebook import load_cases
    from .loader import code_ids, load_code
    from .referee import rule
    from .resources import rulings_dir
    from .sentences import coverage

    root = rulings_dir()
    cases = load_cases(root) if root else []
    scores = load_cases(root, scores=True) if root else []
    rows = []
    for cid in code_ids():
        code = load_code(cid)
        mine = [c for c in cases if c.incident.get("code") == cid]
        covered = {t.provision for c in mine for t in rule(c.incident).trace if t.applied}
        own = [p for p in code.provisions if p.full_id.startswith(cid + "/")]
        rows.append({
            "code": cid, "laws": len(code.laws), "missing_text": sum(1 for law in code.laws if law.missing),
            "remedy_laws": sum(1 for law in code.laws if law.provisions and law.code == cid),
            "provisions": len(own), "rulings": len(mine), "scores": len([c for c in scores
                                                                         if c.incident.get("code") == cid]),
            "without_ruling": [p.full_id for p in own if p.full_id not in covered],
            "sentences": coverage(cid).to_dict(),
        })
    return rows


def cmd_codes(args: argparse.Namespace) -> int:
    if args.coverage:
        rows = coverage_rows()
        if args.json:
            print(json.dumps(rows, indent=2))
            return 0
        print(f"{'code':<22}{'laws':>6}{'missing':>9}{'remedy laws':>13}{'provisions':>12}{'rulings':>9}"
              f"{'scores':>8}{'uncovered':>11}")
        for r in rows:
            print(f"{r['code']:<22}{r['laws']:>6}{r['missing_text']:>9}{r['remedy_laws']:>13}{r['provisions']:>12}"
                  f"{r['rulings']:>9}{r['scores']:>8}{len(r['without_ruling']):>11}")
        for r in rows:
            for pid in r["without_ruling"]:
                print(f"  no ruling: {pid}")
        _print_sentence_coverage([r["sentences"] for r in rows])
        return 0

    rows = api.codes()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        ext = f" (extends {r['extends']})" if r["extends"] else ""
        print(f"{r['id']:<22} {r['year']}  {r['game']:<16} {r['laws']:>4} laws {r['provisions']:>4} provisions  "
              f"{r['title']}{ext}")
    return 0


def _print_sentence_coverage(rows: list[dict[str, Any]]) -> None:
    """The sentence account per code: sentences by tag, remedy-bearing ones, and what nothing accounts for."""
    tags = list(rows[0]["tags"]) if rows else []
    print(f"\n{'sentences':<22}{'all':>6}{'remedy':>8}" + "".join(f"{t:>{max(len(t) + 1, 6)}}" for t in tags)
          + f"{'unaccounted':>13}")
    for r in rows:
        print(f"{r['code']:<22}{r['sentences']:>6}{r['remedy_bearing']:>8}"
              + "".join(f"{r['tags'][t]:>{max(len(t) + 1, 6)}}" for t in tags) + f"{len(r['unaccounted']):>13}")
    for r in rows:
        for f in r["unaccounted"]:
            print(f"  unaccounted: {f['at']}: law {f['law']}: {f['message']}")
        for f in r["problems"]:
            print(f"  problem: {f['at']}: law {f['law']}: {f['message']}")


def cmd_law(args: argparse.Namespace) -> int:
    from .loader import load_code

    code = load_code(args.code)
    number = args.number
    law = api.find_law(code, number, "NUMBER")
    if args.json:
        data = api.law_dict(code, law)
        if args.variants:
            from .witnesses import readings

            data["readings"] = readings(code, law.number)
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    if args.variants:
        from .witnesses import readings_text

        print_after = readings_text(code, law.number)
    else:
        print_after = ""
    shown = law.number if law.number == number or not law.missing else number
    head = f"{code.id} — law {shown}" + (f" ({law.heading})" if law.heading else "")
    print(head)
    if law.missing:
        print(_wrap(f"MISSING: {law.note or 'this law is in no source'}"))
        return 0
    if not law.binding:
        print("    (etiquette: guidance, not law)")
    print(_wrap((law.text or "").replace("[^", "[")))
    for n, t in law.footnotes:
        print(_wrap(f"[{n}] {t}", "      "))
    if law.note:
        print(_wrap(f"Note: {law.note}", "  "))
    if law.provisions:
        print("  provisions: " + ", ".join(p.id for p in law.provisions))
    if print_after:
        print(print_after)
    return 0


def cmd_topics(args: argparse.Namespace) -> int:
    rows = api.topics()
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    width = max(len(r["topic"]) for r in rows)
    for r in rows:
        print(f"{r['topic']:<{width}}  {r['description']}  ({len(r['codes'])} codes)")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    needle = " ".join(args.text).lower()
    if args.json:
        print(json.dumps(api.search(needle, args.code), indent=2, ensure_ascii=False))
        return 0
    hits = api.search_hits(needle, args.code)
    for cid, law in hits:
        text = (law.text or "").replace("\n", " ")
        i = text.lower().find(needle)
        snippet = text[max(0, i - 60): i + 100] if i >= 0 else text[:160]
        print(f"{cid} {law.number:>5}  …{snippet}…")
    print(f"{len(hits)} law(s)")
    return 0


def cmd_kinds(args: argparse.Namespace) -> int:
    from .loader import load_kinds

    if args.json:
        print(json.dumps(api.kinds(), indent=2))
        return 0
    common, kinds = load_kinds()
    print("Facts every kind may use:")
    for n, f in common.items():
        print(f"    {n} ({f.type.name}): {f.ask}" + (f" [derived: {f.derived or f.derive}]" if f.derived or f.derive else ""))
    for k in kinds.values():
        print(f"\n{k.id}  [{k.phase}]  {k.summary}")
        for n, f in k.facts.items():
            t = " | ".join(f.type.choices) if f.type.choices else f.type.name
            extra = (f" [derived: {f.derived or f.derive}]" if f.derived or f.derive else "") + \
                    (f" [if not given: {f.presumed}]" if f.default is not None else "")
            print(f"    {n} ({t}): {f.ask}{extra}")
    return 0


def _print_ruling(r: Any) -> None:
    from .wording import ruling_text

    print(ruling_text(r))


def cmd_rule(args: argparse.Namespace) -> int:
    with _CollectorPaused():
        return _rule(args)


def _rule(args: argparse.Namespace) -> int:
    from .referee import rule

    data = api.unwrap(_read_input(args.file), "incident", "irregularity")  # a casebook entry: its incident
    r = rule(data)
    if args.json:
        print(json.dumps(api.ruling_dict(r), indent=2, ensure_ascii=False))
        return 0
    _print_ruling(r)
    if args.why:
        print("\nWhy (every provision considered):")
        for t in r.trace:
            print(f"  {'✓' if t.applied else '·'} {t.provision}: {t.because}")
    return 0


class _CollectorPaused:
    """``with _CollectorPaused():`` — the cyclic garbage collector paused, as it was before afterwards. ``rule``
    rules once and ends: it imports the modules and reads the code's snapshot, thousands of objects that all live
    on and no garbage, so the collector's passes over them (some forty, a few milliseconds) would find nothing."""

    def __enter__(self) -> None:
        import gc

        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        import gc

        if self.was:
            gc.enable()


def cmd_score(args: argparse.Namespace) -> int:
    from .scoring import score

    data = api.unwrap(_read_input(args.file), "result", "code")  # a casebook entry: its result
    s = score(data)
    if args.json:
        print(json.dumps(s.to_dict(), indent=2, ensure_ascii=False))
        return 0
    print(score_sheet(s))
    return 0


def _notes(s: Any) -> list[str]:
    """The score's notes, and each deal's of a rubber (what a deal's score presumed is said where it is given)."""
    out = [f"note: {n}" for n in s.notes]
    for i, d in enumerate(s.deals or (), 1):
        out += [f"note: deal {i}: {n}" for n in d.notes]
    return out


def score_sheet(s: Any) -> str:
    """The score as the books print it: honours above the line, tricks below, a column for each side (each
    player, in three-hand)."""
    lines = [f"Score under {s.code}", ""]
    if s.players:
        return _player_sheet(s, lines)
    cols = ["NS", "EW"]
    width = 81 // len(cols) - 1
    lines.append("|".join(f"{c:^{width}}" for c in cols))
    lines.append("+".join("-" * width for _ in cols))

    def row(e: Any) -> str:
        tag = f" (law {e.law})"
        room = width - 8 - len(tag)
        why = e.reason if len(e.reason) <= room else e.reason[:room - 1] + "…"  # never a cut that reads as whole
        cell = f"{e.points:>5} " + why + tag
        return "|".join(f"{cell if c == e.side.value else '':<{width}}" for c in cols).rstrip()

    for e in [e for e in s.entries if e.column == "honour"]:  # a rubber's entries hold every deal's and its own
        lines.append(row(e))
    lines.append("+".join("=" * width for _ in cols))
    for e in [e for e in s.entries if e.column == "trick"]:
        lines.append(row(e))
    lines.append("+".join("-" * width for _ in cols))
    t = s.totals()
    lines.append("|".join(f"{'total ' + str(t.get(c, {}).get('total', 0)):^{width}}" for c in cols))
    if s.rubber is not None and s.rubber.get("difference") is not None:
        lines.append(f"rubber: {s.rubber['won_by'] or 'tied'} by {s.rubber['difference']}")
    if s.settlement:
        lines.append(f"settlement: {json.dumps(s.settlement, ensure_ascii=False)}")
    lines += _notes(s)
    return "\n".join(lines)


def _player_sheet(s: Any, lines: list[str]) -> str:
    """Three-hand: each player scores for himself (T12, T13), one line an entry, honours above the line."""
    for title, column in (("above the line (honours)", "honour"), ("below the line (tricks)", "trick")):
        lines.append(title)
        # a rubber's entries hold every deal's in order, with each game bonus where the game was won (T14)
        for e in [e for e in s.entries if e.column == column]:
            lines.append(f"  {e.side.value}  {e.points:>5}  {e.reason} (law {e.law})")
    t = s.totals()
    lines.append("totals: " + ", ".join(f"{p.value} {t.get(p.value, {}).get('total', 0)}" for p in s.players))
    if s.settlement:
        lines.append("settlement: " + ", ".join(f"{k} {v:+d}" for k, v in s.settlement.items()))
    lines += _notes(s)
    return "\n".join(lines)


def cmd_diff(args: argparse.Namespace) -> int:
    from .compare import diff_codes, ruling_diff
    from .report import render

    from .api import same_code

    fmt = _format(args)
    same_code(args.a, args.b, "B")
    if args.rulings:
        if args.ignore or args.topic:  # the rulings diff rules every kind (--kind narrows it); it reads no text
            raise InputError("--ignore" if args.ignore else "--topic",
                             "goes with the text diff, not --rulings (which compares rulings, not wording; --kind "
                             "narrows it to kinds)")
        res = ruling_diff(args.a, args.b, args.kind or None, jobs=args.jobs)
        print(render(res, fmt))
        return 0
    if args.kind or args.jobs != 1:
        raise InputError("--kind" if args.kind else "--jobs", "goes with --rulings (the rulings diff)")
    print(render(diff_codes(args.a, args.b, args.topic, tuple(args.ignore or ())), fmt))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from .compare import history
    from .report import render

    print(render(history(args.topic), _format(args)))
    return 0


def _format(args: argparse.Namespace) -> str:
    """The report's format: --json is --format json, and the two never disagree (else one would be dropped)."""
    if args.json and args.format not in ("text", "json"):
        raise InputError("--format", f"{args.format}, but --json asks for JSON: give one of them")
    return "json" if args.json else args.format


def cmd_audit(args: argparse.Namespace) -> int:
    fmt = _format(args)
    if args.against:
        if fmt not in ("text", "json"):
            raise InputError("--format", f"{fmt}: the audit --against is written as text, or as JSON (--json)")
        args.json = fmt == "json"  # --format json is --json here too
        return _audit_against(args)
    if args.kind:
        raise InputError("--kind", "goes with --against (the consistency audit of two codes)")
    from .compare import audit
    from .report import render

    print(render(audit(args.code), fmt))
    return 0


def _audit_against(args: argparse.Namespace) -> int:
    """``audit CODE --against OTHER``: the consistency audit of two codes of one game (exit 1: unsettled suspects)."""
    from .consistency import audit_against

    rep = audit_against(args.code, args.against, args.kind)
    if args.json:
        print(json.dumps(rep.to_dict(), indent=2, ensure_ascii=False))
        return 1 if rep.unsettled else 0
    print(f"consistency audit of {rep.a} against {rep.b}: {rep.incidents} incidents ruled under both, "
          f"{len(rep.suspects)} suspect(s), {len(rep.unsettled)} unsettled")
    for x in rep.suspects:
        what = ("rule differently, though their laws read the same" if x.suspect == "different-ruling"
                else "rule alike, though a law changed in substance")
        status = (f"settled ({x.settlement.verdict}, laws/consistency.yaml:{x.settlement.line}): {x.settlement.why}"
                  if x.settlement else "UNSETTLED: read the laws, then fix the data or record why in "
                                      "laws/consistency.yaml")
        print(f"\n{x.kind}: the codes {what} ({x.count} incident(s)); e.g. {json.dumps(dict(x.example))}")
        print(f"  {rep.a}: {x.a_does}")
        print(f"  {rep.b}: {x.b_does}")
        for p, q in x.pairs:
            for side, ref in ((rep.a, p), (rep.b, q)):
                law = ref.law_ref.split("/", 1)[1]
                print(f"  {side} law {law}: " + (ref.text if ref.index >= 0 else "(no sentence answers it)"))
        if x.suspect == "same-ruling" and (x.differs[0] or x.differs[1]):
            print(f"  differs in: {', '.join(x.differs[0]) or '-'} / {', '.join(x.differs[1]) or '-'}")
        print(f"  {status}")
    return 1 if rep.unsettled else 0


def cmd_auction(args: argparse.Namespace) -> int:
    from .wording import kind_name

    out, ruling, table = api.auction_run(args.code, args.dealer, args.calls, lambda i: f"CALL {i + 1}")
    events = out["calls"]
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for ev in events:
        print(f"{ev['seat']}: {ev['call']}" + ("" if ev["legal"] else f"  — {kind_name(ev['irregularity'])}"))
    for ev in events:
        if not ev["legal"]:
            print()
            _print_ruling(ruling)
    if out["not_run"]:
        print(f"\nnot run: {' '.join(out['not_run'])} (the auction waits on the ruling of "
              f"{events[-1]['seat']}'s {events[-1]['call']})")
    if out["declarer"] and out.get("seating"):
        seating = out["seating"]
        moved = next((pos for pos, who in seating.items() if who not in ("dummy", pos)), None)
        seats = table.rules.seats  # the code's seat model (code.yaml `table:`), each entry with its law
        declares, reseats = seats.get("declarer"), seats.get("reseat")
        print(f"\nfinal declaration {out['final_declaration']}"
              + {0: "", 1: " doubled", 2: " redoubled"}.get(out["doubled"], "")
              + f"; declarer {out['declarer']} plays his hand and the dummy's"
              + (f" ({declares.law})" if declares else ""))
        if moved:
            print((f"{reseats.law}: " if reseats else "")
                  + f"the dummy hand goes opposite him, to {out['dummy']}, and {seating[moved]} moves to {moved}")
        print(f"opening lead from {out['leader']} (player {seating[out['leader']]})")
    elif out["declarer"] and out["phase"] == "play":
        if table.variant == "straight-bridge":  # the multiplier: each double doubles
            doubled = f" (each trick x{out['doubled']})" if out["doubled"] > 1 else ""
        else:
            doubled = {0: "", 1: " doubled", 2: " redoubled"}.get(out["doubled"], "")
        print(f"\nfinal declaration {out['final_declaration']}{doubled}"
              + f"; declarer {out['declarer']}, dummy {out['dummy']}, opening lead from {out['leader']}")
    elif out["phase"] == "auction" and table.variant == "straight-bridge" and out["declarer"] and table.turn:
        print(f"\n{out['final_declaration']} declared; the doubling goes on: {table.turn.value} to double or not")
    elif out["phase"] == "auction" and table.turn is not None:
        print(f"\nthe auction goes on: {table.turn.value} to call")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay records — PBN files (every game), JSON deal records, folders of them — a line per board."""
    from .replay.archive import Passthrough, Summary, boards, run

    if args.jobs < 1:
        raise InputError("--jobs", f"expected a number of processes, at least 1; got {args.jobs}")
    if "-" in args.file and sys.stdin is None:  # started with standard input closed (`<&-`)
        raise InputError("FILE", "cannot read - (standard input): it is closed; give a file, or pipe one in")
    if args.export and not args.write:
        raise InputError("--export", "export format is a way of writing the games: give --write FILE with it")
    if args.write:
        _check_write(args.write, args.file)
    out = sys.stdout
    summary = Summary()
    started = time.perf_counter()
    writer = (_ExportWriter if args.export else _Writer)(args.write) if args.write else None
    spread = args.jobs > 1 or bool(args.dask)  # the games are read where they are replayed
    results = run(boards(args.file, args.code, write=bool(args.write), unread=spread, export=args.export),
                  jobs=args.jobs, dask=args.dask)
    unwritten: list[str] = []
    first: Any = None
    second: Any = None
    refused: Any = None
    bar = _progress(args.quiet)
    try:
        for r in results:
            if isinstance(r, Passthrough):
                if writer:
                    writer.add(r.text)
                if r.note:
                    print(f"bridgelaw: {r.note}", file=sys.stderr)
                continue
            summary.add(r)
            if bar is not None:
                bar.update(1)
            if writer:
                why = r.unwritten or writer.add(r.written or "", r.where or f"{r.file}:{r.line}")
                if why:
                    unwritten.append(f"{r.file} board {r.board}: not written: {why}")
            if r.status == "refused" and refused is None:
                refused = r
            if first is None:  # one record on its own is shown in full: hold the first line back
                first = r
                continue
            if second is None:
                second = r
                _board_line(first, args.json, out)
            _board_line(r, args.json, out)
    finally:
        if bar is not None:
            bar.close()
        if writer:
            writer.close()
    if first is not None and second is None:
        if not args.json and first.detail is not None or not args.json and first.rulings:
            _board_detail(first, out)
        _board_line(first, args.json, out)
    out.flush()
    elapsed = time.perf_counter() - started
    n = sum(summary.total().values())
    if n > 1 and not args.quiet:
        print(summary.table(elapsed), file=sys.stderr if args.json else out)
    for why in unwritten:  # (a board --write could not write: the file is short of it, and says so)
        print(f"bridgelaw: {why}", file=sys.stderr)
    if refused is not None:
        more = summary.total()["refused"] - 1
        print(f"bridgelaw: {refused.reason}" + (f" (and {more} more board{'s' if more > 1 else ''} refused, of {n})"
                                                 if more else ""), file=sys.stderr)
        return 2
    return 2 if unwritten else 0


def _progress(quiet: bool) -> Any:
    """A progress bar on standard error, for a run that lasts (tqdm shows it after a second), when standard
    error is a terminal and the result lines go elsewhere (on one terminal, the lines are the progress)."""
    if quiet or not sys.stderr.isatty() or sys.stdout.isatty():
        return None
    from tqdm import tqdm

    return tqdm(unit=" boards", delay=1.0, file=sys.stderr, leave=False)


def _check_write(target: str, inputs: Sequence[str]) -> None:
    """--write names no file being read: opening it would empty it before its games are read (a folder's: it
    would be read as it is written)."""
    from pathlib import Path

    out = Path(target).expanduser().resolve()
    for name in inputs:
        if name == "-":
            continue
        src = Path(name).expanduser().resolve()
        if out == src or (src.is_dir() and src in out.parents):
            raise InputError("--write", f"{target} is " + ("the input file" if out == src else f"inside the input "
                             f"folder {name}") + ": writing it would destroy or reread the games being replayed; "
                             "write the games elsewhere")


class _Writer:
    def __init__(self, path: str) -> None:
        try:
            self.f = open(path, "w", encoding="utf-8", newline="\n")
        except OSError as e:
            raise InputError("--write", f"cannot write {path}: {e.strerror}") from None
        self.f.write("\ufeff")  # the byte-order mark shows UTF-8 (§2.2 would read ISO 8859-1)
        self.n = 0

    def add(self, text: str, where: str = "") -> str | None:
        from .pbn.writer import as_utf8_import

        if not text:
            return None
        if self.n:
            self.f.write("\n")
        self.f.write(as_utf8_import(text))
        self.n += 1
        return None

    def close(self) -> None:
        self.f.close()


class _ExportWriter:
    """``--write FILE --export``: PBN's export format (§2.1), ISO 8859-1 bytes (§2.2) and CR LF, the header first."""

    def __init__(self, path: str) -> None:
        from .pbn.export import EXPORT_HEADER

        try:
            self.f = open(path, "wb")
        except OSError as e:
            raise InputError("--write", f"cannot write {path}: {e.strerror}") from None
        self.f.write(EXPORT_HEADER.encode("ascii"))
        self.n = 0

    def add(self, text: str, where: str = "") -> str | None:
        """Write one game's export text; what export format cannot hold (a character not in ISO 8859-1) is
        returned, the game not written."""
        from .pbn.export import EOL, export_bytes

        if not text:
            return None
        try:
            data = export_bytes(text, where.rsplit(":", 2)[0] if where.count(":") >= 2 else where)
        except InputError as e:
            return str(e)
        if self.n:
            self.f.write(EOL.encode("ascii"))  # §3: an empty line before each game but the first
        self.f.write(data)
        self.n += 1
        return None

    def close(self) -> None:
        self.f.close()


_FLUSHED = [0.0]  # when the board lines were last flushed


def _board_line(r: Any, as_json: bool, out: Any) -> None:
    """A board's line, written as it comes: flushed at once when a board takes its time (a twentieth of a
    second since the last flush), so a long run streams without a write to the system for every board."""
    if as_json:
        out.write(r.json_line() + "\n")
    else:
        out.write(r.text() + "\n")
        for n in r.notes:
            out.write(f"  note: {n}\n")
    now = time.monotonic()
    if now - _FLUSHED[0] > 0.05:
        out.flush()
        _FLUSHED[0] = now


def _board_detail(r: Any, out: Any) -> None:
    """One record on its own: every ruling as it came."""
    from .wording import effect_sentence, kind_name

    if r.code:
        print(f"Replay under {r.code}", file=out)
    if r.detail is not None:  # a JSON record: its events, as the table answered them
        for ev in r.detail["events"]:
            if "note" in ev:
                continue
            if "applied" in ev:
                print(f"  -> applied {ev['applied']} ({kind_name(ev['irregularity'])})", file=out)
            elif "ruling" in ev:  # an irregularity, or a ruling now due (a revoke established by this card)
                what = ev.get("call") or ev.get("card") or ev.get("expose")
                effects = [effect_sentence(e) for e in ev["ruling"]["effects"] if e["kind"] != "procedure"]
                by = ev["ruling"].get("facts", {}).get("offender")
                kind = kind_name(ev["irregularity"]) + (f" by {by}" if by and by != ev["seat"] else "")
                if ev.get("legal"):
                    kind += " (a ruling now due)"
                print(f"  {ev['seat']} {what}: {kind} — "
                      + "; ".join([*(f"[{o['id']}] {o.get('label', '')}" for o in ev["ruling"]["options"]),
                                   *effects]), file=out)
        return
    for x in r.rulings:
        print(f"  {x['at']}: {kind_name(x['kind'])} by {x['offender']} (law {', '.join(x['laws'])}) — "
              f"{x['remedy'] or '-'}" + (f", {x['how']}" if x.get("how") else ""), file=out)


def cmd_ask(args: argparse.Namespace) -> int:
    """The referee's interview (interview.py): the facts of the deal in the order a referee learns them."""
    from .interview import Interview, Step

    out = sys.stderr if args.json or args.incident else sys.stdout  # --json: only the ruling goes to stdout

    def show(step: Step) -> None:
        if step.problem:
            print(f"  ! {step.problem}", file=out)
        print(f"\n{step.question}", file=out)
        if step.choices and step.key in ("irregularity", "code"):
            import shutil

            groups: dict[str, list[str]] = {}
            for c in step.choices:
                groups.setdefault(c.group, []).append(f"{c.number:>3}  {c.words}")
            width = max(len(x) for xs in groups.values() for x in xs) + 2
            per_row = max(1, (shutil.get_terminal_size((100, 24)).columns - 4) // width)
            for group, items in groups.items():
                if group:
                    print(f"  {group.capitalize()}:", file=out)
                for i in range(0, len(items), per_row):
                    print("  " + "".join(x.ljust(width) for x in items[i:i + per_row]).rstrip(), file=out)
        elif step.choices:
            print("  " + "   ".join(f"{c.number} {c.words}" for c in step.choices), file=out)
        print(f"  ({step.format}; e.g. {step.example})" if step.example else f"  ({step.format})", file=out)
        print("> ", end="", file=out, flush=True)

    if sys.stdin is None:  # started with standard input closed (`<&-`): no answers can come
        raise InputError("stdin", "standard input is closed: the interview reads its answers from it")
    iv = Interview()
    if args.code:
        iv.give(args.code, "code")  # read by _ask_code, as the interview reads it
    for _ in range(200):  # each pass answers one step or explains a bad answer; the interview is finite
        step = iv.step()
        if step is None:
            break
        show(step)
        line = sys.stdin.readline()
        if not line:
            raise InputError("stdin", "the answers ended before the ruling was complete")
        try:
            iv.give(line.rstrip("\n"))
        except InputError as e:
            again = iv.step()
            if again is None or again.problem != e.message:  # else the step asked again says it
                print(f"  ! {e.message}", file=out)
    if iv.step() is not None:  # every pass spent and a question still open: the answers never gave it
        raise InputError("stdin", "200 answers and the interview is still not complete: answer the question "
                                  "asked (a number from its list, or its words)")
    r = iv.ruling()
    if args.incident:
        print(json.dumps(iv.incident(), indent=2, ensure_ascii=False))
    elif args.json:
        print(json.dumps(api.ruling_dict(r), indent=2, ensure_ascii=False))  # exactly as `rule --json`
    else:
        print()
        _print_ruling(r)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import os

    from .server import serve

    token = os.environ.get("BRIDGELAW_TOKEN") or None
    if args.token_file:
        try:
            from pathlib import Path

            token = Path(args.token_file).expanduser().read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as e:
            raise InputError("--token-file", f"{args.token_file}: cannot read the token: "
                                             f"{getattr(e, 'strerror', None) or e}") from None
    def ready(server: Any) -> None:  # --json: one JSON line once the desk listens
        print(json.dumps({"url": server.url, "host": server.host, "port": server.server_address[1],
                          "log": str(server.log.path)}), flush=True)

    serve(args.host, args.port, args.log, args.quiet, token, args.allow_remote, tuple(args.allow_host or ()),
          ready=ready if args.json else None)
    return 0


_MAX_LIMIT = 2 ** 63 - 1  # the largest row id SQLite keeps


def cmd_log(args: argparse.Namespace) -> int:
    from .rulinglog import RulingLog, default_path, write_csv
    from .wording import kind_name, seat_words

    if args.limit is not None and not 1 <= args.limit <= _MAX_LIMIT:  # (past it, no log holds so many: SQLite's
        raise InputError("--limit", f"expected a number of rulings from 1 to {_MAX_LIMIT}, got "  # row ids stop)
                         f"{args.limit if args.limit.bit_length() < 70 else 'a number of ' + str(len(str(args.limit))) + ' digits'}")
    from pathlib import Path

    if args.csv and args.json:  # else one would be taken and the other dropped unsaid
        raise InputError("--csv", "and --json are two formats for the one list: give one")
    path = Path(args.log).expanduser() if args.log else default_path()
    if args.log and not path.parent.is_dir():  # a path mistyped: no log can be there, logged or not
        raise InputError("--log", f"{args.log}: no such directory {str(path.parent)!r}: name the ruling log the "
                         "desk writes (serve --log)")
    if not path.is_file() and not path.is_dir():  # a directory is refused by RulingLog, by name
        if args.csv:
            write_csv([], sys.stdout)
        elif args.json:
            print("[]")
        else:
            print(f"no rulings logged yet ({path})")
        return 0
    book = RulingLog(path)
    try:
        entries = book.last(args.limit) if args.limit else book.iter_entries()
        if args.csv:  # streamed: a row at a time, whatever the log's length
            write_csv(entries, sys.stdout)
            return 0
        if args.json:
            print("[", end="")
            for i, e in enumerate(entries):
                print(("," if i else "") + "\n" + json.dumps(e.summary(), indent=2, ensure_ascii=False), end="")
            print("\n]")
            return 0
        n = 0
        for e in entries:
            n += 1
            s = e.summary()
            who = f" by {seat_words(e.incident['offender'])}" if e.incident.get("offender") else ""
            laws = f"  law {', '.join(s['laws'])}" if s["laws"] else ""
            chose = f"  chose: {e.choice}" if e.choice else (
                "  options: " + ", ".join(f"{o['id']} ({o['chooser']})" for o in s["options"]) if s["options"] else "")
            print(f"#{e.id:<5} {e.time[:19].replace('T', ' ')}  {e.code:<20} "
                  f"{kind_name(e.irregularity)}{who}{laws}{chose}")
            if e.note:  # (a log written before notes were held to text may hold controls: shown, not sent)
                shown = e.note if e.note.isprintable() else "".join(
                    c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in e.note)
                print(_wrap(f"note: {shown}", "       "))
        print(f"{n} ruling(s) in {path}")
    finally:
        book.close()
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from .check import run_check

    problems, summary = run_check()
    if args.json:
        print(json.dumps({"ok": not problems, "summary": summary, "problems": problems}, indent=2,
                         ensure_ascii=False))
        return 1 if problems else 0
    for p in problems:
        print(p, file=sys.stderr)
    print(summary)
    return 1 if problems else 0


# --------------------------------------------------------------------------


FORMATS = ("text", "markdown", "html", "json")  # bridgelaw.report.FORMATS (checked by a test)
IGNORABLE = ("spelling",)  # bridgelaw.editions.IGNORABLE (checked by a test)


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {text!r}") from None
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"expected 1 to 64 processes, got {n}")
    return n


def _code_arg(name: str) -> Callable[[str], str]:
    def code(text: str) -> str:
        return api.check_code(text, name)
    return code


def _topic_arg(name: str) -> Callable[[str], str]:
    def topic(text: str) -> str:
        from .editions import check_topic

        check_topic(text, name)
        return text
    return topic


def _seat_arg(name: str) -> Callable[[str], str]:
    def seat(text: str) -> str:
        from .values import Seat

        return Seat.parse(text, name).value
    return seat


def _ask_code(text: str) -> str:
    """``ask CODE``: a code as the interview takes it (its id, its number in the menu, its year)."""
    from .interview import Interview

    try:
        return Interview()._parse_code(text)
    except InputError as e:
        raise InputError("CODE", e.message) from None


#: Arguments checked as they are read, by their ``dest``, whatever the verb: each refused naming the argument as
#: typed (``CODE``, ``--code``). An argument with a ``type`` of its own keeps it.
CHECKED: dict[str, Callable[[str], Callable[[str], str]]] = {
    "code": _code_arg, "a": _code_arg, "b": _code_arg, "against": _code_arg, "topic": _topic_arg,
    "dealer": _seat_arg}


def _name_arguments(parser: argparse.ArgumentParser) -> None:
    """Positional arguments named in capitals in the usage line, as refusals name them; :data:`CHECKED`
    arguments given their checks."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sp in action.choices.values():
                _name_arguments(sp)
            continue
        if not action.option_strings and action.metavar is None:
            action.metavar = action.dest.upper()
        shown = max(action.option_strings, key=len) if action.option_strings else str(action.metavar)
        if action.dest in CHECKED and action.type is None:
            action.type = CHECKED[action.dest](shown)


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, told the terminal's width as :func:`shutil.get_terminal_size` tells it (``COLUMNS``,
    else the terminal of standard output, else 80), without importing :mod:`shutil` and the compression modules it
    imports: a start that prints no help needs none of them (argparse makes a formatter for every argument)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors say what was meant: an unknown command or option is followed by the
    nearest one (``did you mean``), as every other refusal of the command line is."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        import re

        from .errors import did_you_mean

        wrong = re.match(r"argument COMMAND: invalid choice: '([^']*)'", message)
        if wrong:
            sub = next((a for a in self._actions if isinstance(a, argparse._SubParsersAction)), None)
            message += did_you_mean(wrong.group(1), list(sub.choices) if sub is not None else [])
        elif message.startswith("unrecognized arguments: "):
            flags = [o for a in self._every_action() for o in a.option_strings if o.startswith("--")]
            sub = next((a for a in self._actions if isinstance(a, argparse._SubParsersAction)), None)
            verb = next((w for w in getattr(self, "_argv", ()) if sub is not None and w in sub.choices), None)
            if verb is not None:  # the command's own options, not another command's (nor --version, the program's)
                flags = [o for a in sub.choices[verb]._actions  # type: ignore[union-attr]
                         for o in a.option_strings if o.startswith("--")]
            for given in message[len("unrecognized arguments: "):].split():
                if given.startswith("--"):
                    message += did_you_mean(given.split("=", 1)[0], flags)
                    break
        super().error(message)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        import sys

        self._argv = list(sys.argv[1:] if args is None else args)  # (what error reads the command from)
        return super().parse_known_args(args, namespace)

    def _every_action(self) -> list[argparse.Action]:
        out = list(self._actions)
        for a in self._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sp in a.choices.values():
                    out += sp._actions
        return out


class _Unbuilt:
    """A command's parser not built, because another command was asked for."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        pass


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``only``, only that command's parser is built (a start builds the one it runs)."""
    from . import __version__

    p = _Parser(prog="bridgelaw", description="The historic laws of bridge as data, and a referee.",
                formatter_class=_Formatter, allow_abbrev=False)  # an option is spelt whole (did you mean: above)
    p.add_argument("--version", action="version", version=f"bridgelaw {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, fn: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        if only is not None and name != only:
            return _Unbuilt()  # type: ignore[return-value]
        sp = sub.add_parser(name, help=help_, description=help_, formatter_class=_Formatter, allow_abbrev=False)
        sp.set_defaults(func=fn)
        sp.add_argument("--json", action="store_true", help="machine-readable output")
        return sp

    sp = add("codes", cmd_codes, "list the codes")
    sp.add_argument("--coverage", action="store_true", help="laws, provisions and casebook rulings per code; "
                                                            "the sentence account (every sentence tagged)")
    sp = add("law", cmd_law, "print one law of a code")
    sp.add_argument("code")
    sp.add_argument("number")
    sp.add_argument("--variants", action="store_true", help="the witnesses, the mends and the variant readings")
    sp = add("search", cmd_search, "search the text of every law")
    sp.add_argument("text", nargs="+")
    sp.add_argument("--code")
    add("kinds", cmd_kinds, "list every irregularity kind and its facts")
    add("topics", cmd_topics, "list the topics that align laws across codes (for diff --topic and history)")
    sp = add("rule", cmd_rule, "rule on an incident (YAML or JSON file, or - for stdin)")
    sp.add_argument("file")
    sp.add_argument("--why", action="store_true", help="show every provision considered and why")
    sp = add("score", cmd_score, "score a deal or a rubber (YAML or JSON file, or - for stdin)")
    sp.add_argument("file")
    sp = add("diff", cmd_diff, "compare two codes: text, parameters, provisions (--rulings: the rulings)")
    sp.add_argument("a")
    sp.add_argument("b")
    sp.add_argument("--topic")
    sp.add_argument("--format", choices=FORMATS, default="text")
    sp.add_argument("--ignore", action="append", choices=IGNORABLE,
                    help="set aside: spelling (with case, hyphens, quotation marks, punctuation, footnote marks)")
    sp.add_argument("--rulings", action="store_true", help="rule generated incidents under both codes")
    sp.add_argument("--kind", action="append", help="with --rulings: only this kind (repeatable)")
    sp.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="with --rulings: rule in N processes "
                                                                       "(the output is the same)")
    sp = add("history", cmd_history, "one topic through every code, in date order: its numbers, then its texts")
    sp.add_argument("topic")
    sp.add_argument("--format", choices=FORMATS, default="text")
    sp = add("audit", cmd_audit, "where a code is silent, and provisions that clash without precedence")
    sp.add_argument("code")
    sp.add_argument("--against", metavar="OTHER", help="the consistency audit: rule generated incidents under "
                    "both codes (one game) and report where the rulings and the laws' texts disagree")
    sp.add_argument("--kind", action="append", help="with --against: only this kind (repeatable)")
    sp.add_argument("--format", choices=FORMATS, default="text")
    sp = add("auction", cmd_auction, "run an auction call by call (SEAT:CALL or CALL in rotation); rule on irregularities")
    sp.add_argument("--code", required=True)
    sp.add_argument("--dealer", required=True)
    sp.add_argument("calls", nargs="+", metavar="CALL")
    sp = add("replay", cmd_replay, "replay deal records — PBN 2.1 files (every game), JSON records, folders of "
                                   "them — ruling as it goes; a line per board (--json: JSON Lines)")
    sp.add_argument("file", nargs="+", metavar="FILE", help="a PBN file, a JSON or YAML record, a folder, or -")
    sp.add_argument("--code", help="the code, when the record does not name it ([BridgelawCode] does); by default "
                    "the latest four-player auction code")
    sp.add_argument("--jobs", type=int, default=1, metavar="N", help="spread the boards over N processes")
    sp.add_argument("--dask", metavar="ADDRESS", help="run the boards on the Dask scheduler at ADDRESS "
                                                      "('local': a local cluster of --jobs workers)")
    sp.add_argument("--write", metavar="FILE", help="write the games back as PBN, with the rulings and remedies")
    sp.add_argument("--export", action="store_true", help="with --write: write PBN's strict export format (§2.1: "
                                                          "CR LF, ISO 8859-1, the tags in order); a game it cannot "
                                                          "hold is left out and said")
    sp.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    sp = add("ask", cmd_ask, "the referee's interview: what happened, who offended, the calls; then only the "
                             "questions the ruling still needs")
    sp.add_argument("code", nargs="?", type=_ask_code, help="the code (its id, its number or its year)")
    sp.add_argument("--incident", action="store_true", help="print the incident the answers make (for `rule`)")
    add("check", cmd_check, "load every code and the casebook; report errors at path:line:col")
    sp = add("serve", cmd_serve, "the referee's desk: the JSON API and the web page on localhost")
    sp.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sp.add_argument("--port", type=int, default=8913, help="port (default 8913; 0 picks a free one)")
    sp.add_argument("--log", metavar="PATH", help="the ruling log (default $BRIDGELAW_LOG or "
                                                  "~/.local/share/bridgelaw/rulings.sqlite3)")
    sp.add_argument("--quiet", action="store_true", help="do not print a line per request")
    sp.add_argument("--allow-remote", action="store_true",
                    help="let a --host that is not a loopback address be served (a token is then required)")
    sp.add_argument("--token-file", metavar="PATH", help="the token every request must present (Authorization: "
                                                         "Bearer TOKEN; the page: /?token=TOKEN); "
                                                         "default $BRIDGELAW_TOKEN")
    sp.add_argument("--allow-host", action="append", metavar="NAME",
                    help="another name the Host header may give (repeatable)")
    sp = add("log", cmd_log, "the rulings given at the desk (--csv: export as CSV)")
    sp.add_argument("--log", metavar="PATH", help="the ruling log (default $BRIDGELAW_LOG or "
                                                  "~/.local/share/bridgelaw/rulings.sqlite3)")
    sp.add_argument("--csv", action="store_true", help="every entry as CSV, with the incident and ruling as JSON")
    sp.add_argument("--limit", type=int, metavar="N", help="only the last N rulings")
    if only is not None and only not in sub.choices:
        return build_parser()  # not a command: the whole parser, to say which commands there are
    _name_arguments(p)
    return p


#: writing standard output failed: a full disk or quota, a file too large, an I/O error
_OUTPUT_ERRNOS = frozenset(getattr(errno, n) for n in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, n))


def main(argv: Sequence[str] | None = None) -> int:
    args_ = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(args_[0] if args_ and not args_[0].startswith("-") else None)
    try:
        args = parser.parse_args(argv)
        rc = int(args.func(args))
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk is said here, not at exit
        return rc
    except SystemExit as e:  # argparse prints its own usage error, exit 2
        return int(e.code or 0)
    except BridgelawError as e:
        print(f"bridgelaw: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover
        return 0
    except OSError as e:  # the output could not be written (every input's OSError is an InputError at its edge)
        if e.errno not in _OUTPUT_ERRNOS:
            raise
        print(f"bridgelaw: standard output: cannot write: {e.strerror}", file=sys.stderr)
        try:  # what is still buffered would fail again at exit
            sys.stdout = None  # type: ignore[assignment]
        except Exception:  # pragma: no cover
            pass
        return 1
    except KeyboardInterrupt:  # pragma: no cover
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
