"""Symbolic simplification: the symbolic executer and simplifier of Featherstone §10.4.

A model-based algorithm handles every model, so it spends operations on terms that vanish for a
particular one (zero offsets, unit axes, zero inertia products).  §10.4 removes them in two steps:

1. the **symbolic executer** runs the algorithm on the model, but on scalar symbols instead of
   numbers, and records every scalar assignment it would have performed (vector operations are
   expanded one at a time into scalar statements, with temporaries, and the model's parameters
   are substituted by their values).  Here an :class:`Executer` hands out input symbols
   (:meth:`Executer.input`); arithmetic on them builds expression trees (:class:`Expr`); the
   algorithm names its intermediate results with :meth:`Executer.temp`, :meth:`Executer.assign`
   and :meth:`Executer.output`, which append statements to the record;
2. the **simplifier** applies cheap rules until none applies any more (a fixed point), because
   each rule creates work for the others (:meth:`Program.simplify`): drop statements whose result
   is never used (outputs count as used); drop copies ``a = b`` (``b`` a variable or a constant,
   ``a`` not an output) and write ``b`` wherever ``a`` was read; rewrite ``x·0 → 0``, ``x·1 → x``,
   ``x + 0 → x`` and the like; evaluate expressions whose operands are all constants.  Two small
   additions keep sign changes free, as the operation counts assume: a copy may also be
   ``a = -b``, and signs move out of products (``(-x)·y → -(x·y)``, ``x + (-y) → x - y``).

The result is straight-line code (:meth:`Program.source` in the book's notation,
:meth:`Program.compile` as a Python function).  Table 10.3's example (:func:`table_10_3`) goes
from 29 operations to 5; the optimum, ``0.1 v₁v₂``, needs algebra (collecting terms) that these
rules deliberately leave out.  :func:`planar_rnea` is the recursive Newton–Euler algorithm
(Table 5.1) in planar vectors (§2.16), written once for numbers and symbols alike, so a planar
chain's inverse dynamics can be generated, simplified and compared with :func:`spatial.rnea`.

The same instrumented arithmetic measures the package's own code: :func:`count_lines` runs a
function on object arrays of symbols and charges every product and sum it performed to the
source line that performed it (:mod:`spatial.symbolic.trace`); :func:`spatial.cost.dense_lines`
uses it to set ``rnea``, ``crba`` and ``aba`` beside the optimized counts of Table 10.1.

:func:`generate` carries the process to the end for the package's own algorithms: it traces
``rnea``, ``crba`` or ``aba`` on symbols for one model, with the rules applied as each operation
is made (:mod:`~spatial.symbolic.tracer`), and writes what the outputs depend on as one Python
function (:mod:`~spatial.symbolic.codegen`) that runs one state on Python floats or a batch as
NumPy array operations (:mod:`~spatial.symbolic.generator`).  Like Table 10.1's counts, it
works in Denavit–Hartenberg-like body frames where the model allows (:func:`dh_frames`, §10.3.1).

Operations are counted as the book does: ``m`` for multiplications and divisions, ``a`` for
additions and subtractions; a sign change is free (it folds into a neighbouring operation) and is
reported separately.
"""

from .examples import (
    PlanarChainData,
    generate_planar_rnea,
    planar_chain_data,
    planar_rnea,
    table_10_3,
)
from .executer import Executer, Program
from .expr import Expr, OpCount, count_operations, format_expr, tree_count
from .frames import dh_frames
from .generator import GeneratedFunction, GenerationError, generate
from .products import product_counts
from .trace import LineOps, angle_symbols, count_lines, symbol_array

__all__ = [
    "Expr",
    "OpCount",
    "count_operations",
    "tree_count",
    "format_expr",
    "Executer",
    "Program",
    "table_10_3",
    "PlanarChainData",
    "planar_chain_data",
    "planar_rnea",
    "generate_planar_rnea",
    "LineOps",
    "count_lines",
    "symbol_array",
    "angle_symbols",
    "generate",
    "dh_frames",
    "GeneratedFunction",
    "GenerationError",
    "product_counts",
]
