"""Model-specific straight-line code from the package's own algorithms (Featherstone §10.4).

:func:`generate` runs ``rnea``, ``crba`` or ``aba`` once, on symbols, for one model: the same
functions :func:`spatial.rnea`, :func:`spatial.crba` and :func:`spatial.aba` call, on object
arrays whose elements are :class:`~spatial.symbolic.tracer.Sym` nodes (the symbolic executer).
The model's parameters enter as numbers, so every product with a zero, a one or another
constant of the model is simplified away as it is made (the simplifier,
:mod:`spatial.symbolic.tracer`); what an output depends on is written out as one Python
function (:mod:`spatial.symbolic.codegen`).  There is one definition of each algorithm: the
generated code is what the dense code computes for this model, minus the operations the
rules remove.

Joints.  A joint's ``jcalc`` (``X_J``, ``S``, ``c_J``) is traced with the rest when its code
runs on symbols (revolute, prismatic, helical, cylindrical, planar, the quaternion spherical and
free joints, the Euler-angle and universal joints, translations, rack and pinion, composites
and reversed joints of these).  A joint whose code needs the values of its variables (a branch,
a square root, a spline segment: :class:`~spatial.joints.SphericalExp`, the spline joints)
cannot become straight-line code; its ``jcalc`` then runs numerically at each call, by the
joint's own methods, and its results enter the generated code as inputs (``XJ3_1``, …).
``strict=True`` refuses such joints instead.  Loop joints are refused: the generated function
would describe the spanning tree only.

Body frames.  Table 10.1's counts assume Denavit–Hartenberg frames (§10.3.1, optimization 1),
in which each link-to-link transform has zeros.  A model's frames are the modeller's choice; by
default the generator re-expresses the model in such frames first (:mod:`~spatial.symbolic.frames`:
each body on an axial joint moved along its own axis, which leaves the joint, ``τ``, ``H`` and
``q̈`` unchanged) when that leaves fewer general constants, and traces that.

Beyond the book's four rules the generator adds three things, none of which changes the
arithmetic that is left: **common subexpressions** (a product or sum the dense code forms twice
is computed once, :mod:`~spatial.symbolic.tracer`); **symmetric products** (the algorithms mark
``I^a``, ``I^A`` and ``I^c`` with :func:`spatial._batched.symmetric`, and while generating only
the entries on and above the diagonal are computed); and **inline expressions** (a result used
once is written into the expression that uses it, :mod:`~spatial.symbolic.codegen`).  A
multi-DoF joint's ``D_i⁻¹`` in the ABA becomes a written-out ``LDLᵀ`` solve
(:func:`spatial._batched.spd_solve`).

Operation counts follow Featherstone §10.3: ``m`` multiplications and divisions, ``a``
additions and subtractions; sign changes, ``cos`` and ``sin`` are free (each ``cos q_i`` and
``sin q_i`` is evaluated once).  External forces are supported (a variant with ``6 N_B`` more
inputs, generated on first use); the inertia-matrix ``forward_dynamics`` is not (its code grows
as ``n³`` on a chain, where the generated ``aba`` is ``O(n)``).

Every generated function is checked once against the dense algorithm at a random state before
it is returned (a wrong trace raises :class:`GenerationError`, never returns a function).
"""

from __future__ import annotations

import copy
import math
import os
import threading
import time
from collections import OrderedDict

import numpy as np

from .. import _batched
from .. import dynamics as _dynamics_package
from .. import kinematics as _kinematics_module
from ..dynamics.aba import _aba
from ..dynamics.crba import _crba
from ..dynamics.rnea import _batch_shape, _check_f_ext, _rnea
from ..joints import Joint
from ..model import Model
from .codegen import Emitted, compile_function, emit
from .frames import dh_frames
from .tracer import input_symbol, tape

__all__ = ["generate", "GeneratedFunction", "GenerationError", "ALGORITHMS"]

#: The algorithms :func:`generate` knows, with the names of their state arguments.
ALGORITHMS = {
    "rnea": ("q", "qd", "qdd"),
    "crba": ("q",),
    "aba": ("q", "qd", "tau"),
}
_DENSE = {
    "rnea": lambda m, q, qd, x, f: _rnea(m, q, qd, x, f)[0],
    "crba": lambda m, q, f: _crba(m, q),
    "aba": lambda m, q, qd, x, f: _aba(m, q, qd, x, f),
}
_ROOTS = (os.path.dirname(_dynamics_package.__file__) + os.sep, _kinematics_module.__file__)
_SINGULAR = {
    "aba": (
        "aba: a joint's articulated inertia D_i = S_iᵀ I^A_i S_i is singular: the subtree "
        "it moves has no mass or no inertia along its motion, so q̈ is undefined"
    ),
}


class GenerationError(ValueError):
    """The generator cannot produce straight-line code for this model and algorithm."""


# ----------------------------------------------------------------------------- joints


class _JcalcInputs(Joint):
    """Stands in for a joint whose ``jcalc`` cannot be traced: its results become inputs.

    ``X_J`` is a Plücker transform ``[[E, 0], [B, E]]`` whatever the joint (eq. 2.24), so it
    enters as the 18 inputs of ``E`` and ``B``; ``S`` enters as a constant when the joint says
    it is one, else as ``6 nv`` inputs; ``c_J`` as 6 inputs.  Each is made once, on first use.
    """

    def __init__(self, joint: Joint, body: int):
        self.joint, self.body = joint, body
        self.nq, self.nv = joint.nq, joint.nv
        self.X = self.S = self.c = None
        self.reason = ""
        self._S_constant = (
            np.array(joint.motion_subspace(joint.neutral()), float) if joint.constant_S else None
        )

    @property
    def constant_S(self) -> bool:
        return self._S_constant is not None

    def _inputs(self, name: str, count: int) -> list:
        return [input_symbol(f"{name}{self.body}_{k + 1}") for k in range(count)]

    def transform(self, q):
        if self.X is None:
            E = np.array(self._inputs("XJ", 9), object).reshape(3, 3)
            B = np.array(self._inputs("XJ", 18)[9:], object).reshape(3, 3)
            self.X = np.block([[E, np.zeros((3, 3))], [B, E]]).astype(object)
        return self.X

    def motion_subspace(self, q):
        if self._S_constant is not None:
            return self._S_constant
        if self.S is None:
            self.S = np.array(self._inputs("SJ", 6 * self.nv), object).reshape(6, self.nv)
        return self.S

    def bias(self, q, qd):
        if self.c is None:
            self.c = np.array(self._inputs("cJ", 6), object)
        return self.c

    def entries(self) -> list:
        """The input nodes in the order :meth:`values` computes them."""
        out = []
        if self.X is not None:
            out += list(self.X[:3, :3].ravel()) + list(self.X[3:, :3].ravel())
        if self.S is not None:
            out += list(self.S.ravel())
        if self.c is not None:
            out += list(self.c)
        return out


def _jcalc_values(joint, X: bool, S: bool, c: bool, q_i, qd_i) -> list:
    """The numbers (or, batched, the arrays) that :meth:`_JcalcInputs.entries` stands for."""
    parts = []
    if X:
        XJ = joint.transform(q_i)
        parts += [XJ[..., :3, :3], XJ[..., 3:, :3]]
    if S:
        parts.append(joint.motion_subspace(q_i))
    if c:
        parts.append(joint.bias(q_i, qd_i)[..., None])
    flat = [p.reshape(p.shape[:-2] + (-1,)) for p in parts]
    if not flat:
        return []
    if all(p.ndim == 1 for p in flat):
        return np.concatenate(flat).tolist()
    batch = np.broadcast_shapes(*(p.shape[:-1] for p in flat))
    values = np.concatenate([np.broadcast_to(p, batch + p.shape[-1:]) for p in flat], -1)
    return list(np.moveaxis(values, -1, 0))


def _traceable(joint: Joint) -> str | None:
    """``None`` if the joint's ``jcalc`` runs on symbols, else why not."""
    try:
        with tape():
            q = np.array([input_symbol(f"q{k}") for k in range(joint.nq)], object)
            qd = np.array([input_symbol(f"qd{k}") for k in range(joint.nv)], object)
            results = [joint.transform(q), joint.motion_subspace(q)]
            if not joint.constant_S:
                results.append(joint.bias(q, qd))
    except Exception as error:  # any failure on symbols means: evaluate numerically
        return f"{type(error).__name__}: {error}"
    shapes = [(6, 6), (6, joint.nv), (6,)]
    for value, shape in zip(results, shapes, strict=False):
        value = np.asarray(value)
        if value.shape != shape or value.dtype.kind not in "fiuO":
            return f"its jcalc gave shape {value.shape} of {value.dtype} on symbols"
    return None


# ----------------------------------------------------------------------------- models


def _copy_model(model: Model, joints=None) -> Model:
    """A copy of ``model`` that later changes to ``model`` do not reach (joints are shared)."""
    new = copy.copy(model)
    for name in ("parent", "names", "q_index", "v_index", "loop_joints"):
        setattr(new, name, list(getattr(model, name)))
    new.joints = list(model.joints if joints is None else joints)
    new.X_tree = [None] + [np.array(X) for X in model.X_tree[1:]]
    new.inertia = [None] + [np.array(I) for I in model.inertia[1:]]
    new.gravity = np.array(model.gravity)
    new._fused = {}
    return new


def _value_key(value):
    if isinstance(value, Joint):
        return _joint_key(value)
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, list | tuple):
        return tuple(_value_key(v) for v in value)
    if isinstance(value, dict):
        return ("dict", tuple((repr(k), _value_key(v)) for k, v in value.items()))
    if isinstance(value, bool | int | float | str | complex | type(None) | np.generic):
        return value
    # other kinds compare by identity: the cached function's model shares the joints, which
    # keeps the object alive, so its id cannot be reused by another object
    return ("object", id(value))


def _joint_key(joint: Joint) -> tuple:
    return (
        type(joint).__module__,
        type(joint).__qualname__,
        _value_key(sorted(vars(joint).items())),
    )


def _model_key(model: Model) -> tuple:
    """Everything the generated code depends on: structure, joints and parameters."""
    arrays = b"".join(a.tobytes() for a in (*model.X_tree[1:], *model.inertia[1:], model.gravity))
    return (
        model.dtype.str,
        tuple(model.parent),
        tuple(_joint_key(j) for j in model.joints[1:]),
        arrays,
        model.NL,
    )


# ----------------------------------------------------------------------------- the function


class GeneratedFunction:
    """Straight-line code of one algorithm for one model, callable like the dense algorithm.

    ``f = generate(model, "aba")`` is called as ``f(q, qd, tau)`` (``f(q, qd, tau,
    f_ext=…)`` with external forces), ``generate(model, "rnea")`` as ``f(q, qd, qdd)`` and
    ``generate(model, "crba")`` as ``f(q)``; inputs and results have the shapes, the
    validation and the floating type (float32, float64, longdouble) of :func:`spatial.aba`,
    :func:`spatial.rnea` and :func:`spatial.crba`.  One state (1-D arrays) runs the code on
    Python floats with ``math.cos``; leading batch dimensions run each operation as one NumPy
    array operation with ``np.cos`` (long doubles always take that route, to keep their
    precision).  Calls with ``f_ext`` and long-double inputs use variants generated on first
    use.

    Attributes
    ----------
    algorithm : str
    model : Model
        A copy of the model the code was generated for.
    source : str
        The generated Python function (one state), one assignment per line.
    batch_source : str
        The same operations for batches, one NumPy ufunc call per operation into reused
        buffers (its last argument ``_B``, which the function passes).
    count : OpCount
        Operations of the generated code as Featherstone §10.3 counts them: ``count.mul``
        multiplications and divisions (``m``), ``count.add`` additions and subtractions
        (``a``); sign changes (``count.neg``), ``cos`` and ``sin`` (:attr:`trig`) are free.
        Numerically evaluated ``jcalc`` (:attr:`numeric_joints`) is not counted.
    trig : int
        Number of ``cos``/``sin`` evaluations.
    statements : int
        Number of assignments in :attr:`source`.
    numeric_joints : dict
        Body number -> reason, for the joints whose ``jcalc`` runs numerically at each call.
    frames : str
        ``"dh"`` if the code works in Denavit–Hartenberg-like body frames (its intermediate
        quantities, such as ``v_i``, are in those frames), else ``"model"``.
    generation_seconds : float
        Wall-clock time of tracing, writing, compiling and checking the one-state variant.
    """

    def __init__(self, algorithm, model, f_ext, dtype, emitted: Emitted, proxies, options):
        self.algorithm, self.model, self.f_ext = algorithm, model, f_ext
        self.dtype = np.dtype(dtype)
        self.source, self.batch_source = emitted.source, emitted.batch_source
        self.count, self.trig, self.statements = emitted.count, emitted.trig, emitted.statements
        self.numeric_joints = {p.body: p.reason for p in proxies}
        self.generation_seconds = float("nan")  # set by the generator when it is done
        self.frames = "model"  # set by the generator when it works in DH frames
        self._emitted, self._options = emitted, options
        self._one = compile_function(emitted, batch=False)
        self._many = None
        self._parameters = ALGORITHMS[algorithm]
        self._jcalc = [
            (p.joint, model.q_index[p.body], model.v_index[p.body], p.X is not None,
             p.S is not None, p.c is not None)
            for p in proxies
        ]  # fmt: skip
        self._variants: dict = {(f_ext, self.dtype): self}
        self._lock = threading.Lock()
        # the one-state fast path (:meth:`__call__`): float arrays of the model's type whose
        # shapes are these, on a model none of whose joints restricts q (Joint.check_q)
        sizes = {"q": model.nq, "qd": model.nv, "qdd": model.nv, "tau": model.nv}
        self._fast_shapes = [(sizes[name],) for name in self._parameters]
        self._fast = (
            self.dtype == np.float64
            and not f_ext
            and not any(type(j).check_q is not Joint.check_q for j in model.joints[1:])
        )

    m = property(lambda self: self.count.mul, doc="Multiplications and divisions (``m``).")
    a = property(lambda self: self.count.add, doc="Additions and subtractions (``a``).")

    def __repr__(self) -> str:
        return (
            f"GeneratedFunction({self.algorithm!r}, NB={self.model.NB}, {self.count}, "
            f"{self.statements} statements)"
        )

    # ---------------------------------------------------------------- calling

    def __call__(self, *args, f_ext=None, **kwargs):
        if self._fast and f_ext is None and not kwargs:
            values = self._call_fast(args)
            if values is not None:
                return values
        if len(args) == len(self._parameters) + 1 and self.algorithm != "crba":
            if f_ext is not None:
                raise TypeError(f"the generated {self.algorithm} got f_ext twice")
            *args, f_ext = args  # f_ext given by position, as the dense function allows
        if kwargs or len(args) != len(self._parameters):
            args = self._bind(args, kwargs)
        model = self.model
        if self.algorithm == "crba":
            if f_ext is not None:
                raise TypeError("crba takes no f_ext")
            arrays = list(model.check_state(args[0])[:1])
        elif self.algorithm == "rnea":
            arrays = list(model.check_state(*args)[:3])
        else:
            q, qd, _, tau = model.check_state(args[0], args[1], None, args[2])
            arrays = [q, qd, tau]
        f_ext = _check_f_ext(model, f_ext)
        dtype = arrays[0].dtype
        target = self._variant(f_ext is not None, dtype)
        return target._evaluate(arrays, f_ext, dtype)

    def _call_fast(self, args) -> np.ndarray | None:
        """One float64 state validated and run at the cost of a few Python operations.

        Returns ``None`` (the caller then takes the general route, which validates in full and
        raises the package's errors) unless every argument is a float64 array of its 1-D shape
        whose entries are all finite: the sum of the entries is finite only if each one is (a
        nan or an infinity reaches the sum; a sum that overflows from finite entries merely
        sends the call the general way).
        """
        if len(args) != len(self._fast_shapes):
            return None
        lists = []
        for x, shape in zip(args, self._fast_shapes, strict=True):
            if type(x) is not np.ndarray or x.dtype != np.float64 or x.shape != shape:
                return None
            values = x.tolist()
            if not math.isfinite(sum(values)):
                return None
            lists.append(values)
        if self._jcalc:
            lists.append(self._jcalc_inputs(args))
        try:
            values = self._one(*lists)
        except ZeroDivisionError:
            raise ValueError(_SINGULAR.get(self.algorithm, "division by zero")) from None
        if not math.isfinite(sum(values)):
            out = np.array(values, np.float64).reshape(self._shape())
            if self.algorithm == "aba" and not np.isfinite(out).all():
                raise ValueError(_SINGULAR["aba"])
            return out
        out = np.array(values, np.float64)
        return out.reshape(self._shape()) if self.algorithm == "crba" else out

    def _call_checked(self, arrays: list, f_ext=None) -> np.ndarray:
        """The call on arguments already validated (``model.check_state``): float arrays of
        one type, shaped ``(..., nq)`` / ``(..., nv)``; ``f_ext`` is validated here.

        The core that a loop which validated its state once (:func:`spatial.simulate`, through
        :class:`~spatial.systems.TreeSystem`) calls at every stage.
        """
        f_ext = _check_f_ext(self.model, f_ext)
        dtype = arrays[0].dtype
        return self._variant(f_ext is not None, dtype)._evaluate(arrays, f_ext, dtype)

    def _bind(self, args, kwargs) -> tuple:
        names = self._parameters
        if len(args) > len(names) or any(k not in names for k in kwargs):
            raise TypeError(
                f"the generated {self.algorithm} takes ({', '.join(names)}"
                f"{'' if self.algorithm == 'crba' else ', f_ext=None'}), got {len(args)} "
                f"positional and {sorted(kwargs)} keyword arguments"
            )
        values = dict(zip(names, args, strict=False))
        for k, v in kwargs.items():
            if k in values:
                raise TypeError(f"the generated {self.algorithm} got {k!r} twice")
            values[k] = v
        missing = [n for n in names if n not in values]
        if missing:
            raise TypeError(f"the generated {self.algorithm} is missing {missing}")
        return tuple(values[n] for n in names)

    def _variant(self, with_f_ext: bool, dtype) -> GeneratedFunction:
        """The variant for ``f_ext`` and the computation type (long double or the model's)."""
        kind = np.dtype(np.longdouble) if dtype == np.longdouble else self.model.dtype
        key = (with_f_ext, kind)
        found = self._variants.get(key)
        if found is None:
            with self._lock:
                found = self._variants.get(key)
                if found is None:
                    found = _generate(self.model, self.algorithm, with_f_ext, kind, *self._options)
                    found._variants = self._variants
                    self._variants[key] = found
        return found

    def _evaluate(self, arrays: list, f_ext, dtype) -> np.ndarray:
        one = dtype != np.longdouble and all(x.ndim == 1 for x in arrays)
        one = one and (f_ext is None or f_ext.ndim == 2)
        if one:
            return self._call_one(arrays, f_ext, dtype)
        return self._call_many(arrays, f_ext, dtype)

    def _shape(self) -> tuple:
        nv = self.model.nv
        return (nv, nv) if self.algorithm == "crba" else (nv,)

    def _call_one(self, arrays, f_ext, dtype):
        args = [x.tolist() for x in arrays]
        if f_ext is not None:
            args.append(f_ext[1:].ravel().tolist())
        if self._jcalc:
            args.append(self._jcalc_inputs(arrays))
        try:
            values = self._one(*args)
        except ZeroDivisionError:
            raise ValueError(_SINGULAR.get(self.algorithm, "division by zero")) from None
        out = np.array(values, dtype).reshape(self._shape())
        if self.algorithm == "aba" and not np.isfinite(out).all():
            raise ValueError(_SINGULAR["aba"])
        return out

    def _call_many(self, arrays, f_ext, dtype):
        shape = arrays[0].shape
        if f_ext is None and all(x.shape[:-1] == shape[:-1] for x in arrays):
            batch = shape[:-1]  # the common call: every argument has the same batch shape
        else:
            batch = _batch_shape(
                **{n: (x, 1) for n, x in zip(self._parameters, arrays, strict=True)},
                f_ext=(f_ext, 2),
            )
        # each input variable as one contiguous array of the batch shape (rows of x.T)
        args = [_last_axis_first(x).copy() for x in arrays]
        if f_ext is not None:
            args.append(_last_axis_first(f_ext[..., 1:, :].reshape(f_ext.shape[:-2] + (-1,))))
        if self._jcalc:
            args.append(self._jcalc_inputs(arrays))
        if self._many is None:
            self._many = compile_function(self._emitted, batch=True, dtype=self.dtype)
        # the arrays the batched code writes its operations into (0-d ones for one state)
        pool = np.empty((self._emitted.buffers,) + batch, dtype)
        buffers = list(pool) if batch else [pool[j, ...] for j in range(len(pool))]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            values = self._many(*args, buffers)
        out = np.empty((len(values),) + batch, dtype)
        for k, value in enumerate(values):
            out[k] = value
        if self.algorithm == "aba" and not np.isfinite(out).all():
            raise ValueError(_SINGULAR["aba"])
        # one copy back to (..., outputs), contiguous
        out = np.ascontiguousarray(out.transpose(tuple(range(1, out.ndim)) + (0,)))
        return out.reshape(batch + self._shape())

    def _jcalc_inputs(self, arrays) -> list:
        q = arrays[0]
        qd = arrays[1] if len(arrays) > 1 else None
        values: list = []
        for joint, qi, vi, X, S, c in self._jcalc:
            values += _jcalc_values(joint, X, S, c, q[..., qi], None if qd is None else qd[..., vi])
        return values


def _last_axis_first(x: np.ndarray) -> np.ndarray:
    """``np.moveaxis(x, -1, 0)`` without its argument handling (a view)."""
    return x.transpose((x.ndim - 1,) + tuple(range(x.ndim - 1)))


# ----------------------------------------------------------------------------- generation


def _trace(model: Model, algorithm: str, with_f_ext: bool, proxies: list):
    """Run the dense algorithm on symbols; returns (outputs, arguments)."""
    names = ALGORITHMS[algorithm]
    sizes = {"q": model.nq, "qd": model.nv, "qdd": model.nv, "tau": model.nv}
    inputs = {
        name: np.array([input_symbol(f"{name}{k + 1}") for k in range(sizes[name])], object)
        for name in names
    }
    f = None
    if with_f_ext:
        f = np.zeros((model.NB + 1, 6), object)
        f[0] = 0.0
        for i in range(1, model.NB + 1):
            f[i] = [input_symbol(f"fx{i}_{k + 1}") for k in range(6)]
    result = _DENSE[algorithm](model, *inputs.values(), f)
    arguments = [(name, list(values)) for name, values in inputs.items()]
    if with_f_ext:
        arguments.append(("f_ext", list(f[1:].ravel())))
    if proxies:
        arguments.append(("jcalc", [node for p in proxies for node in p.entries()]))
    return list(np.asarray(result, object).ravel()), arguments


def _generate(model: Model, algorithm: str, with_f_ext: bool, dtype, strict: bool, frames: str):
    """Trace, simplify, write, compile and check one variant (no cache)."""
    start = time.perf_counter()
    snapshot = model if np.dtype(dtype) == model.dtype else model.astype(dtype)
    joints, proxies = list(snapshot.joints), []
    for i in range(1, snapshot.NB + 1):
        reason = _traceable(joints[i])
        if reason is None:
            continue
        if strict:
            raise GenerationError(
                f"generate: joint {i} ({joints[i]!r}) cannot be traced ({reason}); with "
                "strict=False its jcalc would be evaluated numerically at each call"
            )
        proxy = _JcalcInputs(joints[i], i)
        proxy.reason = reason
        joints[i] = proxy
        proxies.append(proxy)
    traced = _copy_model(snapshot, joints)
    dh = dh_frames(traced) if frames == "dh" else None
    if dh is not None:  # the code works in other body frames; its results are the same
        traced.X_tree, traced.inertia = dh
    with tape(_ROOTS) as t:
        _batched.MIRROR_SYMMETRIC = True  # symmetric products: each pair of entries once
        try:
            outputs, arguments = _trace(traced, algorithm, with_f_ext, proxies)
        except Exception as error:
            raise GenerationError(
                f"generate: {algorithm} could not be traced on symbols for this model "
                f"({type(error).__name__}: {error})"
            ) from error
        finally:
            _batched.MIRROR_SYMMETRIC = False
        emitted = emit(t.nodes, outputs, arguments, algorithm)
    result = GeneratedFunction(
        algorithm,
        model,
        with_f_ext,
        dtype,
        emitted,
        proxies,
        (strict, frames),
    )
    result.frames = "model" if dh is None else "dh"
    _self_check(result, snapshot, dtype)
    result.generation_seconds = time.perf_counter() - start
    return result


def _self_check(f: GeneratedFunction, model: Model, dtype) -> None:
    """Compare the generated code with the dense algorithm at one random state.

    Both run in float64 (long double for the long-double variant): a float32 model's
    constants are float32 numbers either way, and the two codes then differ by round-off only.
    """
    dtype = np.longdouble if np.dtype(dtype) == np.longdouble else np.float64
    rng = np.random.default_rng(20261126)
    nv = model.nv
    q = model.random_configuration(rng).astype(dtype)
    x = rng.standard_normal((2, nv)).astype(dtype)
    f_ext = None
    if f.f_ext:
        f_ext = rng.standard_normal((model.NB + 1, 6)).astype(dtype)
        f_ext[0] = 0.0
    args = {"crba": (q,), "rnea": (q, x[0], x[1]), "aba": (q, x[0], x[1])}[f.algorithm]
    try:
        with np.errstate(all="ignore"):
            expected = _DENSE[f.algorithm](model, *args, f_ext)
    except Exception:  # the dense algorithm fails here too (e.g. a massless subtree)
        return
    if not np.isfinite(expected).all():
        return
    got = f._evaluate(list(args), f_ext, np.dtype(dtype))
    scale = 1.0 + np.abs(expected).max(initial=0.0)
    if got.shape != expected.shape or not np.allclose(got, expected, rtol=1e-7, atol=1e-7 * scale):
        raise GenerationError(
            f"generate: the code generated for {f.algorithm} differs from the dense algorithm "
            f"at a random state by {np.abs(got - expected).max():.3g}; refusing to return it"
        )


_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 32
_CACHE_LOCK = threading.Lock()


def generate(
    model: Model,
    algorithm: str = "aba",
    *,
    f_ext: bool = False,
    strict: bool = False,
    frames: str = "dh",
) -> GeneratedFunction:
    """Straight-line code of ``algorithm`` for ``model`` by symbolic simplification (§10.4).

    The package's own ``rnea`` (Table 5.1), ``crba`` (Table 6.2) or ``aba`` (Table 7.1) runs
    once on symbols for this model; every operation that a zero, a one or a constant of the
    model makes unnecessary is removed as it is made (Featherstone §10.4's rules: constants
    folded, ``x·0``, ``x·1``, ``x + 0`` removed, model constants substituted, unused results
    dropped), a product or sum that was already formed is reused (common subexpressions, an
    addition to the book's rules), and what remains is compiled into one Python function.

    Results are cached: the same model (or an equal one: same structure, joints and
    parameters) gives the same object; a changed model is generated anew.

    Parameters
    ----------
    model : Model
        A kinematic tree without loop joints.
    algorithm : {"aba", "rnea", "crba"}
    f_ext : bool
        Generate the variant that takes external forces (``f(q, qd, tau, f_ext)``).  Not
        needed to call with ``f_ext``: the function generates it on first use.
    strict : bool
        Refuse joints whose ``jcalc`` cannot be traced instead of evaluating it numerically
        at each call.
    frames : {"dh", "model"}
        ``"dh"`` (default): the code works in Denavit–Hartenberg-like body frames
        (:func:`~spatial.symbolic.frames.dh_frames`, Featherstone §10.3.1), which give the
        tree transforms zeros, when that leaves fewer general constants than the model's own
        frames; ``"model"``: in the model's frames.  The results are the same either way.

    Returns
    -------
    GeneratedFunction
        Callable like the dense algorithm; ``.source``, ``.count`` (``.m``, ``.a``) and more.

    Raises
    ------
    TypeError
        If ``model`` is not a :class:`~spatial.Model`.
    ValueError
        If ``algorithm`` or ``frames`` is unknown, or ``f_ext`` is asked for ``crba``.
    GenerationError
        (a ``ValueError``) If the model has loop joints, a joint cannot be traced and
        ``strict`` is set, or the generated code fails its check against the dense algorithm.

    Examples
    --------
    >>> import numpy as np, spatial as sp
    >>> from spatial.symbolic import generate
    >>> model = sp.builders.double_pendulum()
    >>> aba = generate(model, "aba")
    >>> q, qd, tau = np.array([0.3, -0.2]), np.array([0.1, 0.5]), np.zeros(2)
    >>> bool(np.allclose(aba(q, qd, tau), sp.aba(model, q, qd, tau)))
    True
    """
    if not isinstance(model, Model):
        raise TypeError(f"generate needs a spatial.Model, got {type(model).__name__}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {sorted(ALGORITHMS)}, got {algorithm!r}")
    if f_ext and algorithm == "crba":
        raise ValueError("crba takes no external forces (f_ext=True is for rnea and aba)")
    if model.NL:
        raise GenerationError(
            f"generate: the model has {model.NL} loop joint(s); the generated {algorithm} would "
            "describe its spanning tree and ignore the loops (use the closed-loop dynamics of "
            "spatial.dynamics.loops)"
        )
    if frames not in ("dh", "model"):
        raise ValueError(f"frames must be 'dh' or 'model', got {frames!r}")
    key = (algorithm, bool(f_ext), bool(strict), frames, _model_key(model))
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    result = _generate(
        _copy_model(model), algorithm, bool(f_ext), model.dtype, bool(strict), frames
    )
    with _CACHE_LOCK:
        _CACHE[key] = result
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return result
