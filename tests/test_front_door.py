"""The public API is small and pinned."""

import bridgelaw


def test_all_is_pinned():
    assert sorted(bridgelaw.__all__) == sorted([
        "rule", "score", "Score", "ScoreEntry", "Contract", "Table", "Answer", "load_code", "codes", "Code", "Law", "Provision", "Incident", "Ruling", "Option", "Effect",
        "EffectKind", "Question", "TraceStep", "LawCitation", "Call", "CallKind", "Card", "Seat", "Side",
        "Strain", "Suit", "BridgelawError", "LawFileError", "ConditionError", "InputError", "UnknownCodeError",
    ])
    for name in bridgelaw.__all__:
        assert hasattr(bridgelaw, name), name


def test_errors_have_one_base():
    for e in (bridgelaw.LawFileError, bridgelaw.ConditionError, bridgelaw.InputError, bridgelaw.UnknownCodeError):
        assert issubclass(e, bridgelaw.BridgelawError)


def test_value_reprs_paste_back():
    from bridgelaw import Call, Card, Seat

    assert eval(repr(Call("2NT"))) == Call("2NT")
    assert eval(repr(Card("H10"))) == Card("HT")
    assert Seat.N.partner is Seat.S and Seat.N.lho is Seat.E and Seat.N.rho is Seat.W
    code = bridgelaw.load_code("wcny-1913")
    assert repr(code) == "load_code('wcny-1913')"


def test_incident_repr_paste_back():
    from bridgelaw.facts import parse_incident

    inc = parse_incident({"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]})
    assert "auction=['1H', '1S']" in repr(inc)
