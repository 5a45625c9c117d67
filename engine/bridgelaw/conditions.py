"""The condition language: parse (lark), shape, check, compile.

Three separate passes, so that nothing hides inside lark's ``VisitError``:

1. :func:`parse` — ``grammar/conditions.lark`` (LALR) gives a parse tree and
   :class:`_Shaper` turns it into frozen dataclasses carrying line and column;
2. :func:`check` — walks that tree against an :class:`Env` (the facts a kind
   declares, the code's parameters, the function whitelist) and returns the
   expression's :class:`Type`, raising :class:`ConditionError` at the spot,
   with "did you mean";
3. :func:`compile_expr` — turns the checked tree into a Python closure.
   Parameters are folded into constants; no text is ever evaluated.

A compiled condition takes a :class:`Facts` mapping. Reading a fact nobody
gave raises :class:`MissingFact`, which the referee turns into a question.
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping
from functools import lru_cache

from . import limits
from .errors import ConditionError, did_you_mean
from .evaluation import (  # the types and what compiled conditions run with (one place each)
    ANY, BID, BOOL, CALL, CARD, FUNCTIONS, INT, ROLE, SEAT, SIDE, STR, STRAIN, SUIT, _BASE, _CODES, _NONES,
    _RECORDERS, _TREES, Compiled, Facts, MissingFact, Type, Unread, _attr, _constant, _fn_value, _is, _note,
    _role_test, _seat_tables, code_of, constant, namespace_base, rebuild,
)
from .resources import grammar_path
from .values import Call, Card, Seat, Side

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

__all__ = [
    "Expr",
    "Type",
    "Env",
    "Where",
    "MissingFact",
    "Compiled",
    "parse",
    "check",
    "compile_expr",
    "compile_condition",
    "names_used",
    "Learnt",
    "recording",
    "seed",
    "export",
]


# --------------------------------------------------------------------------
# The tree

@dataclass(frozen=True)
class Node:
    """A node of a checked condition tree, with where its text starts (line and column in the condition)."""

    line: int
    column: int


@dataclass(frozen=True)
class Lit(Node):
    """A literal: a whole number, a string or a boolean."""

    value: Any


@dataclass(frozen=True)
class Path(Node):
    """A fact, parameter or role by name, with its attributes (``call.level``, ``params.penalty.revoke``)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class FnCall(Node):
    """A call of one of the language's functions (``partner(offender)``, ``value(call)``)."""

    name: str
    args: tuple["Expr", ...]


@dataclass(frozen=True)
class ListExpr(Node):
    """A list of expressions (the right side of ``in`` and ``not in``)."""

    items: tuple["Expr", ...]


@dataclass(frozen=True)
class Not(Node):
    """``not`` and its operand."""

    operand: "Expr"


@dataclass(frozen=True)
class BoolOp(Node):
    """``and`` or ``or``, and its two operands."""

    op: str  # "and" | "or"
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Compare(Node):
    """A comparison (``== != < <= > >=``, ``is``, ``is not``, ``in``, ``not in``) and its two operands."""

    op: str  # == != < <= > >= is isnot in notin
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Arith(Node):
    """Arithmetic (``+ - * / %``) and its two operands."""

    op: str
    left: "Expr"
    right: "Expr"


Expr = Lit | Path | FnCall | ListExpr | Not | BoolOp | Compare | Arith



# --------------------------------------------------------------------------
# Parsing


def _at(n: int | None) -> int:
    """A token's line or column (lark always sets them for tokens the lexer made)."""
    return n or 1


@lru_cache(maxsize=1)
def _shaper() -> Any:
    """lark's Transformer that shapes the tree; built on first use so a warm start never imports lark."""
    from lark import Token, Transformer, v_args

    @v_args(meta=True)
    class _Shaper(Transformer):  # type: ignore[type-arg]
        """Only shapes lark's tree into our dataclasses; it checks nothing."""

        def int_(self, meta: Any, c: list[Token]) -> Lit:
            return Lit(_at(c[0].line), _at(c[0].column), int(c[0]))

        def string(self, meta: Any, c: list[Token]) -> Lit:
            return Lit(_at(c[0].line), _at(c[0].column), str(c[0])[1:-1])

        def true(self, meta: Any, c: list[Any]) -> Lit:
            return Lit(meta.line, meta.column, True)

        def false(self, meta: Any, c: list[Any]) -> Lit:
            return Lit(meta.line, meta.column, False)

        def path(self, meta: Any, c: list[Token]) -> Path:
            return Path(_at(c[0].line), _at(c[0].column), tuple(str(t) for t in c))

        def call(self, meta: Any, c: list[Any]) -> FnCall:
            name = c[0]
            args = tuple(a for a in c[1:] if a is not None)
            return FnCall(name.line, name.column, str(name), args)

        def list_(self, meta: Any, c: list[Any]) -> ListExpr:
            return ListExpr(meta.line, meta.column, tuple(a for a in c if a is not None))

        def not_(self, meta: Any, c: list[Any]) -> Not:
            return Not(meta.line, meta.column, c[0])

        def and_(self, meta: Any, c: list[Any]) -> BoolOp:
            return BoolOp(c[0].line, c[0].column, "and", c[0], c[1])

        def or_(self, meta: Any, c: list[Any]) -> BoolOp:
            return BoolOp(c[0].line, c[0].column, "or", c[0], c[1])

        def compare(self, meta: Any, c: list[Any]) -> Compare:
            return Compare(c[1].line, c[1].column, str(c[1]), c[0], c[2])

        def is_(self, meta: Any, c: list[Any]) -> Compare:
            return Compare(c[0].line, c[0].column, "is", c[0], c[1])

        def is_not(self, meta: Any, c: list[Any]) -> Compare:
            return Compare(c[0].line, c[0].column, "isnot", c[0], c[1])

        def in_(self, meta: Any, c: list[Any]) -> Compare:
            return Compare(c[0].line, c[0].column, "in", c[0], c[1])

        def not_in(self, meta: Any, c: list[Any]) -> Compare:
            return Compare(c[0].line, c[0].column, "notin", c[0], c[1])

        def arith(self, meta: Any, c: list[Any]) -> Arith:
            return Arith(c[1].line, c[1].column, str(c[1]), c[0], c[2])

    return _Shaper()


@lru_cache(maxsize=1)
def _parser() -> Any:
    """The LALR parser. lark caches its tables in a file we name inside our own (trusted) cache directory —
    never lark's default, a predictable name in the shared temporary directory."""
    import hashlib

    from lark import Lark

    from .cache import cache_dir

    grammar = grammar_path().read_text(encoding="utf-8")
    root = cache_dir()
    cache: bool | str = False
    if root is not None:
        cache = str(root / f"lark-{hashlib.sha256(grammar.encode()).hexdigest()[:32]}.tmp")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=cache)


@dataclass(frozen=True)
class Where:
    """Where an expression's text sits in its file, to report errors there.

    ``line``/``column`` are 1-based and point at the expression's first
    character; ``lines`` is the file's text split into lines (for the caret).
    ``locate``, where given, maps an offset in the expression's text to its
    line and column in the file — right where YAML folded a condition that
    wraps over several lines.
    """

    path: str = "<expression>"
    line: int = 1
    column: int = 1
    lines: tuple[str, ...] = ()
    field: str = ""
    text: str = dataclasses.field(default="", compare=False)
    locate: Callable[[int], tuple[int, int]] | None = dataclasses.field(default=None, compare=False, repr=False)

    def at(self, line: int, column: int, message: str) -> ConditionError:
        if self.locate is not None and self.text:
            rows = self.text.split("\n")
            offset = sum(len(r) + 1 for r in rows[: line - 1]) + column - 1
            abs_line, abs_col = self.locate(max(0, min(offset, len(self.text) - 1)))
        else:
            abs_line = self.line + line - 1
            abs_col = self.column + column - 1 if line == 1 else column
        src = self.lines[abs_line - 1] if 0 < abs_line <= len(self.lines) else None
        prefix = f"{self.field}: " if self.field else ""
        return ConditionError(prefix + message, self.path, abs_line, abs_col, src)


def parse(text: str, where: Where | None = None) -> Expr:
    """Parse one expression into the tree; syntax errors point at the spot; limits are refused, not hit."""
    where = where or Where(lines=tuple(text.splitlines()) or ("",))
    if not where.lines:
        where = Where(where.path, where.line, where.column, tuple(text.splitlines()) or ("",), where.field)
    if not isinstance(text, str) or not text.strip():
        raise where.at(1, 1, "empty condition: expected an expression such as 'established and offender is adversary'")
    hit = _TREES.get(text)
    if hit is not None:
        _note(text, None)
        return hit
    if len(text) > limits.CONDITION_LENGTH:
        line, col = _line_col(text, limits.CONDITION_LENGTH)
        raise where.at(line, col, f"a condition of {len(text):,} characters: at most {limits.CONDITION_LENGTH:,}; "
                       "split the provision, or name the idea as a fact in laws/kinds.yaml")
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as e:
        raise where.at(e.line, e.column, f"unexpected character {text[e.pos_in_stream or 0]!r} in condition") from None
    except UnexpectedEOF as e:
        expected = ", ".join(sorted(_pretty(t) for t in e.expected))
        lines = text.splitlines() or [""]
        raise where.at(len(lines), len(lines[-1]) + 1, f"condition ends too soon; expected one of: {expected}") from None
    except UnexpectedToken as e:
        expected = ", ".join(sorted(_pretty(t) for t in e.expected))
        tok = e.token
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            raise where.at(len(lines), len(lines[-1]) + 1, f"condition ends too soon; expected one of: {expected}") from None
        raise where.at(tok.line, tok.column, f"unexpected {str(tok)!r} in condition; expected one of: {expected}") from None
    except UnexpectedInput as e:  # pragma: no cover - any other lark complaint
        raise where.at(getattr(e, "line", 1), getattr(e, "column", 1), f"cannot parse condition: {e}") from None
    _check_limits(tree, where)
    shaped: Expr = _shaper().transform(tree)
    _TREES[text] = shaped
    _note(text, shaped)
    return shaped


def _line_col(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _check_limits(tree: Any, where: Where) -> None:
    """Refuse a tree nested deeper than the limit, or a number too long, before anything recurses on it
    (walked with a stack of our own: lark's transformer and our checker recurse)."""
    from lark import Token, Tree

    todo: list[tuple[Any, int]] = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, Token):
            if node.type == "INT" and len(node) > limits.INT_DIGITS:
                raise where.at(_at(node.line), _at(node.column), f"a number of {len(node)} digits: at most "
                               f"{limits.INT_DIGITS}")
            continue
        if not isinstance(node, Tree):
            continue
        if depth > limits.CONDITION_DEPTH:
            meta = node.meta
            line = getattr(meta, "line", 1) if not getattr(meta, "empty", True) else 1
            col = getattr(meta, "column", 1) if not getattr(meta, "empty", True) else 1
            raise where.at(line, col, f"a condition nested more than {limits.CONDITION_DEPTH} levels deep "
                           "(operators, calls, lists and parentheses inside each other): split it")
        # a chain of one operator (a and b and c ...) is as deep as it is long: each link counts
        for child in node.children:
            todo.append((child, depth + 1))




@dataclass
class Learnt:
    """The condition texts parsed, and the generated sources compiled, while it was recording — what a
    law file's cache entry keeps for the next start. ``new``: something was not already known."""

    texts: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)
    new: bool = False


def recording(learnt: Learnt) -> Any:
    """``with recording(learnt): ...`` — note every condition parsed and compiled meanwhile."""
    import contextlib

    @contextlib.contextmanager
    def cm() -> Any:
        _RECORDERS.append(learnt)
        try:
            yield learnt
        finally:
            _RECORDERS.remove(learnt)

    return cm()


def seed(trees: Mapping[str, Expr], codes: Mapping[str, bytes]) -> None:
    """Trees and compiled code from a cache entry: a warm start neither imports lark nor compiles."""
    import marshal

    _TREES.update(trees)
    for src, blob in codes.items():
        if src not in _CODES:
            _CODES[src] = marshal.loads(blob)


def export(learnt: Learnt) -> tuple[dict[str, Expr], dict[str, bytes]]:
    """What ``learnt`` recorded, ready to pickle into a cache entry."""
    import marshal

    return ({t: _TREES[t] for t in learnt.texts if t in _TREES},
            {s: marshal.dumps(_CODES[s]) for s in learnt.sources if s in _CODES})


_TOKEN_NAMES = {
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COMPARE": "a comparison",
    "ADD": "'+' or '-'", "MUL": "'*', '/' or '%'", "NOT": "'not'", "AND": "'and'", "OR": "'or'",
    "IS": "'is'", "IN": "'in'", "TRUE": "'true'", "FALSE": "'false'",
}


def _pretty(t: str) -> str:
    return _TOKEN_NAMES.get(t, t.lower())


# --------------------------------------------------------------------------
# Types and checking


_ENUM_VALUES: dict[str, tuple[str, ...]] = {
    "seat": ("N", "E", "S", "W"),
    "side": ("NS", "EW"),
    "suit": ("C", "D", "H", "S"),
    "strain": ("C", "D", "H", "S", "R", "NT"),
}

_CALL_ATTRS = {
    "level": INT,
    "strain": STRAIN,
    "kind": Type("str", ("bid", "pass", "double", "redouble")),
    "is_bid": BOOL,
}
#: Attributes only a bid has: read on a call not known to be a bid, they would fail at ruling time.
_BID_ONLY = ("level", "strain")

_ATTRS: dict[str, dict[str, Type]] = {
    "call": _CALL_ATTRS,
    "bid": _CALL_ATTRS,
    "card": {"suit": SUIT, "rank": Type("str", tuple("23456789TJQKA"))},
    "seat": {"partner": SEAT, "lho": SEAT, "rho": SEAT, "side": SIDE},
    "side": {"other": SIDE},
}

#: Role words usable on the right of ``is``: ``offender is adversary``.
ROLES: dict[str, str] = {
    "adversary": "an adversary of the declarer (neither the declarer nor the dummy)",
    "declaring_side": "the declarer or the dummy",
}


@dataclass(frozen=True)
class Env:
    """What names an expression may use: facts with their types, and parameters.

    ``bids``: the call facts known to be bids here, because a guard around the expression says so (the
    provision's condition, for its effects; the left of an ``and``, for its right).
    """

    facts: Mapping[str, Type]
    params: Mapping[str, Any] = field(default_factory=dict)
    bids: frozenset[str] = frozenset()

    def knowing(self, bids: frozenset[str]) -> "Env":
        return self if bids <= self.bids else Env(self.facts, self.params, self.bids | bids)


def guarded_bids(node: "Expr", holds: bool = True) -> frozenset[str]:
    """The call facts that are bids whenever ``node`` is ``holds``: ``call.is_bid``, ``call.kind == "bid"``,
    ``call.kind in ["bid"]``, and their conjunctions (or, when false, their negations)."""
    if isinstance(node, Not):
        return guarded_bids(node.operand, not holds)
    if isinstance(node, BoolOp):
        if (node.op == "and") == holds:  # both sides hold (an and that holds, an or that fails)
            return guarded_bids(node.left, holds) | guarded_bids(node.right, holds)
        return guarded_bids(node.left, holds) & guarded_bids(node.right, holds)
    if isinstance(node, Path) and len(node.names) == 2 and node.names[1] == "is_bid":
        return frozenset({node.names[0]}) if holds else frozenset()
    if isinstance(node, Compare) and isinstance(node.left, Path) and len(node.left.names) == 2 \
            and node.left.names[1] == "kind":
        name = node.left.names[0]
        r = node.right
        if node.op in ("==", "is", "!=", "isnot") and isinstance(r, Lit) and r.value == "bid":
            return frozenset({name}) if holds == (node.op in ("==", "is")) else frozenset()
        if node.op in ("in", "notin") and isinstance(r, ListExpr) and r.items and \
                all(isinstance(i, Lit) for i in r.items):
            values = {i.value for i in r.items if isinstance(i, Lit)}
            inside = (node.op == "in") == holds  # the kind is one of the values (else: none of them)
            if (inside and values == {"bid"}) or (not inside and values >= {"pass", "double", "redouble"}
                                                  and "bid" not in values):
                return frozenset({name})
    return frozenset()


def _param_type(v: Any) -> Type:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return STR
    if isinstance(v, list):
        return Type("list", elem=_param_type(v[0]) if v else ANY)
    return Type("params")


def _compatible(a: Type, b: Type) -> bool:
    if a.name == "any" or b.name == "any":
        return True
    if a.name == b.name:
        return True
    if {a.name, b.name} == {"call", "bid"}:  # a bid is a call (where a bid is needed, see _need_bid)
        return True
    enumish = set(_ENUM_VALUES) | {"str"}
    # a string literal may stand for a seat, side, suit or strain
    return (a.name == "str" and b.name in enumish) or (b.name == "str" and a.name in enumish)


def _check_literal(node: Expr, t: Type, where: Where) -> None:
    """A string literal compared with an enum-like value must be one of its values."""
    if isinstance(node, Lit) and isinstance(node.value, str):
        allowed = t.choices or _ENUM_VALUES.get(t.name, ())
        if allowed and node.value not in allowed:
            raise where.at(
                node.line, node.column,
                f"{node.value!r} is not a {t.name} value; expected one of {', '.join(allowed)}"
                + did_you_mean(node.value, allowed),
            )
    if isinstance(node, ListExpr):
        for item in node.items:
            _check_literal(item, t, where)


def check(node: Expr, env: Env, where: Where) -> Type:
    """Return the type of ``node`` under ``env``; raise ConditionError at the first problem."""
    if isinstance(node, Lit):
        v = node.value
        return BOOL if isinstance(v, bool) else INT if isinstance(v, int) else STR
    if isinstance(node, Path):
        return _check_path(node, env, where)
    if isinstance(node, FnCall):
        if node.name not in FUNCTIONS:
            raise where.at(node.line, node.column,
                           f"unknown function {node.name!r}; functions are {', '.join(sorted(FUNCTIONS))}"
                           + did_you_mean(node.name, FUNCTIONS))
        argtypes, result, _ = FUNCTIONS[node.name]
        if len(node.args) != len(argtypes):
            raise where.at(node.line, node.column,
                           f"{node.name}() takes {len(argtypes)} argument(s), got {len(node.args)}")
        for arg, want in zip(node.args, argtypes):
            got = check(arg, env, where)
            if not _compatible(got, want):
                raise where.at(arg.line, arg.column, f"{node.name}() expects a {want}, got a {got}")
            if want.name == "bid":
                _need_bid(arg, got, env, where, f"{node.name}()")
            _check_literal(arg, want, where)
        return result
    if isinstance(node, ListExpr):
        types = [check(i, env, where) for i in node.items]
        elem = types[0] if types else ANY
        for i, t in zip(node.items, types):
            if not _compatible(t, elem):
                raise where.at(i.line, i.column, f"list items must share one type: expected {elem}, got {t}")
        return Type("list", elem=elem)
    if isinstance(node, Not):
        t = check(node.operand, env, where)
        _want(node.operand, t, BOOL, where, "'not'")
        return BOOL
    if isinstance(node, BoolOp):
        _want(node.left, check(node.left, env, where), BOOL, where, f"'{node.op}'")
        # the right is read only when the left is true (and) or false (or): a guard on the left holds there
        right_env = env.knowing(guarded_bids(node.left, node.op == "and"))
        _want(node.right, check(node.right, right_env, where), BOOL, where, f"'{node.op}'")
        return BOOL
    if isinstance(node, Arith):
        for side in (node.left, node.right):
            _want(side, check(side, env, where), INT, where, f"'{node.op}'")
        if node.op in ("/", "%"):
            ok, divisor = _const(node.right, env)
            if ok and divisor == 0:
                raise where.at(node.right.line, node.right.column,
                               f"'{node.op}' by zero: the divisor is always 0 here")
        return INT
    if isinstance(node, Compare):
        return _check_compare(node, env, where)
    raise AssertionError(node)  # pragma: no cover


def _need_bid(node: Expr, got: Type, env: Env, where: Where, what: str) -> None:
    """``node`` must be a bid: a fact of type bid, or a call fact a guard has shown to be a bid."""
    if got.name == "bid" or got.name == "any":
        return
    name = ".".join(node.names) if isinstance(node, Path) else describe(node)
    if isinstance(node, Path) and len(node.names) == 1 and node.names[0] in env.bids:
        return
    raise where.at(node.line, node.column,
                   f"{what} needs a bid, but {name} is a call that may be a pass, a double or a redouble; "
                   f"guard it: '{name}.is_bid and ...' (or give the fact the type bid in laws/kinds.yaml)")


def _want(node: Expr, got: Type, want: Type, where: Where, what: str) -> None:
    if not _compatible(got, want) or (want.name in ("bool", "int") and got.name == "str"):
        raise where.at(node.line, node.column, f"{what} needs a {want}, got a {got}")


def _check_compare(node: Compare, env: Env, where: Where) -> Type:
    if node.op in ("is", "isnot") and isinstance(node.right, Path) and len(node.right.names) == 1 \
            and node.right.names[0] in ROLES:
        lt = check(node.left, env, where)
        _want(node.left, lt, SEAT, where, f"'is {node.right.names[0]}'")
        if lt.name != "seat" or isinstance(node.left, Lit):
            raise where.at(node.left.line, node.left.column,
                           f"'is {node.right.names[0]}' tests a seat, such as offender or lho(dealer); got a "
                           + (f"{lt} literal {describe(node.left)}" if isinstance(node.left, Lit) else f"{lt}"))
        if "declarer" not in env.facts:
            raise where.at(node.right.line, node.right.column,
                           f"role {node.right.names[0]!r} needs the fact 'declarer', which this kind does not have")
        return BOOL
    lt = check(node.left, env, where)
    rt = check(node.right, env, where)
    if node.op in ("in", "notin"):
        if rt.name != "list":
            raise where.at(node.right.line, node.right.column, f"'in' needs a list on its right, got a {rt}")
        elem = rt.elem or ANY
        if not _compatible(lt, elem):
            raise where.at(node.left.line, node.left.column, f"'in' compares a {lt} with a list of {elem}")
        _check_literal(node.right, lt, where)
        return BOOL
    if not _compatible(lt, rt):
        raise where.at(node.line, node.column, f"cannot compare a {lt} with a {rt}")
    if node.op in ("<", "<=", ">", ">=") and not (lt.name == "int" and rt.name == "int"):
        raise where.at(node.line, node.column, f"'{node.op}' compares numbers, got a {lt} and a {rt}")
    _check_literal(node.right, lt, where)
    _check_literal(node.left, rt, where)
    return BOOL


def _check_path(node: Path, env: Env, where: Where) -> Type:
    head = node.names[0]
    if head == "params":
        cur: Any = env.params
        for i, name in enumerate(node.names[1:], start=1):
            if not isinstance(cur, Mapping) or name not in cur:
                keys = list(cur) if isinstance(cur, Mapping) else []
                so_far = ".".join(node.names[:i])
                raise where.at(node.line, node.column,
                               f"unknown parameter {'.'.join(node.names[: i + 1])!r}"
                               + (f"; {so_far} has {', '.join(sorted(keys))}" if keys else "")
                               + did_you_mean(name, keys))
            cur = cur[name]
        return _param_type(cur)
    if head in ROLES:
        raise where.at(node.line, node.column, f"role {head!r} can only follow 'is' or 'is not'")
    if head not in env.facts:
        raise where.at(node.line, node.column,
                       f"unknown fact {head!r}; this kind's facts are {', '.join(sorted(env.facts))}"
                       + did_you_mean(head, list(env.facts) + ["params"]))
    t = env.facts[head]
    for i, name in enumerate(node.names[1:], start=1):
        attrs = _ATTRS.get(t.name, {})
        if name not in attrs:
            raise where.at(node.line, node.column,
                           f"a {t.name} has no attribute {name!r}"
                           + (f"; it has {', '.join(sorted(attrs))}" if attrs else "")
                           + did_you_mean(name, attrs))
        if t.name == "call" and name in _BID_ONLY and not (i == 1 and head in env.bids):
            so_far = ".".join(node.names[:i])
            raise where.at(node.line, node.column,
                           f"{so_far}.{name}: only a bid has a {name}, and {so_far} is a call that may be a pass, "
                           f"a double or a redouble; guard it: '{so_far}.is_bid and ...'")
        t = attrs[name]
    return t


def _kept(node: Any) -> None:
    """Refuse a tree a ruling kit does not keep (:class:`~bridgelaw.evaluation.Unread`): its reader asks the whole
    code for the tree, and never takes this one for a tree that reads nothing."""
    if type(node) is Unread:
        raise TypeError("a ruling kit keeps no condition tree: read the tree of the code loaded whole")


def names_used(node: Expr) -> set[str]:
    """Top-level fact names an expression reads (``params`` excluded)."""
    _kept(node)
    out: set[str] = set()

    def walk(n: Expr) -> None:
        if isinstance(n, Path):
            if n.names[0] != "params" and n.names[0] not in ROLES:
                out.add(n.names[0])
        elif isinstance(n, FnCall):
            for a in n.args:
                walk(a)
        elif isinstance(n, ListExpr):
            for a in n.items:
                walk(a)
        elif isinstance(n, Not):
            walk(n.operand)
        elif isinstance(n, (BoolOp, Compare, Arith)):
            walk(n.left)
            walk(n.right)
            if isinstance(n, Compare) and n.op in ("is", "isnot") and isinstance(n.right, Path) \
                    and n.right.names[0] in ROLES:
                out.add("declarer")

    walk(node)
    return out


# --------------------------------------------------------------------------
# Evaluation


_CMP: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "is": operator.eq, "isnot": operator.ne,
}
_ARITH: dict[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod,
}


def _const(node: Expr, env: Env) -> tuple[bool, Any]:
    if isinstance(node, Lit):
        return True, node.value
    if isinstance(node, Path) and node.names[0] == "params":
        cur: Any = env.params
        for name in node.names[1:]:
            cur = cur[name]
        return True, cur
    if isinstance(node, ListExpr):
        vals = [_const(i, env) for i in node.items]
        if all(ok for ok, _ in vals):
            return True, tuple(v for _, v in vals)
    return False, None


def compile_expr(node: Expr, env: Env) -> Compiled:
    """Compile a checked tree into a Python function of :class:`Facts`.

    Python source is generated from *our* checked tree — fact names were
    checked against the catalogue, attributes against a whitelist, literals
    are written with ``repr`` and parameters folded into constants — and
    compiled once; the condition text itself is never evaluated. A fact
    nobody gave raises :class:`MissingFact` from ``Facts.__missing__``.
    """
    _kept(node)
    ok, value = _const(node, env)
    if ok:
        return constant(value)
    consts: list[Any] = []
    src = _py(node, env, consts)
    return rebuild(f"def _condition(f):\n    return {src}\n", tuple(consts))


def _py(node: Expr, env: Env, consts: list[Any]) -> str:
    ok, value = _const(node, env)
    if ok:
        if isinstance(value, (bool, int, str)) or value is None:
            return repr(value)
        consts.append(value)
        return f"_K[{len(consts) - 1}]"
    if isinstance(node, Path):
        src = f"f[{node.names[0]!r}]"
        for a in node.names[1:]:  # only a bid has a level and a strain: on another call they are unknown
            src = f"_attr({src}, {a!r}, {'.'.join(node.names)!r})" if a in _BID_ONLY else f"{src}.{a}"
        return src
    if isinstance(node, FnCall):
        args = ", ".join(_py(a, env, consts) for a in node.args)
        if node.name in _seat_tables():  # a function of one seat: looked up in its table
            return f"_T_{node.name}[{args}]"
        if node.name == "value":
            return f"f.code_value({args})"
        return f"_FN[{node.name!r}](f, {args})"
    if isinstance(node, ListExpr):
        return "(" + "".join(_py(i, env, consts) + ", " for i in node.items) + ")"
    if isinstance(node, Not):
        return f"(not {_py(node.operand, env, consts)})"
    if isinstance(node, BoolOp):
        return f"({_py(node.left, env, consts)} {node.op} {_py(node.right, env, consts)})"
    if isinstance(node, Arith):
        op = "//" if node.op == "/" else node.op
        return f"({_py(node.left, env, consts)} {op} {_py(node.right, env, consts)})"
    if isinstance(node, Compare):
        if node.op in ("is", "isnot") and isinstance(node.right, Path) and node.right.names[0] in ROLES:
            return _role_py(_py(node.left, env, consts), node.right.names[0], node.op == "isnot")
        ops = {"is": "==", "isnot": "!=", "in": "in", "notin": "not in"}
        return f"({_py(node.left, env, consts)} {ops.get(node.op, node.op)} {_py(node.right, env, consts)})"
    raise AssertionError(node)  # pragma: no cover


def _role_py(seat: str, role: str, negate: bool) -> str:
    """``seat is role`` as Python: the seat's side against the declarer's, read in that order."""
    same = (role != "adversary") != negate  # does the test hold when the seat is of the declarer's side?
    return f"(_T_side[{seat}] {'is' if same else 'is not'} _T_side[f['declarer']])"


def compile_condition(text: str, env: Env, where: Where | None = None, want: Type | None = BOOL) -> tuple[Expr, Compiled]:
    """Parse, check and compile ``text``; ``want`` is the type it must have."""
    where = where or Where(lines=tuple(text.splitlines()) or ("",))
    tree = parse(text, where)
    got = check(tree, env, where)
    if want is not None and not _compatible(got, want):
        raise where.at(tree.line, tree.column, f"expected a {want} expression, got a {got}")
    if want is not None and want.name == "bid":
        _need_bid(tree, got, env, where, where.field or "this expression")
    if want is not None:
        _check_literal(tree, want, where)
    return tree, compile_expr(tree, env)


_PREC = {"or": 1, "and": 2, "not": 3, "compare": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}


def describe(node: Expr, outer: int = 0) -> str:
    """Render a tree back to source form (used in traces), with the parentheses its grouping needs."""
    _kept(node)
    if isinstance(node, Lit):
        v = node.value
        return "true" if v is True else "false" if v is False else f'"{v}"' if isinstance(v, str) else str(v)
    if isinstance(node, Path):
        return ".".join(node.names)
    if isinstance(node, FnCall):
        return f"{node.name}({', '.join(describe(a) for a in node.args)})"
    if isinstance(node, ListExpr):
        return "[" + ", ".join(describe(a) for a in node.items) + "]"
    if isinstance(node, Not):
        text, prec = f"not {describe(node.operand, _PREC['not'])}", _PREC["not"]
    elif isinstance(node, BoolOp):
        prec = _PREC[node.op]
        text = f"{describe(node.left, prec)} {node.op} {describe(node.right, prec + 1)}"
    elif isinstance(node, Arith):
        prec = _PREC[node.op]
        text = f"{describe(node.left, prec)} {node.op} {describe(node.right, prec + 1)}"
    else:
        ops = {"isnot": "is not", "notin": "not in"}
        prec = _PREC["compare"]
        text = f"{describe(node.left, prec + 1)} {ops.get(node.op, node.op)} {describe(node.right, prec + 1)}"  # type: ignore[union-attr]
    return f"({text})" if prec < outer else text


__all__ += ["Facts", "describe", "FUNCTIONS", "ROLES", "BOOL", "INT", "STR", "SEAT", "SIDE", "CALL", "CARD",
            "SUIT", "STRAIN", "ANY", "BID", "guarded_bids"]
_ = (Card, Side)
