"""The play: cards in turn and out of it, revokes noted, established and corrected, penalties in force, cards
exposed, claims, cards played together (a mixin of the table core)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import IllegalActionError, MalformedActionError, OutOfTurnError
from ..obligations import broken, obliged, trick_winner
from ..values import Card, EffectKind, Ruling, Seat
from .base import (
    TableParts, _CARD_TEXTS, _CLAIM_FACTS, _LEGAL, _LHO, _PARTNER, _SIDE, Answer, _kind_facts, answer_of,
)
from .rulings import rule_cached
from .state import HistoryEntry, Obligation, Revoke, Trick

if TYPE_CHECKING:  # pragma: no cover
    from ..loader import Code
    from .model import Rules
    from .state import TableState

__all__ = ["Play"]


def _clockwise(lead: str) -> tuple[str, ...]:
    order = [lead]
    while len(order) < len(_LHO):
        order.append(_LHO[order[-1]])
    return tuple(order)


# for each order of a row's seats, and each leader: the leader's place in the row, then the others in the order
# they play, each with his place in the row (Table.play_tricks)
_TRICK_PLANS = {seats: {lead: (seats.index(lead), tuple((s, seats.index(s)) for s in _clockwise(lead)[1:]))
                        for lead in _LHO}
                for seats in ("".join(p) for p in itertools.permutations(_LHO))}



# who had played to the trick after the offender when he corrected his renounce (the revoke's `followers`, by
# how many cards follow his in the trick; the leader never renounces)
_FOLLOWERS = ("nobody", "next_player", "next_two_players")

class Play(TableParts):
    """The table's play: :meth:`play`, :meth:`legal_cards` and the other acts of the play."""


    def _strain(self) -> str:
        """The contract's strain (C D H S R NT)."""
        return self._st.contract[1:]  # type: ignore[index]

    def _trump(self) -> str | None:
        contract = self._st.contract
        tc = self._tc
        if tc[0] == contract:
            return tc[1]
        if contract is None:
            return None
        strain = self._strain()
        trump = None if strain == "NT" else "S" if strain == "R" else strain
        self._tc = (contract, trump)
        return trump

    def play(self, seat: str | Seat, card: str | Card) -> Answer:
        """A card played by ``seat`` (the declarer plays the dummy's cards as the dummy's seat)."""
        st = self._st
        if st.pending is not None:
            self._refuse_while_pending()
        if st.phase != "play":
            raise OutOfTurnError("card", f"no card can be played now (phase {st.phase})")
        hands = st.hands
        cur = st.current
        if type(seat) is str and type(card) is str and seat == (_LHO[cur[-1][0]] if cur else st.leader) \
                and hands is not None and not st.exposed and not st.obligations and st.detect:
            # the common case, inline: the seat to play (so a seat) plays a card of his hand (so a card), no
            # penalty in force; the card leaves the hand for the trick
            hand: list[str] | None = hands[seat]
            try:
                hand.remove(card)  # type: ignore[union-attr]
            except ValueError:
                hand = None  # not a card he holds as written: the general path below says what it is
            if hand is not None:
                if cur:
                    led = cur[0][1][0]
                    if card[0] != led:  # a renounce: a revoke if he holds the suit led (as _note_revoke notes it)
                        for x in hand:
                            if x[0] == led:
                                st.revokes.append(Revoke(seat, len(st.tricks) + 1))
                                break
                cur.append((seat, card))
                ans = _LEGAL
                if len(cur) == 4:
                    self._quit_trick()
                    if st.revokes and st.phase == "done":  # the last trick quitted: the deal is over
                        ans = self._established_revokes()
                elif st.revokes and len(cur) == 1 and not st.revokes[-1].established:
                    # the trick of a revoke was turned and quitted, and a card is played to the next: established
                    # (revokes are established in the order made: the last one established, all are)
                    ans = self._established_revokes()
                st.history.append(("play", seat, card) if ans is _LEGAL else
                                  self._entry("play", seat, {"card": card}, ans))
                return ans
        sv = seat if type(seat) is str and seat in _LHO else self._seat(seat)
        ct = card if type(card) is str and card in _CARD_TEXTS else self._card(card)
        if hands is not None and ct not in hands[sv]:
            raise MalformedActionError("card", f"{sv} does not hold {ct}")
        ans = self._play(sv, ct)
        st.history.append(("play", sv, ct) if ans is _LEGAL else self._entry("play", sv, {"card": ct}, ans))
        return ans

    def play_tricks(self, seats: str, rows: Sequence[Sequence[str]]) -> int:
        """Whole tricks at once, as a record lists them: ``rows[k]`` holds a card for each of ``seats`` (a
        permutation of N E S W: ``rows[k][i]`` is ``seats[i]``'s card), and each trick is played from its
        leader clockwise — exactly as :meth:`play` plays the same cards one by one. Only the plain cards are
        played here: a card of the hand of the seat in turn that follows suit, or renounces holding none of the
        suit led, with no ruling waiting, no penalty in force and no card exposed. At the first card that is
        not plain this stops before it: it is the caller's, to give to :meth:`play`, which rules on it. Begun
        between tricks (else nothing is played), and not while a revoke waits to be established. Returns the
        number of cards played; each is in :attr:`history` as :meth:`play` puts it there."""
        plans = _TRICK_PLANS.get(seats) if type(seats) is str else None
        if plans is None:
            raise MalformedActionError("seats", f"expected the four seats in a row's order, such as 'NESW'; got "
                                                f"{seats!r:.20}")
        st = self._st
        if st.pending is not None or st.phase != "play" or st.current or st.hands is None or st.exposed \
                or st.obligations or not st.detect or st.revokes and not st.revokes[-1].established:
            return 0  # (a revoke established is ruled on already: the cards after it are plain again)
        hands = st.hands
        log = st.history.append
        tricks = st.tricks
        trump = self._trump()  # (the contract stands through the play)
        leader: str = st.leader  # type: ignore[assignment]
        played = 0
        for row in rows:
            if len(row) != len(seats):
                return played  # not a card for each seat: the caller's
            cur = st.current
            at, others = plans[leader]
            card = row[at]  # the lead
            if type(card) is not str:
                return played
            try:
                hands[leader].remove(card)
            except ValueError:
                return played  # not a card of his hand as written: play() says what it is
            cur.append((leader, card))
            log(("play", leader, card))
            played += 1
            led = card[0]
            for s, i in others:
                card = row[i]
                if type(card) is not str:
                    return played
                hand = hands[s]
                if card[:1] != led:  # a renounce: plain only if he holds none of the suit led
                    for x in hand:
                        if x[0] == led:
                            return played
                try:
                    hand.remove(card)
                except ValueError:
                    return played
                cur.append((s, card))
                log(("play", s, card))
                played += 1
            # the trick turned and quitted, as _quit_trick quits it
            st.leader = leader = trick_winner(cur, trump)
            tricks.append(Trick(cur[0][0], cur, leader))
            st.current = []
            if len(tricks) == 13:
                st.phase = "done"
                break
        return played

    def _play(self, sv: str, ct: str) -> Answer:
        """A card out of turn, under a penalty in force, beside an exposed card, or not refereed."""
        st = self._st
        hands = st.hands
        cur = st.current
        if not st.detect:
            self._lay(sv, ct)
            if len(cur) == 4:
                self._quit_trick()
            return _LEGAL
        expected = _LHO[cur[-1][0]] if cur else st.leader
        if sv != expected:
            return self._out_of_turn_card(sv, ct, expected)  # type: ignore[arg-type]
        # obligations from earlier penalties: a called or forbidden lead, a called card, highest or lowest,
        # win or lose the trick
        if st.obligations and hands is not None:
            allowed, why = obliged(st.obligations, sv, hands[sv], cur, self._trump())
            if allowed is not None and ct not in allowed:
                ans = self._ruled("failure_to_play_as_directed", sv,
                                  {"corrected": False,
                                   "obligation": broken(st.obligations, sv, ct, hands[sv], cur, self._trump())},
                                  card=(sv, ct))
                return answer_of(False, ans.kind, ans.facts, ans.ruling,
                                 f"{sv} {why}: {' or '.join(allowed)}, not {ct}")
        if cur and hands is not None:
            self._note_revoke(sv, ct, cur, hands[sv])
        self._lay(sv, ct)
        if len(cur) == 4:
            self._quit_trick()
            if st.revokes and st.phase == "done":  # the last trick quitted: the deal is over
                return self._established_revokes()
        elif st.revokes and len(cur) == 1:
            # the trick of a revoke was turned and quitted, and a card is played to the next: established
            return self._established_revokes()
        return _LEGAL

    def _out_of_turn_card(self, sv: str, ct: str, expected: str) -> Answer:
        st = self._st
        cur = st.current
        trick_no = len(st.tricks) + 1
        if not cur:
            if trick_no == 1 and sv == _PARTNER[expected]:
                ans = self._before_the_opening_lead(sv, ct)
                if ans is not None:
                    return ans
            return self._ruled("lead_out_of_turn", sv, {"card": ct, "proper_leader": expected, "trick": trick_no,
                                                        "accepted": False, "followed_by": "nobody"},  # caught at once
                               card=(sv, ct))
        leader = cur[0][0]
        facts: dict[str, Any] = {"trick": trick_no}
        partner = _PARTNER[sv]
        if any(w == sv for w, _ in cur) and not any(w == partner for w, _ in cur):
            facts["position"] = "leads_before_partner_played"  # on to the next trick before his partner played
        elif len(cur) == 1 and sv == _LHO[_PARTNER[leader]]:  # the fourth hand before the second
            facts["position"] = "fourth_before_second"
        elif len(cur) == 1 and sv == _PARTNER[leader] and st.declarer and _SIDE[sv] == _SIDE[st.declarer]:
            facts["position"] = "third_before_second"  # the declarer third before the second
        else:
            facts["position"] = "other"
        second = _LHO[leader]
        if len(cur) == 1 and st.hands is not None and sv != second:  # the table sees whether he could follow
            facts["second_hand_void"] = not any(c[0] == cur[0][1][0] for c in st.hands[second])
        return self._ruled("premature_play", sv, facts, card=(sv, ct))

    def _before_the_opening_lead(self, sv: str, ct: str) -> Answer | None:
        """The opening lead made by the proper leader's partner: ruled first under the code's law for cards
        exposed or led after the final declaration and before the lead (1913 law 66 and its like), where the
        code has one that reaches him; else (None) as a lead out of turn."""
        kind = "exposed_card_before_lead"
        if kind not in self.code.by_kind:
            return None
        facts: dict[str, Any] = {"card": ct}
        incident = self._incident(kind, sv, facts, {})
        r = rule_cached(self.code, incident)
        if not r.options and not r.questions and all(e.kind is EffectKind.NO_PROVISION for e in r.effects):
            return None
        return self._pend(r, incident, sv, facts, None, (sv, ct))

    def _note_revoke(self, sv: str, ct: str, cur: list[tuple[str, str]], hand: list[str]) -> None:
        """He renounces holding the suit led: a revoke, established when the trick is quitted."""
        led = cur[0][1][0]
        if ct[0] != led:
            for x in hand:
                if x[0] == led:
                    self._st.revokes.append(Revoke(sv, len(self._st.tricks) + 1))
                    break

    def legal_cards(self) -> list[str]:
        """The cards the player to play may play without revoking or breaking a penalty in force (the
        declarer plays the dummy's as the dummy's seat); empty where the table does not hold the hands."""
        st = self._st
        if st.phase != "play" or st.hands is None or st.pending is not None:
            return []
        sv = self._next_player()
        hand, cur = st.hands[sv], st.current
        led = cur[0][1][0] if cur else None
        follow = [c for c in hand if c[0] == led] if led else []
        allowed, _ = obliged(st.obligations, sv, hand, cur, self._trump())
        return [c for c in (follow or hand) if allowed is None or c in allowed] or list(allowed or follow or hand)

    def call_card(self, seat: str | Seat, card: str | Card) -> None:
        """An adversary calls ``seat``'s exposed card: he must play it the next time he plays, if he can
        without revoking (an exposed card is "subject to call")."""
        self._refuse_while_pending()
        s, c = self._seat(seat), self._card(card)
        if self._st.phase != "play":
            raise OutOfTurnError("card", f"no card can be called now (phase {self._st.phase})")
        if c not in self._st.exposed.get(s, []):
            raise MalformedActionError("card", f"{c} is not an exposed card of {s}'s; exposed: "
                                       + (", ".join(self._st.exposed.get(s, [])) or "none"))
        self._st.obligations.append(Obligation("play_card", s, card=c))
        self._st.history.append(HistoryEntry("call_card", s, {"card": c}))

    def _lay(self, sv: str, ct: str) -> None:
        st = self._st
        if st.hands is not None:
            st.hands[sv].remove(ct)
        if st.exposed:
            ex = st.exposed.get(sv)
            if ex and ct in ex:
                ex.remove(ct)
                if not ex:
                    del st.exposed[sv]
        st.current.append((sv, ct))
        if st.obligations:
            leading = len(st.current) == 1
            st.obligations = [x for x in st.obligations if not (x.seat == sv or x.either and _PARTNER[x.seat] == sv)
                              or (x.kind in ("forbid_lead", "call_lead") and not leading)]

    def _quit_trick(self) -> None:
        st = self._st
        cur = st.current
        tc = self._tc
        win = trick_winner(cur, tc[1] if tc[0] == st.contract else self._trump())
        st.tricks.append(Trick(cur[0][0], cur, win))
        st.current = []
        st.leader = win
        if len(st.tricks) == 13:
            st.phase = "done"

    def _established_revokes(self, now: bool = False) -> Answer:
        """A revoke is established when its trick is turned and quitted and a card is played to the next (or
        the deal ends): rule on it now. The card that establishes it stands; the ruling is due."""
        st = self._st
        done = len(st.tricks)
        for rv in st.revokes:
            if not rv.established and (now or rv.trick <= done):
                rv.established = True
                side = _SIDE[rv.seat]
                # the dummy cannot revoke (law 63): a renounce from his hand counts toward no side's revokes; nor
                # does a revoke ruled without penalty (not claimed in time): the scorer counts as the table does
                dummy = _PARTNER[st.declarer] if st.declarer else None
                real = [r for r in st.revokes if r.established and r.seat != dummy and r.penalized is not False]
                n = max(1, sum(1 for r in real if _SIDE[r.seat] == side))
                both = len({_SIDE[r.seat] for r in real}) == 2
                facts = {"established": True, "revokes_by_side": n, "both_sides_revoked": both, "quitted": True,
                         **self._deal_facts()}
                incident = self._incident("revoke", rv.seat, facts, {})
                # the card that establishes it stands (a legal answer), and the ruling on the revoke is due
                return self._pend(rule_cached(self.code, incident), incident, rv.seat, facts, None, None, True,
                                  f"{rv.seat}'s revoke in trick {rv.trick} is established: its trick was turned and "
                                  "quitted" + ("" if done == 13 else " and a card played to the next"), rv.trick)
        return _LEGAL

    def quit_trick(self) -> Answer:
        """The last trick is turned and quitted before anyone plays on (the table quits a trick of four
        cards at once, so this only establishes a revoke in it): its revoke, if any, is ruled."""
        self._refuse_while_pending()
        if self._st.phase not in ("play", "done"):
            raise OutOfTurnError("quit_trick", f"no trick has been played (phase {self._st.phase})")
        ans = self._established_revokes()
        self._log("quit_trick", None, {}, ans)
        return ans

    def correct_revoke(self, seat: str | Seat) -> Answer:
        """``seat`` corrects his renounce in time to save a revoke: before his trick is turned and quitted
        and a card played to the next. The code's remedy for a revoke corrected in time is ruled; applying
        it takes the card played in error back (exposed, where the remedy says) and reopens the trick: the
        offender then plays a card of the suit led (``apply(..., card=...)``, or as the remedy directs)."""
        self._refuse_while_pending()
        st = self._st
        s = self._seat(seat)
        trick_now = len(st.tricks) + 1
        rv = next((r for r in st.revokes if r.seat == s and not r.established
                   and (r.trick == trick_now or (r.trick == trick_now - 1 and not st.current))), None)
        if rv is None:
            raise IllegalActionError("seat", f"{s} has no revoke that can still be corrected (a revoke is "
                                     "established once its trick is quitted and a card played to the next)")
        cards = st.current if rv.trick == trick_now else st.tricks[-1].cards
        declarer = st.declarer
        if declarer is None:  # pragma: no cover - cards are played only under a contract
            raise OutOfTurnError("seat", "no contract is being played")
        place = [w for w, _ in cards].index(s)
        facts = {"established": False, "quitted": False, **self._deal_facts(),
                 "offender_fourth_hand": place == 3,
                 "followers": _FOLLOWERS[len(cards) - 1 - place],
                 "adversaries_both_played": {_LHO[declarer], _LHO[_PARTNER[declarer]]} <= {w for w, _ in cards}}
        ans = self._ruled("revoke", s, facts)
        st.pending.correction = rv.trick  # type: ignore[union-attr]
        self._log("correct_revoke", s, {}, ans)
        return ans

    def expose(self, seat: str | Seat, card: str | Card) -> Answer:
        """A card exposed (dropped face up, shown, named) — in the auction, before the lead, or in play."""
        self._refuse_while_pending()
        st = self._st
        s, c = self._seat(seat), self._card(card)
        self._refuse_seat(s, "expose")
        if st.hands is not None and c not in st.hands[s]:
            raise MalformedActionError("card", f"{s} does not hold {c}")
        if st.phase == "auction":
            facts: dict[str, Any] = {"card": c}
            self._exposed_in_auction_facts(s, facts)
            ans = self._ruled("exposed_card_in_auction", s, facts)
        elif st.phase != "play":
            raise OutOfTurnError("card", f"no card can be exposed now (phase {st.phase})")
        elif not st.tricks and not st.current:
            ans = self._ruled("exposed_card_before_lead", s, {"card": c})
        else:
            ans = self._ruled("exposed_card", s, {"card": c, "how": "dropped_face_up"})
        self._log("expose", s, {"card": c}, ans)
        return ans

    def _exposed_in_auction_facts(self, s: str, facts: dict[str, Any]) -> None:
        """What a variant adds to the facts of a card exposed in the auction."""

    def claim(self, seat: str | Seat, threw_cards: bool = False) -> Answer:
        """A player claims the rest of the tricks (or throws his cards face up on the table). After the
        declarer's claim, an adversary's cards thrown face up are ruled as the code rules cards exposed then."""
        self._refuse_while_pending()
        st = self._st
        if st.phase != "play":
            raise OutOfTurnError("claim", f"no claim can be made now (phase {st.phase})")
        s = self._seat(seat)
        self._refuse_seat(s, "claim")
        if not isinstance(threw_cards, bool):
            raise MalformedActionError("threw_cards", f"expected true or false, got {threw_cards!r}")
        facts: dict[str, Any] = {"threw_cards": threw_cards}
        after = st.claimed_by is not None and s != st.declarer
        for name in _CLAIM_FACTS:  # the catalogue's names for "after the declarer's (straight: dealer's) claim"
            if name in _kind_facts("claim"):
                facts[name] = after
        ans = self._ruled("claim", s, facts)
        if s == st.declarer and st.claimed_by is None:
            st.claimed_by = s
        self._log("claim", s, {"threw_cards": threw_cards}, ans)
        return ans

    def play_together(self, seat: str | Seat, cards: Sequence[str | Card]) -> Answer:
        """Two or more cards played at once to the current trick."""
        self._refuse_while_pending()
        st = self._st
        s = self._seat(seat)
        if st.phase != "play":
            raise OutOfTurnError("cards", f"no card can be played now (phase {st.phase})")
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence) or len(cards) < 2:
            raise MalformedActionError("cards", f"expected a list of two or more cards, got {cards!r}")
        texts = [self._card(c, "cards") for c in cards]
        if len(set(texts)) != len(texts):
            raise MalformedActionError("cards", f"a card twice: {', '.join(texts)}")
        for c in texts:
            if st.hands is not None and c not in st.hands[s]:
                raise MalformedActionError("cards", f"{s} does not hold {c}")
        ans = self._ruled("extra_card_played", s, {"simultaneous": True, "corrected": False})
        st.pending.together = texts  # type: ignore[union-attr]
        self._log("play_together", s, {"cards": texts}, ans)
        return ans

