"""The deal core: one scorer for tricks, doubling, under-tricks, slams, honours and revokes, with a hook for who
scores.

:class:`Partnerships` (four hands) and :class:`Players` (three-hand: each player for himself) are the hook. They
say who scores for the declaring side and for the adversaries, how honours are held and counted, how revokes are
seen, and the wording that differs; everything else — the odd tricks, the doubled bonus, the under-tricks and the
one-spade limit, slams by either side, a revoking side's limits — is scored here once.
"""

from __future__ import annotations

from typing import Any

from ..values import Seat, Side, Strain
from .model import ScoreEntry
from .revokes import revoke_effects
from .rules import DOUBLINGS, Rules, one_spade_limit_applies
from .sheet import Sheet

__all__ = ["Partnerships", "Players", "score_core", "cap_entries", "variant_of"]

Who = Side | Seat
# what a revoking side still scores: its honours (and chicane), the penalties the other side pays it, and the
# penalty points other laws gave it
_KEPT_BY_REVOKERS = frozenset({"honours", "chicane", "revoke", "penalty"})


class Partnerships:
    """Four hands, two partnerships: a side scores."""

    three = False
    UNDER = "%d under-trick(s) at %d%s"
    SLAM = "grand slam: all thirteen tricks"
    LITTLE = "little slam: twelve tricks"
    PENALTIES_FIRST = True

    def kept(self, sheet: Sheet) -> tuple[Who, ...]:
        return (Side.NS, Side.EW)

    def declaring(self, sheet: Sheet) -> tuple[Who, ...]:
        return (sheet.declarer.side,)

    def defending(self, sheet: Sheet) -> tuple[Who, ...]:
        return (sheet.declarer.side.other,)

    def bonus_reason(self, dbl: str, extra: int) -> tuple[str, tuple[Any, ...] | None]:
        if extra:
            return "%s contract made with %d extra trick(s)", (dbl, extra)
        return "%s contract made", (dbl,)

    def under_args(self, short: int, per: int, note: str) -> tuple[Any, ...]:
        return (short, per, note)

    def revokes(self, rules: Rules, sheet: Sheet, per_trick: int, out: list[ScoreEntry], notes: list[str],
                where: str) -> tuple[int, set[Who], set[Who], tuple[Side, ...]]:
        """Each revoke through the code's provisions: (tricks moved to the declaring side, who scores no trick
        points, who scores only honours and penalties, the revoking sides)."""
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
            for side, column, points in eff.scores:
                if points:
                    out.append(ScoreEntry(side, column, points, "revoke by %s", eff.law, (r.offender.value,), "revoke"))
            for frm, to, n in eff.transfers:
                moved += n if to is declarer.side else -n
                notes.append(_transfer_note(rules, n, frm.value, to.value, eff.law))
            no_trick.update(eff.no_trick_score)
            only.update(eff.honours_only)
        return moved, no_trick, only, revokers

    def honours(self, rules: Rules, sheet: Sheet, value: int, out: list[ScoreEntry]) -> None:
        held = sheet.held
        if held is not None:
            side, key = held
            words = key.replace("_", " ")
            if sheet.contract.strain is Strain.NT:
                pts, law = rules.honours_no_trump[key]
                out.append(ScoreEntry(side, "honour", pts, "honours: %s", law, (words,), "honours"))
            else:
                times, law = rules.honours_trump[key]
                if times * value:
                    out.append(ScoreEntry(side, "honour", times * value, "honours: %s (%d x %d)", law,
                                          (words, times, value), "honours"))
        if sheet.chicane and rules.chicane is not None:
            _chicane(rules, sheet, value, out)


def _chicane(rules: Rules, sheet: Sheet, value: int, out: list[ScoreEntry]) -> None:
    times, law = rules.chicane  # type: ignore[misc]
    held = sheet.held
    for side in (Side.NS, Side.EW):
        void = [s for s in sheet.chicane if s.side is side]
        if not void:
            continue
        names = " and ".join(s.value for s in void)
        if rules.chicane_rule == "add":  # English: each player void of trumps scores chicane for his side
            for seat in void:
                out.append(ScoreEntry(side, "honour", times * value, "chicane: %s holds no trump (%d x %d)", law,
                                      (seat.value, times, value), "chicane"))
        elif len(void) == 2 and rules.double_chicane is not None:  # American: off the adversaries' honours
            dtimes, dlaw = rules.double_chicane
            out.append(ScoreEntry(side.other, "honour", -dtimes * value,
                                  "double chicane: %s hold no trump, deducted (%d x %d)", dlaw,
                                  (names, dtimes, value), "chicane"))
        elif held is not None and held[0] is side:  # American: added when the chicane side scores honours
            out.append(ScoreEntry(side, "honour", times * value, "chicane: %s holds no trump (%d x %d)", law,
                                  (names, times, value), "chicane"))
        else:  # ... deducted from the adversaries' honours when they score them
            out.append(ScoreEntry(side.other, "honour", -times * value,
                                  "chicane: %s holds no trump, deducted (%d x %d)", law, (names, times, value),
                                  "chicane"))


def _transfer_note(rules: Rules, n: int, frm: str, to: str, law: str) -> str:
    return (f"{n} tricks transferred from {frm} to {to} for the revoke (law {law}): "
            + ("they count toward the contract but earn no bonus or slam." if rules.auction else
               "they count as tricks won, but earn no slam."))


_COUNT_KEYS = ("", "one", "two", "three", "four", "five")  # honours.by_player.trump, by how many one hand holds


class Players(Partnerships):
    """Three-hand: each player scores for himself; the declarer plays his hand and the dummy, and the two
    adversaries are partners for the hand (T7). The declaring side's score is the declarer's; the adversaries'
    goes to each of them (T12); honours are each player's own, the declarer counting his and the dummy's (T13)."""

    three = True
    UNDER = "%d under-trick(s)%s"
    SLAM = "grand slam"
    LITTLE = "little slam"
    PENALTIES_FIRST = False

    def kept(self, sheet: Sheet) -> tuple[Who, ...]:
        return tuple(s for s in Seat if s is not sheet.dummy)

    def declaring(self, sheet: Sheet) -> tuple[Who, ...]:
        return (sheet.declarer,)

    def defending(self, sheet: Sheet) -> tuple[Who, ...]:
        return tuple(s for s in Seat if s is not sheet.dummy and s is not sheet.declarer)

    def bonus_reason(self, dbl: str, extra: int) -> tuple[str, tuple[Any, ...] | None]:
        return "%s contract made", (dbl,)

    def under_args(self, short: int, per: int, note: str) -> tuple[Any, ...]:
        return (short, note)

    def revokes(self, rules: Rules, sheet: Sheet, per_trick: int, out: list[ScoreEntry], notes: list[str],
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
            if not (got or any(p for _, _, p in eff.scores) or eff.no_trick_score or eff.honours_only):
                notes.append(f"revoke by {r.offender.value}" + (" (the dummy's hand)" if r.offender is dummy else "")
                             + ": the code's revoke provisions give it no score.")
            for side, column, points in eff.scores:
                if points:
                    for seat in ((declarer,) if side is dside else adversaries):
                        out.append(ScoreEntry(seat, column, points, "revoke by %s", eff.law, (r.offender.value,),
                                              "revoke"))
            for sides, into in ((eff.no_trick_score, no_trick), (eff.honours_only, only)):
                for side in sides:
                    into.update((declarer,) if side is dside else adversaries)
        return moved, no_trick, only, ()

    def honours(self, rules: Rules, sheet: Sheet, value: int, out: list[ScoreEntry]) -> None:
        counts = sheet.counts or {}
        nt = sheet.contract.strain is Strain.NT
        for seat in self.kept(sheet):
            total, best = counts.get(seat, (0, 0))  # type: ignore[call-overload]
            if nt:
                each, law = rules.by_player_no_trump["each_ace"]
                pts = total * each
                if best == 4:
                    pts, law = rules.by_player_no_trump["four_aces_in_one_hand"]
                if pts:
                    out.append(ScoreEntry(seat, "honour", pts, "honours: %d ace(s)", law, (total,), "honours"))
                continue
            hands = (best, total - best) if seat is sheet.declarer else (total,)
            pts, law = 0, ""
            for n in hands:
                if n:
                    times, law = rules.by_player_trump[_COUNT_KEYS[n]]
                    pts += times * value
            if pts:
                out.append(ScoreEntry(seat, "honour", pts, "honours: %d held", law, (total,), "honours"))


_VARIANTS = {False: Partnerships(), True: Players()}


def variant_of(rules: Rules) -> Partnerships:
    """Who scores under this code: partnerships, or (three-hand) each player."""
    return _VARIANTS[rules.three]


def score_core(rules: Rules, sheet: Sheet, who: Partnerships, where: str = ""
               ) -> tuple[list[ScoreEntry], list[str], tuple[Side, ...]]:
    """One deal's entries (before any cap on a revoking side toward game), its notes, and the revoking sides."""
    out: list[ScoreEntry] = []
    notes: list[str] = []
    contract = sheet.contract
    strain = contract.strain._value_
    value = rules.values[strain]
    doubled = contract.doubled
    per = rules.trick_value(strain, doubled)
    declaring, defending = who.declaring(sheet), who.defending(sheet)

    moved, no_trick, only, revokers = (who.revokes(rules, sheet, per, out, notes, where) if sheet.revokes
                                       else (0, set(), set(), ()))
    if who.PENALTIES_FIRST:
        _penalties(sheet, out)

    # `tricks` are those won in play; tricks taken for a revoke are added (they cannot exceed what the other side
    # holds) but count for no bonus or slam: "independently of any tricks taken for the revoke"
    own = sheet.tricks
    tricks = own + max(-own, min(moved, 13 - own))
    book = rules.book
    if rules.auction:
        needed = book + (contract.level or 0)
        if tricks >= needed:
            odd = tricks - book
            mult = rules.mult[doubled]
            law = rules.value_law if mult == 1 else rules.mult_law
            for w in declaring:
                if w not in no_trick and odd * per:
                    out.append(ScoreEntry(w, "trick", odd * per, "%d tricks at %d%s", law,
                                          (odd, value, " x%d" % mult if mult > 1 else ""), "tricks"))
            if doubled and own >= needed and rules.doubled_bonus is not None:
                bonus, blaw = rules.doubled_bonus[doubled]
                reason, args = who.bonus_reason(DOUBLINGS[doubled], own - needed)
                for w in declaring:
                    out.append(ScoreEntry(w, "honour", bonus * (1 + own - needed), reason, blaw, args, "bonus"))
        elif rules.undertrick is not None:
            short = needed - tricks
            each, law = rules.undertrick[doubled]
            points = short * each
            note = ""
            if one_spade_limit_applies(rules, contract.level, strain, doubled, sheet.original_one_spade):
                limit, slaw = rules.spade_limit  # type: ignore[misc]
                if points > limit:
                    points, law = limit, slaw
                    note = " (limited to %d on the dealer's original one spade)" % limit
            elif sheet.spade_note and one_spade_limit_applies(rules, contract.level, strain, doubled, True) \
                    and points > rules.spade_limit[0]:  # type: ignore[index]
                notes.append("The limit of loss on the dealer's original one spade (law "
                             f"{rules.spade_limit[1]}) is not applied: the sheet names neither the dealer "  # type: ignore[index]
                             "nor original_one_spade.")
            for w in defending:
                out.append(ScoreEntry(w, "honour", points, who.UNDER, law, who.under_args(short, each, note),
                                      "undertricks"))
    else:  # straight bridge: either side scores the odd tricks it wins
        law = rules.value_law if doubled == 1 else rules.mult_law
        for side, won in ((declaring[0], tricks), (defending[0], 13 - tricks)):
            if won > book and side not in no_trick:
                odd = won - book
                out.append(ScoreEntry(side, "trick", odd * per, "%d tricks at %d%s", law,
                                      (odd, per, " (%d x%d)" % (value, doubled) if doubled > 1 else ""), "tricks"))

    # slams, by either side, without revoke tricks
    if own >= 12 or own <= 1:
        winners, won = (declaring, own) if own >= 12 else (defending, 13 - own)
        slam = rules.slam if won == 13 else rules.little_slam if won == 12 else None
        if slam is not None:
            for w in winners:
                out.append(ScoreEntry(w, "honour", slam[0], who.SLAM if won == 13 else who.LITTLE, slam[1], None,
                                      "slam"))

    # honours and chicane, by the holders, at the undoubled trick value
    who.honours(rules, sheet, value, out)
    if not who.PENALTIES_FIRST:
        _penalties(sheet, out)

    # duplicate: a premium for the trick points of one deal
    if rules.premium is not None:
        for w in declaring + defending:
            made = 0
            for e in out:
                if e.side is w and e.column == "trick":
                    made += e.points
            if made >= rules.premium_trick_points:
                out.append(ScoreEntry(w, "honour", rules.premium[0], "premium: %d trick points in one deal",
                                      rules.premium[1], (made,), "premium"))

    if only:  # a revoking side scores nothing but honours (and, under some codes, chicane)
        out = [e for e in out if e.side not in only or e.rule in _KEPT_BY_REVOKERS]
    if revokers and rules.revoking_no_slam:  # 1904 law 90, V: no Grand Slam or Little Slam, that hand
        out = [e for e in out if not (e.rule == "slam" and e.side in revokers)]
    return out, notes, revokers if rules.revoking_cap is not None else ()


def _penalties(sheet: Sheet, out: list[ScoreEntry]) -> None:
    for p in sheet.penalties:
        if p.points:
            out.append(ScoreEntry(p.who, p.column, p.points, p.reason, p.law, None, "penalty"))


def cap_entries(entries: list[ScoreEntry] | tuple[ScoreEntry, ...], sides: tuple[Side, ...],
                below: dict[Any, int], cap: int, law: str) -> tuple[ScoreEntry, ...]:
    """Hold each revoking side's trick points in the hand so that its score toward game stays at or under ``cap``
    (1904 law 90 V, 1905 law 89)."""
    out = list(entries)
    for side in sides:
        mine = [e for e in out if e.side is side and e.column == "trick" and e.points > 0]
        total = sum(e.points for e in mine)
        allowed = max(0, cap - below.get(side, 0))
        if total > allowed:
            out = [e for e in out if all(e is not m for m in mine)]
            if allowed:
                out.append(ScoreEntry(side, "trick", allowed, "(capped at %d toward game)", law, (cap,), "tricks"))
    return tuple(out)
