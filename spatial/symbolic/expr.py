"""Scalar expression trees and operation counts for symbolic execution (Featherstone §10.3–10.4).

An :class:`Expr` is a variable, a constant or one arithmetic operation on two expressions (or a
sign change of one).  Python's operators build them, so code written for numbers, including
NumPy code on arrays of ``dtype=object``, runs on them unchanged and leaves behind the trees of
what it computed.  Two counts follow the book's convention (``m`` for multiplications and
divisions, ``a`` for additions and subtractions, sign changes free):
:func:`count_operations` counts each operation a computation performed once, however often its
result was reused (instrumented arithmetic); :func:`tree_count` counts an expression written out
as a formula, as the statements of generated code are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

__all__ = ["Expr", "OpCount", "count_operations", "tree_count", "format_expr"]

_BINARY = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
_BINARY["/"] = lambda a, b: a / b
#: every operator an :class:`Expr` may hold, with its number of arguments
OPERATORS = {"var": 1, "const": 1, "neg": 1, "+": 2, "-": 2, "*": 2, "/": 2}


class Expr:
    """A node of a scalar expression tree: a variable, a constant or an operation.

    ``op`` is ``"var"`` (``args = (name,)``), ``"const"`` (``args = (value,)``), ``"neg"`` or one
    of ``"+" "-" "*" "/"``.  Arithmetic with other expressions or Python numbers builds new
    nodes, so code written for floats runs unchanged on expressions.

    Raises
    ------
    ValueError
        If ``op`` is not one of those operators (an unknown one, e.g. ``"pow"``, would be counted
        as no operation), or it is given another number of arguments.
    TypeError
        If an operand of ``"neg"`` or a binary operator is not an :class:`Expr`, a variable's
        name is not a string or a constant is not a real number.
    """

    __slots__ = ("op", "args")

    def __init__(self, op: str, *args):
        arity = OPERATORS.get(op) if isinstance(op, str) else None
        if arity is None:
            known = ", ".join(repr(o) for o in OPERATORS)
            raise ValueError(f"unknown operator {op!r}: an Expr's op is one of {known}")
        if len(args) != arity:
            raise ValueError(f"operator {op!r} takes {arity} argument(s), got {len(args)}")
        if op == "var" and not isinstance(args[0], str):
            raise TypeError(f"a variable's name must be a str, got {args[0]!r}")
        if op == "const" and (
            isinstance(args[0], bool)
            or not isinstance(args[0], int | float | np.integer | np.floating)
        ):
            raise TypeError(f"a constant must be a real number, got {args[0]!r}")
        if op not in ("var", "const") and not all(isinstance(a, Expr) for a in args):
            bad = next(a for a in args if not isinstance(a, Expr))
            raise TypeError(
                f"the operands of {op!r} must be Expr nodes (Expr.wrap makes numbers into "
                f"constants), got {type(bad).__name__} {bad!r}"
            )
        self.op, self.args = op, args

    @staticmethod
    def wrap(x) -> Expr:
        """``x`` as an expression (numbers become constants)."""
        if isinstance(x, Expr):
            return x
        if isinstance(x, bool) or not isinstance(x, int | float | np.integer | np.floating):
            raise TypeError(f"cannot use {x!r} of type {type(x).__name__} in an expression")
        return Expr("const", float(x))

    def __add__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("+", self, other)

    def __radd__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("+", other, self)

    def __sub__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("-", self, other)

    def __rsub__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("-", other, self)

    def __mul__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("*", self, other)

    def __rmul__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("*", other, self)

    def __truediv__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("/", self, other)

    def __rtruediv__(self, other):
        other = _operand(other)
        return NotImplemented if other is NotImplemented else Expr("/", other, self)

    def __neg__(self):
        return Expr("neg", self)

    def __pos__(self):
        return self

    def is_const(self, value=None) -> bool:
        """True for a constant (equal to ``value`` if given)."""
        return self.op == "const" and (value is None or self.args[0] == value)

    def __repr__(self) -> str:
        return format_expr(self, {})


def _operand(x):
    """The other operand as an expression; arrays of several elements are NumPy's business."""
    if isinstance(x, np.ndarray):
        if x.ndim > 0:
            return NotImplemented
        x = x.item()
    return Expr.wrap(x)


def _require_expr(e, who: str) -> None:
    if not isinstance(e, Expr):
        raise TypeError(f"{who} takes an Expr, got {type(e).__name__} {e!r}")


def format_expr(e: Expr, names: dict, top: bool = True) -> str:
    """``e`` as source text, with variables renamed by ``names``.

    Raises
    ------
    TypeError
        If ``e`` is not an :class:`Expr` or ``names`` is not a mapping.
    """
    if top:
        _require_expr(e, "format_expr")
        if not isinstance(names, Mapping):
            raise TypeError(f"names must be a mapping of variable names, got {names!r}")
    if e.op == "var":
        return names.get(e.args[0], e.args[0])
    if e.op == "const":
        value = e.args[0]
        whole = math.isfinite(value) and value == int(value) and abs(value) < 1e15
        return str(int(value)) if whole else repr(value)
    if e.op == "neg":
        return f"-{format_expr(e.args[0], names, False)}"
    a, b = (format_expr(x, names, False) for x in e.args)
    if e.op in "*/" and e.args[1].op in "+-":
        b = f"({b})"
    if e.op in "*/" and e.args[0].op in "+-":
        a = f"({a})"
    if e.op == "-" and e.args[1].op in "+-":
        b = f"({b})"
    return f"{a} {e.op} {b}"


@dataclass(frozen=True)
class OpCount:
    """Operation count: ``mul`` (× and ÷), ``add`` (+ and -), ``neg`` (free sign changes)."""

    mul: int
    add: int
    neg: int = 0

    @property
    def total(self) -> int:
        """``m + a``, the count Table 10.3 quotes."""
        return self.mul + self.add

    def __str__(self) -> str:
        return f"{self.mul}m + {self.add}a"


def count_operations(*values) -> OpCount:
    """Operations needed to compute ``values`` if every intermediate is computed once.

    Each operation node reachable from the given expressions (scalars or arrays of them) is
    counted once, however often it is reused: this is instrumented arithmetic, the count of the
    operations a function performed to produce its results (those it wasted are not counted).
    Plain numbers among the values (constants NumPy left in an object array) count nothing.

    Raises
    ------
    TypeError
        If a value (or an element of an array value) is neither an :class:`Expr` nor a real
        number: a string such as ``"a+b"`` is not an expression, and would count as nothing.
    """
    seen: set[int] = set()
    counts = {"*": 0, "/": 0, "+": 0, "-": 0, "neg": 0}
    stack = [x for v in values for x in np.asarray(v, dtype=object).ravel()]
    for x in stack:
        if not isinstance(x, Expr | int | float | np.integer | np.floating) or isinstance(x, bool):
            raise TypeError(
                "count_operations takes expressions (Expr, or arrays of them and of plain "
                f"numbers), got {type(x).__name__} {x!r}"
            )
    while stack:
        e = stack.pop()
        if not isinstance(e, Expr) or id(e) in seen:
            continue
        seen.add(id(e))
        if e.op in counts:
            counts[e.op] += 1
            stack.extend(e.args)
    return OpCount(counts["*"] + counts["/"], counts["+"] + counts["-"], counts["neg"])


def tree_count(e: Expr) -> OpCount:
    """Operations of an expression written out as a tree (shared nodes counted each time).

    Raises
    ------
    TypeError
        If ``e`` is not an :class:`Expr`.
    """
    _require_expr(e, "tree_count")
    if e.op in ("var", "const"):
        return OpCount(0, 0)
    parts = [tree_count(a) for a in e.args]
    mul = sum(p.mul for p in parts) + (e.op in "*/")
    add = sum(p.add for p in parts) + (e.op in "+-" and e.op != "neg")
    neg = sum(p.neg for p in parts) + (e.op == "neg")
    return OpCount(mul, add, neg)
