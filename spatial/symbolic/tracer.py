"""Symbols that simplify themselves as they are built: §10.4's executer and simplifier in one pass.

:func:`spatial.symbolic.generate` runs the package's own ``rnea``, ``crba`` and ``aba`` on
object arrays whose elements are :class:`Sym` nodes.  NumPy then performs every product and sum
of its dense kernels on them, and each operation asks this module for its result node.  The
rules of Featherstone §10.4 are applied at that moment, before a node exists, rather than to a
finished assignment-statement file (the book allows the executer and the simplifier to be one
program, §10.4):

* **constants are plain numbers**: a model parameter, a product of two of them or any other
  constant expression is an ordinary Python (or NumPy) number, so NumPy evaluates it as it
  would without symbols ("evaluate constant expressions");
* ``x·0 → 0``, ``x·1 → x``, ``x + 0 → x``, ``x - 0 → x``, ``0 - x → -x``,
  ``x - x → 0``, ``0/x → 0``, ``x/1 → x``; a product of a constant with a product of a constant
  and ``x`` becomes one product (``c₁(c₂x) → (c₁c₂)x``);
* **sign changes are free** (§10.3's convention): they move outwards through products and
  quotients (``(-c)·x → -(c·x)``, ``(-x)·y → -(x·y)``) and are absorbed by sums
  (``x + (-y) → x - y``), so that none is left inside the code and ``c·x`` and ``-c·x`` are
  one product;
* **a quotient cancels against its divisor** (beyond the book's rules): ``x (y/x) → y``,
  ``(x y)/x → y``, ``x/x → 1``.  Exact in real arithmetic (the traced algorithms divide only by
  pivots, which are non-zero when the result exists), they let the rules see what the dense
  code computes to round-off only: ``I^a = I^A - U D⁻¹ Uᵀ`` of a joint with ``S = e_k``, where
  ``U = I^A e_k`` and ``D = U_k``, has row and column ``k`` exactly zero, and the products with
  them vanish (the zero the efficient ABA formulations exploit, Featherstone §10.3);
* **a difference cancels against its subtrahend** (beyond the book's rules): ``x + (y - x) →
  y``, ``(y - x) + x → y``, ``(x + y) - y → x``, ``(x - y) - x → -y``, ``x - (x - y) → y``,
  ``x - (x + y) → -y``, exact in real arithmetic like the quotient rules.  In the ABA's
  ``p^a = p^A + I^a c + U D⁻¹ u`` with ``S = e_k``, row ``k`` is ``p^A_k + (τ - p^A_k)``: the
  joint force ``τ`` itself;
* **common subexpressions** (beyond the book's rules): an operation on operands that already
  met in the same operation returns the node made the first time (``+`` and ``·`` with their
  operands in a canonical order), so a product NumPy forms twice is computed once.

"Remove copies ``a = b``" needs no rule: the executer never records a copy, a variable is
just the node.  "Remove statements whose result is never used" is done when the code is
written (:mod:`spatial.symbolic.codegen`): only nodes an output depends on are emitted.

Anything that would make the computation depend on the *values* of symbols (comparisons, ``if
x``, ``abs``, ``float(x)``) raises :class:`Untraceable`, and NumPy raises ``TypeError`` for a
function other than ``cos`` and ``sin``: a function with a branch on its inputs cannot become
straight-line code.

Each new node remembers where it was made: the assignment target of the line of the traced
algorithm (a file under one of the tape's ``roots``) that was running, and the body number
``i`` when that line sits in a ``for i in …`` loop, so that the generated code can name its
temporaries after the book's quantities (``U3_2`` is the second temporary of ``U_i`` for body
3).
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
import threading
from contextlib import contextmanager

import numpy as np

__all__ = ["Sym", "Untraceable", "tape", "input_symbol"]


class Untraceable(TypeError):
    """Raised when traced code needs the value of a symbol (a branch, ``abs``, ``float``...)."""


class Sym:
    """A node of the traced computation: an input, ``cos``/``sin`` of a node, or one operation.

    ``op`` is ``"in"`` (``a`` = the input's name), ``"cos"``, ``"sin"``, ``"neg"`` (``a`` the
    operand) or one of ``"+" "-" "*" "/"`` (operands ``a``, ``b``: nodes or numbers); ``n`` is
    the node's number on the tape (creation order, so operands always have smaller numbers);
    ``site`` is ``(quantity, body)`` of the line that made it (see the module docstring).
    """

    __slots__ = ("op", "a", "b", "n", "site")
    __hash__ = object.__hash__

    def __add__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _add(self, other)

    def __radd__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _add(other, self)

    def __sub__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _sub(self, other)

    def __rsub__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _sub(other, self)

    def __mul__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _mul(self, other)

    def __rmul__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _mul(other, self)

    def __truediv__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _div(self, other)

    def __rtruediv__(self, other):
        other = _operand(other)
        return NotImplemented if other is None else _div(other, self)

    def __neg__(self):
        return _neg(self)

    def __pos__(self):
        return self

    def __pow__(self, k):
        if k == 2:
            return _mul(self, self)
        if k == 1:
            return self
        raise Untraceable(f"cannot trace a power {k!r} of a symbol (only squares)")

    def cos(self):
        """``cos`` of the node (NumPy's ``np.cos`` on object arrays calls this)."""
        return _node("cos", self, None)

    def sin(self):
        """``sin`` of the node (NumPy's ``np.sin`` on object arrays calls this)."""
        return _node("sin", self, None)

    def _value_needed(self, *_):
        raise Untraceable(
            "the traced code needs the value of a symbol (a comparison, a branch, abs, float "
            "or a function other than cos and sin), so it cannot become straight-line code"
        )

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _value_needed
    __bool__ = __float__ = __int__ = __index__ = __abs__ = _value_needed

    def __repr__(self) -> str:
        if self.op == "in":
            return f"Sym({self.a})"
        return f"Sym(#{self.n} {self.op})"


def _operand(x):
    """``x`` as an operand (a node or a real number), or ``None``: arrays are NumPy's business.

    A 0-d array becomes its NumPy scalar, so that constants stay hashable and keep their type.
    """
    if type(x) is Sym or type(x) is float:
        return x
    if isinstance(x, bool):
        return None
    if isinstance(x, int | float):
        return x
    if isinstance(x, np.generic | np.ndarray) and x.shape == () and x.dtype.kind in "fiu":
        return x[()]
    return None


# ------------------------------------------------------------------------------- the tape


class _Tape:
    """The nodes made so far, the table that finds a node again, and the labelling state."""

    def __init__(self, roots: tuple):
        self.nodes: list[Sym] = []
        self.table: dict = {}
        self.roots = roots
        self.last_frame = None
        self.last_lasti = -1
        self.last_site = None


_LOCK = threading.Lock()
_TAPE: _Tape | None = None
_GLOBALS = globals()
_TARGETS: dict = {}  # code object -> {line: (quantity, in a ``for i`` loop)}


@contextmanager
def tape(roots: tuple = ()):
    """Record the nodes made inside the block on a fresh tape (one tape at a time).

    ``roots`` are path prefixes of the files whose lines name the nodes (the traced
    algorithm's modules).  Yields the tape; its ``nodes`` are in creation order.  Tapes are
    taken one at a time (a lock), so tracing in several threads is serialized.
    """
    global _TAPE
    with _LOCK:
        _TAPE = _Tape(tuple(roots))
        try:
            yield _TAPE
        finally:
            _TAPE.last_frame = None
            _TAPE = None


def input_symbol(name: str) -> Sym:
    """A new input node ``name`` on the current tape.

    Raises
    ------
    RuntimeError
        Outside a :func:`tape` block.
    """
    if _TAPE is None:
        raise RuntimeError("symbols are made inside spatial.symbolic.tracer.tape()")
    node = Sym()
    node.op, node.a, node.b, node.n, node.site = "in", name, None, len(_TAPE.nodes), None
    _TAPE.nodes.append(node)
    return node


def _node(op: str, a, b) -> Sym:
    """The node ``a op b``: the existing one if these operands met in ``op`` before."""
    t = _TAPE
    if t is None:
        raise RuntimeError("symbols are used inside spatial.symbolic.tracer.tape()")
    key = (
        op,
        a.n if type(a) is Sym else ("c", a),
        None if b is None else (b.n if type(b) is Sym else ("c", b)),
    )
    node = t.table.get(key)
    if node is None:
        node = Sym()
        node.op, node.a, node.b, node.n = op, a, b, len(t.nodes)
        node.site = _site(t)
        t.nodes.append(node)
        t.table[key] = node
    return node


# ------------------------------------------------------------------------------- the rules


def _neg(x):
    if type(x) is not Sym:
        return -x
    return x.a if x.op == "neg" else _node("neg", x, None)


def _mul(a, b):
    if type(a) is not Sym:
        if type(b) is not Sym:
            return a * b
        a, b = b, a
    if type(b) is not Sym:  # a node times a constant b
        if b == 0:
            return 0.0
        if b == 1:
            return a
        if b < 0:  # (-c) x → -(c x): the sign moves out, the product can be shared
            return _neg(_mul(a, -b))
        if a.op == "neg":
            return _neg(_mul(a.a, b))
        if a.op == "*" and type(a.a) is not Sym:  # c₁ (c₂ x) → (c₁ c₂) x
            return _mul(a.b, a.a * b)
        return _node("*", b, a)
    if a.op == "neg":
        return _neg(_mul(a.a, b))
    if b.op == "neg":
        return _neg(_mul(a, b.a))
    if b.op == "/" and b.b is a:  # x (y/x) → y
        return b.a
    if a.op == "/" and a.b is b:  # (y/x) x → y
        return a.a
    return _node("*", a, b) if a.n <= b.n else _node("*", b, a)


def _add(a, b):
    if type(a) is not Sym:
        if type(b) is not Sym:
            return a + b
        a, b = b, a
    if type(b) is not Sym:  # a node plus a constant b
        if b == 0:
            return a
        if a.op == "neg":
            return _neg(_add(a.a, -b))
        return _node("-", a, -b) if b < 0 else _node("+", a, b)
    if a.op == "neg":
        return _neg(_add(a.a, b.a)) if b.op == "neg" else _sub(b, a.a)
    if b.op == "neg":
        return _sub(a, b.a)
    if b.op == "-" and b.b is a:  # x + (y - x) → y
        return b.a
    if a.op == "-" and a.b is b:  # (y - x) + x → y
        return a.a
    return _node("+", a, b) if a.n <= b.n else _node("+", b, a)


def _sub(a, b):
    if type(b) is not Sym:
        if type(a) is not Sym:
            return a - b
        return _add(a, -b)
    if type(a) is not Sym:  # a constant minus a node
        if a == 0:
            return _neg(b)
        return _add(_neg(b), a)
    if a is b:
        return 0.0
    if b.op == "neg":
        return _add(a, b.a)
    if a.op == "neg":
        return _neg(_add(a.a, b))
    if a.op == "+" and (a.a is b or a.b is b):  # (x + y) - y → x
        return a.b if a.a is b else a.a
    if a.op == "-" and a.a is b:  # (x - y) - x → -y
        return _neg(a.b)
    if b.op == "-" and b.a is a:  # x - (x - y) → y
        return b.b
    if b.op == "+" and (b.a is a or b.b is a):  # x - (x + y) → -y
        return _neg(b.b if b.a is a else b.a)
    return _node("-", a, b)


def _div(a, b):
    if type(b) is not Sym:
        if type(a) is not Sym:
            return a / b
        if b == 1:
            return a
        if b < 0:
            return _neg(_div(a, -b))
        if a.op == "neg":
            return _neg(_div(a.a, b))
        return _node("/", a, b)
    if type(a) is not Sym:
        if a == 0:
            return 0.0
        if a < 0:
            return _neg(_div(-a, b))
        if b.op == "neg":
            return _neg(_div(a, b.a))
        return _node("/", a, b)
    if a is b:  # x/x → 1
        return 1.0
    if a.op == "neg":
        return _neg(_div(a.a, b))
    if b.op == "neg":
        return _neg(_div(a, b.a))
    if a.op == "*" and (a.a is b or a.b is b):  # (x y)/x → y
        return a.b if a.a is b else a.a
    return _node("/", a, b)


# ------------------------------------------------------------------------------- labels


def _site(t: _Tape):
    """``(quantity, body)`` of the traced line running now, or ``None`` outside the roots."""
    f = sys._getframe(2)
    while f is not None and f.f_globals is _GLOBALS:
        f = f.f_back
    if f is t.last_frame and f.f_lasti == t.last_lasti:
        return t.last_site
    site, g = None, f
    while g is not None and t.roots:
        if g.f_code.co_filename.startswith(t.roots):
            entry = _targets(g.f_code).get(g.f_lineno)
            if entry is not None and entry[0] is not None:
                body = g.f_locals.get("i") if entry[1] else None
                site = (entry[0], body if type(body) is int else None)
                break
        g = g.f_back
    t.last_frame, t.last_lasti, t.last_site = f, (-1 if f is None else f.f_lasti), site
    return site


def _targets(code) -> dict:
    """Each line of a function -> (name assigned by its statement, inside ``for i``)."""
    out = _TARGETS.get(code)
    if out is None:
        out = _TARGETS[code] = _parse_targets(code)
    return out


def _parse_targets(code) -> dict:
    try:
        lines, first = inspect.getsourcelines(code)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return {}
    out: dict = {}

    def visit(node, in_i_loop: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            loop = in_i_loop
            if isinstance(child, ast.For):
                loop = loop or any(
                    isinstance(t, ast.Name) and t.id == "i" for t in ast.walk(child.target)
                )
            if isinstance(child, ast.stmt) and not hasattr(child, "body"):
                name = _assigned_name(child)
                for k in range(child.lineno, child.end_lineno + 1):
                    out.setdefault(k + first - 1, (name, loop))
            visit(child, loop)

    for top in tree.body:
        visit(top, False)
    return out


def _assigned_name(stmt) -> str | None:
    """The variable a statement assigns (``IA`` for ``IA[p] = …``), ``None`` for others."""
    if isinstance(stmt, ast.Assign):
        target = stmt.targets[0]
    elif isinstance(stmt, ast.AugAssign | ast.AnnAssign):
        target = stmt.target
    elif (  # ``v.append(…)``: a list of per-body quantities grows
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Attribute)
        and stmt.value.func.attr in ("append", "extend")
    ):
        target = stmt.value.func.value
    else:
        return None
    while True:
        if isinstance(target, ast.Name):
            return target.id
        if isinstance(target, ast.Attribute):
            return target.attr
        if isinstance(target, ast.Subscript):
            target = target.value
        elif isinstance(target, ast.Tuple | ast.List) and target.elts:
            target = target.elts[0]
        else:
            return None
