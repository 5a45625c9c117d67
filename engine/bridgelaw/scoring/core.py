"""The deal core: one scorer for tricks, doubling, under-tricks, slams, honours and revokes, with a hook for who
scores.

:class:`Partnerships` (four hands) and :class:`Players` (three-hand: each player for himself) are the hook. They
say who scores for the declaring side and for the adversaries, how honours are held and counted, how revokes are
seen, and the wording that differs; everything else — the odd tricks, the doubled bonus, the under-tricks and the
one-spade limit, slams by either side, a revoking side's limits — is scored here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from ..values import Seat, Side, Strain
from .deal import COUNT_KEYS as _COUNT_KEYS
from .model import Row, Score, new_score
from .plan import ContractPlan, plan_of
from .revokes import revoke_effects
from .rules import Rules
from .sheet import Sheet

__all__ = ["Partnerships", "Players", "PARTNERSHIPS", "score_core", "score_sheet", "play", "premium", "cap_entries",
           "variant_of"]

Who = Side | Seat
_REVOKES: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # Partnerships.revokes, remembered


class Partnerships:
    """Four hands, two partnerships: a side scores."""

    three = False
    SLAM = "grand slam: all thirteen tricks"
    LITTLE = "little slam: twelve tricks"
    PENALTIES_FIRST = True

    def kept(self, sheet: Sheet) -> tuple[Who, ...]:
        return (Side.NS, Side.EW)

    def declaring(self, sheet: Sheet) -> tuple[Who, ...]:
        return (sheet.declarer.side,)

    def defending(self, sheet: Sheet) -> tuple[Who, ...]:
        return (sheet.declarer.side.other,)

    def bonus_row(self, w: str, points: int, law: str, dbl: str, extra: int) -> Row:
        """The doubled (redoubled) contract's bonus row."""
        if extra:
            return (w, "honour", points, "%s contract made with %d extra trick(s)", law, "bonus", dbl, extra)
        return (w, "honour", points, "%s contract made", law, "bonus", dbl)

    def under_row(self, w: str, points: int, law: str, short: int, each: int, note: str) -> Row:
        """An under-trick row (``note``: the one-spade limit, where it held the loss)."""
        return (w, "honour", points, "%d under-trick(s) at %d%s", law, "undertricks", short, each, note)

    def revokes(self, rules: Rules, sheet: Sheet, per_trick: int, out: list[Row], notes: list[str],
                where: str) -> tuple[int, AbstractSet[Who], AbstractSet[Who], tuple[Side, ...]]:
        """Each revoke through the code's provisions: (tricks moved to the declaring side, who scores no trick
        points, who scores only honours and penalties, the revoking sides). What the revokes of a deal give
        depends only on the code, the declarer, the dealer, the trick value and the revokes (offender and choice),
        so it is worked out once and remembered, as :func:`.revokes.revoke_effects` remembers each ruling."""
        dealer = sheet.dealer
        key = (rules.id, sheet.declarer._value_, dealer._value_ if dealer is not None else None, per_trick,
               tuple((r.offender._value_, r.choice) for r in sheet.revokes))
        hit = _REVOKES.get(key)
        if hit is None or hit[0] is not rules:
            rows: list[Row] = []
            said: list[str] = []
            moved, no_trick, only, revokers = self._revokes(rules, sheet, per_trick, rows, said, where)
            hit = (rules, tuple(rows), tuple(said), moved, frozenset(no_trick), frozenset(only), revokers)
            if len(_REVOKES) >= 4096:
                _REVOKES.clear()
            _REVOKES[key] = hit
        out.extend(hit[1])
        notes.extend(hit[2])
        return hit[3], hit[4], hit[5], hit[6]

    def _revokes(self, rules: Rules, sheet: Sheet, per_trick: int, out: list[Row], notes: list[str],
                 where: str) -> tuple[int, set[Who], set[Who], tuple[Side, ...]]:
        declarer = sheet.declarer
        dummy = declarer.partner
        offenders = [r.offender for r in sheet.revokes]
        revokers = tuple(dict.fromkeys(o.side for o in offenders if o is not dummy))  # the dummy cannot revoke
        both = len(revokers) == 2
        by_side: dict[Side, int] = {}
        moved = 0
        no_trick: set[Who] = set()
        only: set[Who] = set()
        for i, r in enumerate(sheet.revokes):
            if r.offender is not dummy:
                by_side[r.offender.side] = by_side.get(r.offender.side, 0) + 1
            count = max(1, by_side.get(r.offender.side, 0))
            eff = revoke_effects(rules, declarer, r.offender, count, both, sheet.dealer, per_trick, r.choice,
                                 f"{where}revokes[{i}]")
            if eff.set_aside:
                notes.append(_set_aside_note(eff, r.offender.value))
            if not (eff.transfers or any(p for _, _, p in eff.scores) or eff.no_trick_score or eff.honours_only):
                notes.append(f"revoke by {r.offender.value}" + (" (the dummy)" if r.offender is dummy else "")
                             + ": the code's revoke provisions give it no score"
                             + (f" (law {eff.law})." if eff.law else "."))
            for side, column, points in eff.scores:
                if points:
                    out.append((side._value_, column, points, "revoke by %s", eff.law, "revoke", r.offender.value))
            for frm, to, n in eff.transfers:
                moved += n if to is declarer.side else -n
                notes.append(_transfer_note(rules, n, frm.value, to.value, eff.law))
            no_trick.update(eff.no_trick_score)
            only.update(eff.honours_only)
        return moved, no_trick, only, revokers

    def honours(self, rules: Rules, sheet: Sheet, cp: ContractPlan, out: list[Row]) -> None:
        held = sheet.held
        if held is not None:
            row = cp.honours[(held[0]._value_, held[1])]  # the plan's row (none where the holding scores nothing)
            if row:
                out.append(row)  # type: ignore[arg-type]
        if sheet.chicane and rules.chicane is not None:
            _chicane(rules, sheet, cp.value, out)


def _set_aside_note(eff: Any, offender: str) -> str:
    return (f"The choice '{eff.set_aside}' for the revoke by {offender} is set aside: both sides revoked, and "
            + (f"law {eff.law}" if eff.law else "the code") + " leaves the innocent side no option.")


def _chicane(rules: Rules, sheet: Sheet, value: int, out: list[Row]) -> None:
    times, law = rules.chicane  # type: ignore[misc]
    held = sheet.held
    for side in (Side.NS, Side.EW):
        void = [s for s in sheet.chicane if s.side is side]
        if not void:
            continue
        names = " and ".join(s.value for s in void)
        if rules.chicane_rule == "add":  # English: each player void of trumps scores chicane for his side
            for seat in void:
                out.append((side._value_, "honour", times * value, "chicane: %s holds no trump (%d x %d)", law,
                            "chicane", seat.value, times, value))
        elif len(void) == 2 and rules.double_chicane is not None:  # American: off the adversaries' honours
            dtimes, dlaw = rules.double_chicane
            out.append((side.other._value_, "honour", -dtimes * value, "double chicane: %s hold no trump, deducted (%d x %d)",
                        dlaw, "chicane", names, dtimes, value))
        elif held is not None and held[0] is side:  # American: added when the chicane side scores honours
            out.append((side._value_, "honour", times * value, "chicane: %s holds no trump (%d x %d)", law,
                        "chicane", names, times, value))
        else:  # ... deducted from the adversaries' honours when they score them
            out.append((side.other._value_, "honour", -times * value, "chicane: %s holds no trump, deducted (%d x %d)", law,
                        "chicane", names, times, value))


def _transfer_note(rules: Rules, n: int, frm: str, to: str, law: str) -> str:
    return (f"{n} tricks transferred from {frm} to {to} for the revoke (law {law}): "
            + ("they count toward the contract but earn no bonus or slam." if rules.auction else
               "they count as tricks won, but earn no slam."))


def _short_of_tricks_note(moved: int, taken: int, revoking: tuple[str, ...]) -> str:
    """What the text leaves unsaid when the penalty asks more tricks than the revoking side won in play: the tricks
    are "taken from the revoking player", so only those he has can be, and no law says what becomes of the rest."""
    want, names = abs(moved), " and ".join(revoking)
    if taken:
        return (f"The revoke penalty asks {want} tricks, but only {taken} of the {want} tricks could be taken from "
                f"{names}, who won no more in play: the code does not say what becomes of the other {want - taken}.")
    return (f"The revoke penalty asks {want} tricks, but none of the {want} tricks could be taken from {names}, who "
            f"won no trick in play: the code does not say what becomes of the {want}.")


class Players(Partnerships):
    """Three-hand: each player scores for himself; the declarer plays his hand and the dummy, and the two
    adversaries are partners for the hand (T7). The declaring side's score is the declarer's; the adversaries'
    goes to each of them (T12); honours are each player's own, the declarer counting his and the dummy's (T13)."""

    three = True
    SLAM = "grand slam"
    LITTLE = "little slam"
    PENALTIES_FIRST = False

    def kept(self, sheet: Sheet) -> tuple[Who, ...]:
        return tuple(s for s in Seat if s is not sheet.dummy)

    def declaring(self, sheet: Sheet) -> tuple[Who, ...]:
        return (sheet.declarer,)

    def defending(self, sheet: Sheet) -> tuple[Who, ...]:
        return tuple(s for s in Seat if s is not sheet.dummy and s is not sheet.declarer)

    def bonus_row(self, w: str, points: int, law: str, dbl: str, extra: int) -> Row:
        return (w, "honour", points, "%s contract made", law, "bonus", dbl)

    def under_row(self, w: str, points: int, law: str, short: int, each: int, note: str) -> Row:
        return (w, "honour", points, "%d under-trick(s)%s", law, "undertricks", short, note)

    def revokes(self, rules: Rules, sheet: Sheet, per_trick: int, out: list[Row], notes: list[str],
                where: str) -> tuple[int, set[Who], set[Who], tuple[Side, ...]]:
        """Revokes through the code's (four-hand) provisions, seen from a four-hand table: the declarer keeps his
        seat, the dummy's hand is his partner's, either adversary is his left-hand opponent (T7)."""
        declarer, dummy = sheet.declarer, sheet.dummy
        adversaries = self.defending(sheet)
        proxies = [declarer if r.offender is declarer else declarer.partner if r.offender is dummy
                   else declarer.lho for r in sheet.revokes]
        both = declarer in proxies and declarer.lho in proxies
        dside = declarer.side
        names = {dside.value: declarer.value, dside.other.value: " and ".join(a.value for a in adversaries)}
        by_side: dict[Side, int] = {}
        moved = 0
        no_trick: set[Who] = set()
        only: set[Who] = set()
        for i, (r, proxy) in enumerate(zip(sheet.revokes, proxies)):
            if proxy is declarer.partner:  # a renounce from the dummy's hand is no revoke of his side's (law 83)
                count = 1
            else:
                by_side[proxy.side] = by_side.get(proxy.side, 0) + 1
                count = by_side[proxy.side]
            eff = revoke_effects(rules, declarer, proxy, count, both, None, per_trick, r.choice,
                                 f"{where}revokes[{i}]")
            got = 0
            for frm, to, n in eff.transfers:
                got += n if to is dside else -n
                notes.append(_transfer_note(rules, n, names[frm.value], names[to.value], eff.law))
            moved += got
            if eff.set_aside:
                notes.append(_set_aside_note(eff, r.offender.value))
            if not (got or any(p for _, _, p in eff.scores) or eff.no_trick_score or eff.honours_only):
                notes.append(f"revoke by {r.offender.value}" + (" (the dummy's hand)" if r.offender is dummy else "")
                             + ": the code's revoke provisions give it no score.")
            for side, column, points in eff.scores:
                if points:
                    for seat in ((declarer,) if side is dside else adversaries):
                        out.append((seat._value_, column, points, "revoke by %s", eff.law, "revoke", r.offender.value))
            for sides, into in ((eff.no_trick_score, no_trick), (eff.honours_only, only)):
                for side in sides:
                    into.update((declarer,) if side is dside else adversaries)
        return moved, no_trick, only, ()

    def honours(self, rules: Rules, sheet: Sheet, cp: ContractPlan, out: list[Row]) -> None:
        counts: Mapping[Any, tuple[int, int]] = sheet.counts or {}
        value = cp.value
        nt = sheet.contract.strain is Strain.NT
        for seat in self.kept(sheet):
            total, best = counts.get(seat, (0, 0))
            if nt:
                each, law = rules.by_player_no_trump["each_ace"]
                pts = total * each
                if best == 4:
                    pts, law = rules.by_player_no_trump["four_aces_in_one_hand"]
                if pts:
                    out.append((seat._value_, "honour", pts, "honours: %d ace(s)", law, "honours", total))
                continue
            hands = (best, total - best) if seat is sheet.declarer else (total,)
            pts, law = 0, ""
            for n in hands:
                if n:
                    times, law = rules.by_player_trump[_COUNT_KEYS[n]]
                    pts += times * value
            if pts:
                out.append((seat._value_, "honour", pts, "honours: %d held", law, "honours", total))


PARTNERSHIPS = Partnerships()
_VARIANTS = {False: PARTNERSHIPS, True: Players()}
_NONE: frozenset[Who] = frozenset()


def variant_of(rules: Rules) -> Partnerships:
    """Who scores under this code: partnerships, or (three-hand) each player."""
    return _VARIANTS[rules.three]


def score_core(rules: Rules, sheet: Sheet, who: Partnerships, where: str = ""
               ) -> tuple[list[Row], list[str], tuple[Side, ...]]:
    """One deal's rows (before any cap on a revoking side toward game), its notes, and the revoking sides."""
    out: list[Row] = []
    notes: list[str] = []
    cp = plan_of(rules).contract(sheet.contract.text)
    # who scores, as the rows name them (the text of a side or seat)
    declaring = tuple(w._value_ for w in who.declaring(sheet))
    defending = tuple(w._value_ for w in who.defending(sheet))

    moved, no_trick_by, only_by, revokers = (who.revokes(rules, sheet, cp.per, out, notes, where) if sheet.revokes
                                             else (0, _NONE, _NONE, ()))
    no_trick = {w._value_ for w in no_trick_by}
    only = {w._value_ for w in only_by}
    if who.PENALTIES_FIRST:
        _penalties(sheet, out)
    play(rules, cp, who, declaring, defending, sheet.tricks, moved, sheet.original_one_spade, sheet.spade_note,
         no_trick, out, notes)
    # honours and chicane, by the holders, at the undoubled trick value
    who.honours(rules, sheet, cp, out)
    if sheet.honours_note:
        notes.append(sheet.honours_note)
    if sheet.tricks_note:
        notes.append(sheet.tricks_note)
    if not who.PENALTIES_FIRST:
        _penalties(sheet, out)
    if rules.premium is not None:
        premium(rules, declaring + defending, out)

    if only:  # a revoking side scores only what the code's revoking_side_scores keeps (its honours, ...)
        kept = rules.revoking_keeps
        out = [e for e in out if e[0] not in only or e[5] in kept]
    if revokers and rules.revoking_no_slam:  # the code bars a revoking side from slam in the hand
        barred = {side._value_ for side in revokers}
        lost = sorted({e[0] for e in out if e[5] == "slam" and e[0] in barred})
        if lost:
            out = [e for e in out if not (e[5] == "slam" and e[0] in barred)]
            notes.append(f"{' and '.join(lost)} revoked: no slam is scored by a revoking side in the hand "
                         f"(law {rules.revoking_no_slam}).")
    return out, notes, revokers if rules.revoking_cap is not None else ()


def score_sheet(rules: Rules, sheet: Sheet, where: str = "", capped_below: Mapping[Any, int] | None = None) -> Score:
    """One deal played, scored from its checked :class:`.sheet.Sheet` (read from a score sheet by
    :func:`.sheet.read_sheet`, or made by :func:`.fast.score_dealt` from the facts a table checked itself): the
    deal core's rows, held where the code caps a revoking side's score toward game (``capped_below``: each side's
    score toward game so far, by the text of the side), and its notes."""
    who = _VARIANTS[rules.three]
    rows, notes, capped = score_core(rules, sheet, who, where)
    out: tuple[Row, ...] | list[Row] = rows
    if capped and rules.revoking_cap is not None:
        notes = list(notes)
        out = cap_entries(rows, capped, dict(capped_below or {}), *rules.revoking_cap, notes=notes)
    kept = who.kept(sheet) if who.three else ()
    return new_score(rules.id, tuple(out), tuple(notes), capped, kept)  # type: ignore[arg-type]


def play(rules: Rules, cp: ContractPlan, who: Partnerships, declaring: tuple[str, ...], defending: tuple[str, ...],
         own: int, moved: int, original: bool, spade_note: str, no_trick: frozenset[str] | set[str],
         out: list[Row], notes: list[str]) -> None:
    """The rows of the play: the odd tricks (and, doubled, the bonus) or the under-tricks, and slams by either side.
    ``own`` are the tricks the declaring side won in play, ``moved`` those transferred to it for revokes;
    ``declaring``, ``defending`` and ``no_trick`` name sides (three-hand: players) as rows do."""
    # tricks taken for a revoke are added (they cannot exceed what the other side holds) but count for no bonus
    # or slam: "independently of any tricks taken for the revoke"
    tricks = own + max(-own, min(moved, 13 - own)) if moved else own
    if tricks - own != moved:
        notes.append(_short_of_tricks_note(moved, abs(tricks - own), defending if moved > 0 else declaring))
    book = cp.book
    needed = cp.needed
    if needed is not None:  # auction
        if tricks >= needed:
            odd = tricks - book
            points = odd * cp.per
            if points:
                for w in declaring:
                    if w not in no_trick:
                        out.append((w, "trick", points, "%d tricks at %d%s", cp.trick_law, "tricks", odd,
                                    cp.trick_shown, cp.trick_suffix))
            if cp.bonus is not None and own >= needed:
                extra = own - needed
                for w in declaring:
                    out.append(who.bonus_row(w, cp.bonus * (1 + extra), cp.bonus_law, cp.dbl, extra))
        elif cp.under is not None:
            short = needed - tricks
            each = cp.under
            points = short * each
            law = cp.under_law
            note = ""
            if cp.limit_always or (original and cp.limit_if_original):
                limit, slaw = rules.spade_limit  # type: ignore[misc]
                if points > limit:
                    points, law = limit, slaw
                    # the limit's reach is the code's (one_spade_limit_applies_to): say the one it applied
                    note = (" (limited to %d on one spade)" if cp.limit_always
                            else " (limited to %d on the dealer's original one spade)") % limit
            elif spade_note and cp.limit_if_original and points > rules.spade_limit[0]:  # type: ignore[index]
                notes.append("The limit of loss on the dealer's original one spade (law "
                             f"{rules.spade_limit[1]}) is not applied: the sheet names neither the dealer "  # type: ignore[index]
                             "nor original_one_spade.")
            for w in defending:
                out.append(who.under_row(w, points, law, short, each, note))
    else:  # straight bridge: either side scores the odd tricks it wins
        for side, won in ((declaring[0], tricks), (defending[0], 13 - tricks)):
            if won > book and side not in no_trick:
                odd = won - book
                out.append((side, "trick", odd * cp.per, "%d tricks at %d%s", cp.trick_law, "tricks", odd,
                            cp.trick_shown, cp.trick_suffix))

    # slams, by either side, without revoke tricks
    if own >= 12 or own <= 1:
        winners, won = (declaring, own) if own >= 12 else (defending, 13 - own)
        slam = rules.slam if won == 13 else rules.little_slam if won == 12 else None
        if slam is not None:
            reason = who.SLAM if won == 13 else who.LITTLE
            for w in winners:
                out.append((w, "honour", slam[0], reason, slam[1], "slam"))


def premium(rules: Rules, whos: tuple[str, ...], out: list[Row]) -> None:
    """Duplicate: a premium for the trick points of one deal."""
    least = rules.premium_trick_points
    points, law = rules.premium  # type: ignore[misc]
    made_by: dict[str, int] = {}
    for e in out:
        if e[1] == "trick":
            made_by[e[0]] = made_by.get(e[0], 0) + e[2]
    if not made_by and least > 0:  # no trick points: no premium
        return
    for w in whos:
        made = made_by.get(w, 0)
        if made >= least:
            out.append((w, "honour", points, "premium: %d trick points in one deal", law, "premium", made))


def _penalties(sheet: Sheet, out: list[Row]) -> None:
    for p in sheet.penalties:
        if p.points:
            out.append((p.who._value_, p.column, p.points, p.reason, p.law, "penalty"))


def cap_entries(rows: list[Row] | tuple[Row, ...], sides: tuple[Side, ...], below: dict[str, int], cap: int,
                law: str, notes: list[str] | None = None) -> tuple[Row, ...]:
    """Hold each revoking side's trick points in the hand so that its score toward game (``below``, by the text of
    the side) stays at or under ``cap`` (1904 law 90 V, 1905 law 89), and a value deducted from its existing score
    within what it has in the game (1904 law 90 I, III); ``notes`` is told of a deduction so held."""
    out = list(rows)
    for side_of in sides:
        side = side_of._value_
        mine = [e for e in out if e[0] == side and e[1] == "trick" and e[2] > 0]
        total = sum(e[2] for e in mine)
        allowed = max(0, cap - below.get(side, 0))
        if total > allowed:
            out = [e for e in out if all(e is not m for m in mine)]
            if allowed:
                out.append((side, "trick", allowed, "(capped at %d toward game)", law, "tricks", cap))
        # a value deducted from the revoking side's "existing score" (1904 law 90 I) comes off its score in this game
        # only (III): never below nothing, and never off the trick points of a game already won
        taken = [e for e in out if e[0] == side and e[1] == "trick" and e[2] < 0]
        existing = below.get(side, 0) + min(total, allowed)
        if taken and -sum(e[2] for e in taken) > existing:
            out = [e for e in out if all(e is not m for m in taken)]
            if existing:
                out.append((side, "trick", -existing, "revoke by %s (all of an existing score of %d in the game)",
                            taken[0][4], "revoke", taken[0][6], existing))
            if notes is not None:
                notes.append(f"revoke by {taken[0][6]}: the value deducted is held to {side}'s existing score in the "
                             f"game, {existing} (law {taken[0][4]}: deducted from his existing score, applicable only "
                             "to the score of the game in which it occurs)")
    return tuple(out)
