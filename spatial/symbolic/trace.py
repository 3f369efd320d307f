"""Operations of a Python function counted per source line, by running it on symbols.

§10.3 compares algorithms by their operation counts; the book's figures (Table 10.1) are for
code optimized by hand.  To see what the package's own NumPy code costs, the function is run on
arrays of ``dtype=object`` whose elements are symbols (:class:`~spatial.symbolic.Expr`): NumPy
then performs every product and sum of its dense kernels on them, zeros included, exactly as it
would on floats, and the expression trees left behind record each operation.

:func:`count_lines` runs a function under a line tracer (``sys.settrace``).  Whenever the
function moves to a new line, the operations that became reachable from its local variables
since the previous line are charged to that previous line; whatever the line's callees computed
counts for the line that called them.  Each operation is counted once (as in
:func:`~spatial.symbolic.count_operations`), and the per-line counts add up to the total over
everything the function kept.  Two limits: an operation whose result the function throws away
before the end of its line is not seen, and products of two plain numbers (constants of the
model with each other) are not operations on symbols, so they are not counted.

Joint angles need ``cos`` and ``sin``, which NumPy calls as methods of object elements;
:func:`angle_symbols` makes symbols that answer with new symbols ``cos(q1)``, ``sin(q1)``, so
that trigonometric functions, like the book's counts (§10.3), cost nothing.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass

import numpy as np

from .._validate import integer, integers
from .expr import Expr, OpCount

__all__ = ["LineOps", "angle_symbols", "symbol_array", "count_lines"]


class _Angle(Expr):
    """A variable whose ``cos`` and ``sin`` are new variables (free, as in §10.3)."""

    __slots__ = ()

    def cos(self) -> Expr:
        return Expr("var", f"cos({self.args[0]})")

    def sin(self) -> Expr:
        return Expr("var", f"sin({self.args[0]})")


def _name(name) -> str:
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    return name


def symbol_array(name: str, shape) -> np.ndarray:
    """An object array of variables ``name1, name2, …`` (indices from 1, joined).

    Parameters
    ----------
    name : str
    shape : int or tuple of int
        Each size a non-negative integer.

    Raises
    ------
    ValueError
        If ``name`` is not a non-empty string or a size is not a non-negative integer.
    """
    name = _name(name)
    if isinstance(shape, tuple | list):
        shape = integers(shape, "shape", minimum=0)
    else:
        shape = (integer(shape, "shape", minimum=0),)
    out = np.empty(shape, dtype=object)
    for index in np.ndindex(*shape):
        out[index] = Expr("var", name + "_".join(str(i + 1) for i in index))
    return out


def angle_symbols(name: str, n: int) -> np.ndarray:
    """``n`` variables ``name1 … name_n`` that accept ``np.cos`` and ``np.sin``.

    Raises
    ------
    ValueError
        If ``name`` is not a non-empty string or ``n`` is not a non-negative integer.
    """
    name, n = _name(name), integer(n, "n", minimum=0)
    out = np.empty(n, dtype=object)
    for i in range(n):
        out[i] = _Angle("var", f"{name}{i + 1}")
    return out


@dataclass(frozen=True)
class LineOps:
    """The operations charged to one source line of the traced function.

    ``hits`` is how often the line ran (loop passes included); ``ops`` the total over them.
    """

    lineno: int
    source: str
    hits: int
    ops: OpCount


class _Counter:
    """The set of operation nodes seen so far; keeps them alive so that ids stay unique."""

    def __init__(self):
        self.seen: dict[int, Expr] = {}

    def new_operations(self, values) -> tuple[int, int]:
        """Count the operation nodes reachable from ``values`` that were not seen before.

        Lists, tuples, object arrays and dataclass instances are searched (each container once
        per call, so a cycle cannot trap the search); other objects are not.
        """
        mul = add = 0
        stack, containers = list(values), set()
        while stack:
            x = stack.pop()
            if isinstance(x, Expr):
                if x.op in ("var", "const") or id(x) in self.seen:
                    continue
                self.seen[id(x)] = x
                mul += x.op in "*/"
                add += x.op in "+-"
                stack.extend(x.args)
                continue
            if id(x) in containers:
                continue
            if isinstance(x, np.ndarray):
                if x.dtype == object:
                    containers.add(id(x))
                    stack.extend(x.ravel().tolist())
            elif isinstance(x, list | tuple):
                containers.add(id(x))
                stack.extend(x)
            elif is_dataclass(x) and not isinstance(x, type):  # e.g. a pass's named results
                containers.add(id(x))
                stack.extend(getattr(x, f.name) for f in fields(x))
        return mul, add


def _statements(code) -> dict[int, tuple[int, str]]:
    """Each source line of a function -> (first line, text) of the simple statement holding it.

    A statement written over several lines is charged as one; a compound statement (``for``,
    ``if``, ...) only owns its header line.  Without source (code made by ``exec``) every
    line stands for itself, with an empty text.
    """
    try:
        lines, first = inspect.getsourcelines(code)
    except OSError:
        return {}
    tree = ast.parse(textwrap.dedent("".join(lines)))
    out = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or isinstance(node, ast.FunctionDef):
            continue
        compound = hasattr(node, "body")
        end = node.lineno if compound else node.end_lineno
        start = node.lineno + first - 1
        text = " ".join(lines[k].strip() for k in range(node.lineno - 1, end))
        for k in range(start, end + first):
            out.setdefault(k, (start, text.rstrip(":") if compound else text))
    return out


def count_lines(func: Callable, *args, charge=None, **kwargs) -> tuple[object, list[LineOps]]:
    """Run ``func(*args, **kwargs)`` and count its operations on symbols per source line.

    Parameters
    ----------
    func : callable
        The function to run; its arguments should hold object arrays of symbols
        (:func:`symbol_array`, :func:`angle_symbols`).
    *args, **kwargs
        Passed to ``func``.
    charge : sequence of functions, optional
        The Python functions whose lines are charged (default ``[func]``); operations of
        other functions count for the line of a charged function that called them.

    Returns
    -------
    result
        What ``func`` returned.
    list of LineOps
        One entry per line that performed operations, in the order of ``charge`` and, within
        a function, in source order.

    Raises
    ------
    TypeError
        If ``charge`` is not a sequence, or a function to charge is not a Python function (it
        has no source lines).
    """
    if charge is not None and (isinstance(charge, str) or not hasattr(charge, "__iter__")):
        raise TypeError(f"charge must be a sequence of functions, got {charge!r}")
    charged = [func] if charge is None else list(charge)
    codes = []
    for f in charged:
        if getattr(f, "__code__", None) is None:
            raise TypeError(f"count_lines needs Python functions, got {type(f).__name__}")
        codes.append(f.__code__)
    statements = [_statements(c) for c in codes]
    counter = _Counter()
    totals: dict[tuple, list[int]] = {}  # (code index, line) -> [mul, add, hits]

    def tracer(index):
        line = None

        def local(frame, event, arg):
            nonlocal line
            if event in ("line", "return") and line is not None:
                extra = (arg,) if event == "return" else ()
                mul, add = counter.new_operations([*frame.f_locals.values(), *extra])
                entry = totals[index, line]
                entry[0] += mul
                entry[1] += add
            if event == "line":
                start = statements[index].get(frame.f_lineno, (frame.f_lineno, ""))[0]
                if start != line:  # a statement over several lines runs once
                    totals.setdefault((index, start), [0, 0, 0])[2] += 1
                line = start
            return local

        return local

    def calls(frame, event, arg):
        if event == "call" and frame.f_code in codes:
            return tracer(codes.index(frame.f_code))
        return None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        result = func(*args, **kwargs)
    finally:
        sys.settrace(previous)
    lines = [
        LineOps(line, statements[i].get(line, (line, ""))[1], hits, OpCount(m, a))
        for (i, line), (m, a, hits) in sorted(totals.items())
        if m or a
    ]
    return result, lines
