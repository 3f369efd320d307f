"""Straight-line Python from a traced computation (the source-code file of Featherstone Fig. 10.6).

:func:`emit` turns the nodes an output depends on into one Python function.  It applies the one
rule of §10.4 that needs the finished record, "remove every statement whose result is never
used", by writing only the nodes reachable from the outputs, and counts their operations as the
book does (``m`` multiplications and divisions, ``a`` additions and subtractions; sign changes,
``cos`` and ``sin`` free).

A node used once is written into the expression of the node that uses it instead of getting a
statement of its own (expressions up to a bounded depth), so a row of a matrix product is one
line ``U3_2 = 0.31 * c_q3 + …``.  That changes neither the operations nor their order, only the
number of names Python stores and loads.  Every other node is one assignment, named after the
quantity of the traced algorithm that made it (:mod:`spatial.symbolic.tracer`).

Two variants of the function are written from the same statements:

* for **one state**, the arguments are lists of Python floats and ``cos``/``sin`` are
  ``math.cos``/``math.sin``: each statement is a few bytecodes on floats;
* for **batches**, the arguments are sequences of NumPy arrays (one per input variable, with
  the batch shape): the same operations in the same order, written one ufunc call per
  operation (``_mul(a, b, _b7)``: ``np.multiply`` into a buffer), each writing into one of a
  pool of arrays that the caller passes and that the code reuses as soon as the value a
  buffer holds is read for the last time (:func:`_three_address`).  No array is allocated per
  operation; with 1,000 states that is most of what an operation costs besides NumPy's call.

Parenthesization follows the traced order of evaluation exactly (``a + (b + c)`` stays so), so
the generated code performs the same floating-point operations as the traced code minus the
ones the rules removed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .expr import OpCount
from .tracer import Sym

__all__ = ["Emitted", "emit", "compile_function"]

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}
_UNARY, _ATOM = 3, 4
_MAX_DEPTH = 24  # deepest expression written inline; deeper ones get a statement
_ARITHMETIC = frozenset(_PREC)


@dataclass(frozen=True)
class Emitted:
    """The generated function's text (one state and batched), its constants and its counts.

    ``constants`` maps names used in the text to constants that a Python literal cannot hold
    exactly (``longdouble`` values); ``count`` is the operation count of the code, ``trig``
    the number of ``cos``/``sin`` evaluations, ``statements`` the number of assignments of
    the one-state text and ``buffers`` the number of batch-shaped arrays the batched text
    writes into (its last argument, ``_B``).
    """

    name: str
    source: str
    batch_source: str
    constants: dict
    count: OpCount
    trig: int
    statements: int
    buffers: int = 0


def _literal(value, constants: dict) -> tuple[str, int]:
    """A constant as Python text and its precedence; inexact long doubles become names."""
    as_float = float(value)
    if as_float != value:  # a long double that a float literal would round
        name = f"K{len(constants)}"
        constants[name] = value
        return name, _ATOM
    if as_float == 0.0:
        as_float = 0.0  # no "-0.0" in the code
    return repr(as_float), (_UNARY if as_float < 0 else _ATOM)


def emit(nodes: list, outputs: list, arguments: list, name: str) -> Emitted:
    """Write the function ``name(*arguments)`` that returns ``outputs`` as a tuple.

    Parameters
    ----------
    nodes : list of Sym
        The tape, in creation order (operands before the nodes that use them).
    outputs : list
        The values to return, each a node or a number.
    arguments : list of (str, list)
        Each argument's name and its input nodes (``None`` for an entry no node reads), in
        the order the function unpacks them; every ``"in"`` node an output depends on must be
        among them.
    name : str
        The function's name.

    Returns
    -------
    Emitted
    """
    N = len(nodes)
    uses = [0] * N
    live = bytearray(N)
    is_output = bytearray(N)
    for o in outputs:
        if type(o) is Sym:
            uses[o.n] += 1
            live[o.n] = is_output[o.n] = 1
    mul = add = neg = trig = 0
    for k in range(N - 1, -1, -1):
        if not live[k]:
            continue
        x = nodes[k]
        op = x.op
        if op in ("*", "/"):
            mul += 1
        elif op in ("+", "-"):
            add += 1
        elif op == "neg":
            neg += 1
        elif op != "in":
            trig += 1
        for y in (x.a, x.b):
            if type(y) is Sym:
                live[y.n] = 1
                uses[y.n] += 1

    # names: the inputs first, then the materialized nodes by the quantity that made them
    taken = {"cos", "sin", "math", "np", name}
    ref: list = [None] * N  # (text, precedence) of each live node as an operand
    unpack = []
    taken.update(arg for arg, _ in arguments)
    for arg, entries in arguments:
        targets = []
        for node in entries:
            if node is None or not live[node.n]:
                targets.append("_")
                continue
            text = _unique(node.a, taken)
            ref[node.n] = (text, _ATOM)
            targets.append(text)
        if any(t != "_" for t in targets):
            unpack.append(f"    {', '.join(targets)}{',' if len(targets) == 1 else ''} = {arg}")
    for o in outputs:
        if type(o) is Sym and o.op == "in" and ref[o.n] is None:
            raise ValueError(f"input node {o.a!r} is not among the arguments")
    serial: dict = {}
    constants: dict = {}
    depth = [0] * N
    materialized = [False] * N
    statements = []  # (node number, text)
    for k in range(N):
        if not live[k]:
            continue
        x = nodes[k]
        op = x.op
        if op == "in":
            if ref[k] is None:
                raise ValueError(f"input node {x.a!r} is not among the arguments")
            continue
        if op in ("cos", "sin"):
            text = f"{op}({ref[x.a.n][0]})"
            statements.append((k, _name(x, taken, serial), text))
            materialized[k] = True
            ref[k] = (statements[-1][1], _ATOM)
            continue
        if op == "neg":
            inner, p = _operand(x.a, ref, constants)
            ref[k] = (f"-{inner}" if p >= _UNARY else f"-({inner})", _UNARY)
            depth[k] = depth[x.a.n] if type(x.a) is Sym else 0
            continue
        p = _PREC[op]
        a, b = x.a, x.b
        ta, pa = ref[a.n] if type(a) is Sym else _literal(a, constants)
        tb, pb = ref[b.n] if type(b) is Sym else _literal(b, constants)
        if pa < p:
            ta = f"({ta})"
        if pb <= p:
            tb = f"({tb})"
        text = f"{ta} {op} {tb}"
        da = depth[a.n] if type(a) is Sym else 0
        db = depth[b.n] if type(b) is Sym else 0
        d = 1 + (da if da > db else db)
        if uses[k] == 1 and not is_output[k] and d <= _MAX_DEPTH:
            ref[k], depth[k] = (text, p), d
            continue
        statements.append((k, _name(x, taken, serial), text))
        materialized[k] = True
        ref[k] = (statements[-1][1], _ATOM)

    returned = [(_operand(o, ref, constants)[0]) for o in outputs]
    head = f"def {name}({', '.join(arg for arg, _ in arguments)}):"
    body = [f"    {target} = {text}" for _, target, text in statements]
    tail = f"    return ({', '.join(returned)}{',' if len(returned) == 1 else ''})"
    source = "\n".join([head, *unpack, *body, tail]) + "\n"
    batch_source, buffers = _three_address(nodes, live, outputs, arguments, ref, name, constants)
    return Emitted(
        name,
        source,
        batch_source,
        constants,
        OpCount(mul, add, neg),
        trig,
        len(statements),
        buffers,
    )


_UFUNC = {"+": "_add", "-": "_sub", "*": "_mul", "/": "_div", "neg": "_neg", "cos": "cos"}
_UFUNC["sin"] = "sin"


def _three_address(nodes, live, outputs, arguments, ref, name, constants) -> tuple[str, int]:
    """The batched function: one NumPy ufunc call per operation, into reused buffers.

    Every operation writes its result with ``out=`` into one of ``_B``'s arrays (the caller
    passes them, all of the batch shape), chosen when the code is written: a buffer is free
    again after the last operation that reads the value it holds, and an operation may write
    over an operand it reads last (elementwise, so this is safe).  No array is allocated per
    operation, and none lives longer than its value.  Returns the text and the number of
    buffers the function needs.
    """
    N = len(nodes)
    last = [-1] * N
    ops = [k for k in range(N) if live[k] and nodes[k].op != "in"]
    for k in ops:
        x = nodes[k]
        for y in (x.a, x.b):
            if type(y) is Sym:
                last[y.n] = k
    for o in outputs:
        if type(o) is Sym:
            last[o.n] = N  # never freed
    free: list = []
    count = 0
    where: dict = {}  # node number -> buffer name
    body = []

    def operand(y) -> str:
        if type(y) is not Sym:
            return _literal(y, constants)[0]
        return where.get(y.n) or ref[y.n][0]

    for k in ops:
        x = nodes[k]
        args = [operand(y) for y in (x.a, x.b) if y is not None]
        for y in (x.a, x.b):  # operands read for the last time: their buffers are free now
            if type(y) is Sym and last[y.n] == k and y.n in where:
                free.append(where.pop(y.n))
        if free:
            target = free.pop()
        else:
            target, count = f"_b{count}", count + 1
        where[k] = target
        body.append(f"    {_UFUNC[x.op]}({', '.join(args)}, {target})")
        if last[k] == -1:  # computed for nothing (cannot happen for live nodes)
            free.append(where.pop(k))
    head = f"def {name}({', '.join(arg for arg, _ in arguments)}, _B):"
    unpack = []
    for arg, entries in arguments:
        targets = ["_" if n is None or not live[n.n] else ref[n.n][0] for n in entries]
        if any(t != "_" for t in targets):
            unpack.append(f"    {', '.join(targets)}{',' if len(targets) == 1 else ''} = {arg}")
    if count:
        names = [f"_b{j}" for j in range(count)]
        unpack.append(f"    {', '.join(names)}{',' if count == 1 else ''} = _B")
    returned = [operand(o) for o in outputs]
    tail = f"    return ({', '.join(returned)}{',' if len(returned) == 1 else ''})"
    return "\n".join([head, *unpack, *body, tail]) + "\n", count


def _operand(y, ref: list, constants: dict) -> tuple[str, int]:
    if type(y) is Sym:
        return ref[y.n]
    return _literal(y, constants)


def _unique(base: str, taken: set) -> str:
    text, k = base, 1
    while text in taken:
        k += 1
        text = f"{base}_{k}"
    taken.add(text)
    return text


def _name(x: Sym, taken: set, serial: dict) -> str:
    """A fresh name for a statement: ``{quantity}{body}_{k}``, ``cos_q3`` for ``cos(q3)``."""
    if x.op in ("cos", "sin") and type(x.a) is Sym and x.a.op == "in":
        return _unique(f"{x.op}_{x.a.a}", taken)
    quantity, body = x.site if x.site is not None else ("t", None)
    base = f"{quantity}{'' if body is None else body}"
    while True:
        k = serial[base] = serial.get(base, 0) + 1
        text = f"{base}_{k}"
        if text not in taken:
            taken.add(text)
            return text


def compile_function(emitted: Emitted, batch: bool, dtype=np.float64):
    """Compile the one-state (``math``) or the batched (NumPy) variant into a function.

    In the batched variant every number of the text (with its sign, when one is attached)
    becomes a name bound to a 0-d array of ``dtype``, the computation type: NumPy multiplies
    an array by a 0-d array of its own type about a third faster than by a Python float, which
    it must convert at every operation.
    """
    scope = dict(emitted.constants)
    scope.update({"cos": np.cos, "sin": np.sin} if batch else {"cos": math.cos, "sin": math.sin})
    if batch:
        scope.update(_add=np.add, _sub=np.subtract, _mul=np.multiply, _div=np.true_divide)
        scope.update(_neg=np.negative)
    filename = f"<spatial.symbolic.generator: {emitted.name}{' (batched)' if batch else ''}>"
    source = emitted.source
    if batch:
        names: dict = {}
        dtype = np.dtype(dtype)

        def name(match) -> str:
            text = match.group(0)
            found = names.get(text)
            if found is None:
                found = names[text] = f"_C{len(names)}"
                scope[found] = np.array(float(text), dtype)
            return found

        source = _NUMBER.sub(name, emitted.batch_source)
    exec(compile(source, filename, "exec"), scope)  # noqa: S102
    return scope[emitted.name]


# a float literal as repr() writes it (always with "." or an exponent), with an attached sign;
# names (``X3_1``, ``q2``) never match: a digit of a name follows a letter or "_"
_NUMBER = re.compile(r"(?<![\w.])-?(?:\d+\.\d*(?:e[+-]?\d+)?|\d+e[+-]?\d+)")
