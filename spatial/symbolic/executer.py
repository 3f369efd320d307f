"""The symbolic executer and simplifier of Featherstone §10.4 (Fig. 10.6).

The executer records the scalar assignments an algorithm performs on symbols; the simplifier
applies its four cheap rules to the record until nothing changes; the result is printed in the
book's notation or compiled into a Python function.  See :mod:`spatial.symbolic` for the walk
through the section.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validate import integer
from .expr import _BINARY, Expr, OpCount, format_expr, tree_count

__all__ = ["Executer", "Program"]

# --------------------------------------------------------------------------- simplification


def _fold(e: Expr) -> Expr:
    """One bottom-up pass of the algebraic rules and constant folding over an expression."""
    if e.op in ("var", "const"):
        return e
    args = [_fold(a) for a in e.args]
    if e.op == "neg":
        (a,) = args
        if a.is_const():
            return Expr("const", -a.args[0])
        return a.args[0] if a.op == "neg" else Expr("neg", a)
    a, b = args
    if a.is_const() and b.is_const() and not (e.op == "/" and b.is_const(0.0)):
        return Expr("const", _BINARY[e.op](a.args[0], b.args[0]))
    if e.op in "*/" and (a.op == "neg" or b.op == "neg"):  # pull sign changes outwards
        flips = (a.op == "neg") + (b.op == "neg")
        a, b = (x.args[0] if x.op == "neg" else x for x in (a, b))
        inner = _fold(Expr(e.op, a, b))
        return Expr("neg", inner) if flips == 1 and not inner.is_const(0.0) else inner
    if e.op == "*":
        if a.is_const(0.0) or b.is_const(0.0):
            return Expr("const", 0.0)
        if a.is_const(1.0) or b.is_const(1.0):
            return b if a.is_const(1.0) else a
        if a.is_const(-1.0) or b.is_const(-1.0):
            return Expr("neg", b if a.is_const(-1.0) else a)
    elif e.op == "+":
        if a.is_const(0.0) or b.is_const(0.0):
            return b if a.is_const(0.0) else a
        if b.op == "neg":  # x + (-y) → x - y
            return Expr("-", a, b.args[0])
        if a.op == "neg":  # (-x) + y → y - x
            return Expr("-", b, a.args[0])
    elif e.op == "-":
        if b.is_const(0.0):
            return a
        if a.is_const(0.0):
            return Expr("neg", b)
        if b.op == "neg":
            return Expr("+", a, b.args[0])
    elif e.op == "/":
        if b.is_const(1.0) or a.is_const(0.0):
            return a
    return Expr(e.op, a, b)


def _substitute(e: Expr, table: dict) -> Expr:
    if e.op == "var":
        return table.get(e.args[0], e)
    if e.op == "const":
        return e
    return Expr(e.op, *(_substitute(a, table) for a in e.args))


def _variables(e: Expr, out: set) -> set:
    if e.op == "var":
        out.add(e.args[0])
    elif e.op != "const":
        for a in e.args:
            _variables(a, out)
    return out


@dataclass
class Program:
    """Straight-line code: the assignment-statement file of Featherstone Fig. 10.6.

    ``statements`` are ``(target, expression)`` pairs, each target assigned once; ``inputs`` maps
    an input name to its size (``None`` for a scalar) and ``outputs`` lists the output targets.
    """

    statements: list
    inputs: dict
    outputs: list

    def operations(self) -> OpCount:
        """Operations of the code as written (Table 10.3 counts 29 before and 5 after)."""
        counts = [tree_count(e) for _, e in self.statements]
        return OpCount(*(sum(getattr(c, f) for c in counts) for f in ("mul", "add", "neg")))

    def simplify(self) -> Program:
        """Apply the four rules of §10.4 until the code stops changing (a fixed point)."""
        statements, outputs = list(self.statements), set(self.outputs)
        while True:
            before = [(t, repr(e)) for t, e in statements]
            statements = [(t, _fold(e)) for t, e in statements]
            # copy propagation: a = b with b a variable or constant and a not an output
            table, kept = {}, []
            for target, e in statements:
                e = _substitute(e, table)
                copy = e.op in ("var", "const") or (e.op == "neg" and e.args[0].op == "var")
                if copy and target not in outputs:
                    table[target] = e
                else:
                    kept.append((target, e))
            # dead code: nothing later reads the target and it is not an output
            used, alive = set(outputs), []
            for target, e in reversed(kept):
                if target in used:
                    alive.append((target, e))
                    _variables(e, used)
            statements = alive[::-1]
            if [(t, repr(e)) for t, e in statements] == before:
                return Program(statements, dict(self.inputs), list(self.outputs))

    def source(self) -> str:
        """The code in the book's notation, one assignment per line (``p(3) = …``)."""
        return "\n".join(f"{target} = {e!r}" for target, e in self.statements)

    def compile(self) -> Callable:
        """A Python function of the inputs (keyword arguments) returning a dict of the outputs.

        Vector inputs are indexed from 1 in the statements (``v(1)``) and from 0 in the arrays
        passed in; the outputs come back as floats (NumPy arrays in batched calls).  The
        function raises ``ValueError`` if a vector input's first dimension is not its size.
        """
        names = {}
        for name, size in self.inputs.items():
            if size is None:
                names[name] = name
            for k in range(size or 0):
                names[f"{name}({k + 1})"] = f"{name}[{k}]"
        lines = [f"def generated({', '.join(self.inputs)}):"]
        for name, size in self.inputs.items():
            if size is not None:
                lines.append(f"    _check_size({name!r}, {name}, {size})")
        for target, e in self.statements:
            local = _local(target)
            lines.append(f"    {local} = {format_expr(e, names)}")
            names[target] = local
        lines.append("    return {" + ", ".join(f"{t!r}: {_local(t)}" for t in self.outputs) + "}")
        scope: dict = {"_check_size": _check_size}
        exec(compile("\n".join(lines), "<spatial.symbolic>", "exec"), scope)  # noqa: S102
        return scope["generated"]


def _check_size(name: str, value, size: int) -> None:
    """The check a compiled program makes of a vector input (its first dimension)."""
    if np.shape(value)[:1] != (size,):
        raise ValueError(
            f"input {name} must have {size} entries along its first axis, got shape "
            f"{np.shape(value)}"
        )


def _name(name, what: str) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(
            f"{what} must be a Python identifier (it names generated code), got {name!r}"
        )
    return name


def _local(target: str) -> str:
    return target.replace("(", "_").replace(")", "")


class Executer:
    """The symbolic executer of §10.4: hands out input symbols and records named assignments.

    An algorithm written for numbers runs on the symbols; where it calls :meth:`temp`,
    :meth:`assign` or :meth:`output`, the executer records one statement per scalar and returns
    variables standing for them, so later statements refer to earlier results by name.
    """

    def __init__(self):
        self.statements: list = []
        self.inputs: dict = {}
        self.outputs: list = []
        self._temps = 0
        self._targets: set = set()

    def input(self, name: str, size: int | None = None):
        """An input symbol ``name`` (scalar) or a vector of ``v(1) … v(size)``.

        Raises
        ------
        ValueError
            If ``name`` is not an identifier or is already an input, or ``size`` is not a
            positive integer.
        """
        name = _name(name, "input name")
        if name in self.inputs:
            raise ValueError(f"input {name!r} is already defined")
        if size is not None:
            size = integer(size, "size", minimum=1)
        self.inputs[name] = size
        if size is None:
            return Expr("var", name)
        return np.array([Expr("var", f"{name}({k + 1})") for k in range(size)], dtype=object)

    def _record(self, target: str, value) -> Expr:
        if target in self._targets or target in self.inputs:
            raise ValueError(f"{target!r} is assigned twice; every target is assigned once")
        self._targets.add(target)
        self.statements.append((target, Expr.wrap(value)))
        return Expr("var", target)

    def assign(self, name: str, values):
        """Record ``name = values`` (a scalar, or ``name(1) … name(n)`` for a vector).

        Raises
        ------
        ValueError
            If ``name`` is not an identifier, is assigned twice, or ``values`` has more than
            one dimension.
        TypeError
            If a value is neither an expression nor a real number.
        """
        name = _name(name, "name")
        arr = np.asarray(values, dtype=object)
        if arr.ndim > 1:
            raise ValueError(f"{name}: values must be a scalar or a vector, got shape {arr.shape}")
        if arr.ndim == 0:
            return self._record(name, arr.item())
        return np.array(
            [self._record(f"{name}({k + 1})", x) for k, x in enumerate(arr)], dtype=object
        )

    def temp(self, values):
        """Record each scalar of ``values`` as a fresh temporary ``tmp001``, ``tmp002``, …"""
        arr = np.asarray(values, dtype=object)
        out = np.empty(arr.shape, dtype=object)
        for index, x in np.ndenumerate(arr):
            self._temps += 1
            out[index] = self._record(f"tmp{self._temps:03d}", x)
        return out if arr.ndim else out.item()

    def output(self, name: str, values):
        """Record ``values`` as the output ``name`` (or ``name(1) … name(n)``)."""
        result = self.assign(name, values)
        arr = np.asarray(result, dtype=object)
        self.outputs.extend(x.args[0] for x in arr.ravel())
        return result

    def program(self) -> Program:
        """The assignment-statement file recorded so far."""
        return Program(list(self.statements), dict(self.inputs), list(self.outputs))
