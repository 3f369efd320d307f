"""The spatial.solvers package: its layer, the names spatial.contact keeps exporting, its input
checks (in spatial._validate) and the promise that a contact step validates nothing twice."""

import ast
import dataclasses
import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import spatial
import spatial._validate as validate
import spatial.contact as ct
import spatial.solvers as sv
from spatial.solvers.impulses import _solve_impulses
from spatial.solvers.pgs import _pgs

SOLVERS_DIR = Path(sv.__file__).parent

# spatial.contact.__all__ before spatial.solvers existed, split by where the names live now
CONTACT_SOLVER_NAMES = [
    "FRICTION_MODELS",
    "FrictionResult",
    "GaussSeidelResult",
    "LCPError",
    "LCPResult",
    "MixedLCPResult",
    "PivotStep",
    "ReducedLCP",
    "box_friction",
    "complementarity_error",
    "delassus",
    "disc_qp",
    "force_projection",
    "friction_E",
    "friction_cone_of",
    "friction_cone_violation",
    "gauss_seidel_friction",
    "kkt_gauss_seidel",
    "kkt_matrix",
    "lemke",
    "mixed_lcp_to_lcp",
    "pgs",
    "pgs_sweep",
    "polyhedral_directions",
    "polyhedral_friction",
    "principal_pivoting",
    "pyramid_friction",
    "qp_kkt_lcp",
    "qp_primal",
    "qp_to_lcp",
    "solve_impulses",
    "solve_kkt",
    "solve_mixed_lcp",
    "solve_qp",
    "tangent_basis",
    "velocity_projection",
]
CONTACT_OWN_NAMES = {
    "geometry": [
        "Box",
        "Capsule",
        "ContactGeometry",
        "Plane",
        "Points",
        "Sphere",
        "box_box",
        "box_plane",
        "box_vertices",
        "capsule_plane",
        "points_plane",
        "sphere_plane",
        "sphere_sphere",
    ],
    "impact": [
        "CollisionResult",
        "ImpactResult",
        "apply_impact",
        "collision",
        "contact_wrenches",
        "impact",
        "restitution_coefficient",
    ],
    "rigid": ["ContactAcceleration", "contact_acceleration", "contact_lcp"],
    "scenarios": [
        "ContactProblem",
        "Setup",
        "bouncing_ball",
        "box_stack",
        "double_pendulum_floor",
        "example_11_1",
        "painleve_rod",
        "sliding_box",
        "tipping_box",
    ],
    "scene": ["Collider", "Contacts", "FreeBodies", "Scene"],
    "soft": [
        "SoftContactParams",
        "SoftStepInfo",
        "SurfaceState",
        "friction_force",
        "hunt_crossley_force",
        "normal_force",
        "simulate_soft",
        "soft_contact_forces",
        "soft_step",
    ],
    "stepping": ["ContactParams", "StepInfo", "Trajectory", "simulate", "step"],
}

# what the solvers may import from the package: the validation module, the batched helpers and
# the algebra (DESIGN.md's layers 1-2), and each other
ALLOWED = {
    "spatial._validate",
    "spatial._batched",
    "spatial.vectors",
    "spatial.planar",
    "spatial.rotations",
    "spatial.se3",
    "spatial.inertia",
    "spatial.checks",
}
FORBIDDEN = ("spatial.contact", "spatial.maximal", "spatial.dynamics", "spatial.model")


# ------------------------------------------------------------------------------ names


def test_every_name_contact_exported_still_imports_as_the_same_object():
    old = CONTACT_SOLVER_NAMES + [n for names in CONTACT_OWN_NAMES.values() for n in names]
    assert len(old) == len(set(old)) == 86  # the whole former spatial.contact.__all__
    assert set(old) <= set(ct.__all__)
    for name in CONTACT_SOLVER_NAMES:
        assert name in sv.__all__
        assert getattr(ct, name) is getattr(sv, name), name
    for module, names in CONTACT_OWN_NAMES.items():
        sub = importlib.import_module(f"spatial.contact.{module}")  # ct.impact is the function
        for name in names:
            assert getattr(ct, name) is getattr(sub, name), name
    assert ct.geometry.tangent_basis is sv.tangent_basis  # kept for user code


def test_solvers_is_a_submodule_of_spatial_that_does_not_load_contact():
    code = (
        "import sys, spatial; "
        "print(spatial.solvers.lemke.__module__, 'spatial.contact' in sys.modules, "
        "'solvers' in spatial.__all__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["spatial.solvers.lcp", "False", "True"]
    assert spatial.solvers is sv


def test_scipy_linalg_is_loaded_when_a_solver_first_needs_it():
    # every notebook imports spatial.viz, which imports spatial.contact and the solvers;
    # scipy.linalg (0.2 s to import) waits for the first Cholesky, LU or block diagonal
    code = (
        "import sys, numpy as np, spatial, spatial.viz, spatial.contact, spatial.solvers as sv; "
        "print('scipy.linalg' in sys.modules); "
        "sv.qp_primal(np.eye(2), np.zeros(2), np.eye(2), np.zeros(2)); "
        "print('scipy.linalg' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "True"]


def _imports(path: Path) -> set[str]:
    """Absolute names of every module a solvers source file imports (also inside functions)."""
    package = "spatial.solvers"  # "." in any file of the package, its __init__ included
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
                if not node.module:  # "from . import x": x is a submodule
                    found.update(f"{module}.{alias.name}" for alias in node.names)
                    continue
            else:
                module = node.module
            found.add(module)
    return found


def test_solvers_import_only_validation_and_algebra():
    sources = sorted(SOLVERS_DIR.glob("*.py"))
    assert {p.stem for p in sources} >= {"__init__", "lcp", "pgs", "qp", "kkt", "friction"}
    for path in sources:
        for module in _imports(path):
            if module.startswith("spatial"):
                assert not module.startswith(FORBIDDEN), f"{path.name} imports {module}"
                assert module in ALLOWED or module.startswith("spatial.solvers."), (
                    f"{path.name} imports {module}, above the solvers' layer"
                )
            else:  # numpy and scipy.linalg only: nothing heavy (no scipy.sparse, no plotting)
                top = module.split(".")[0]
                assert top in ("__future__", "collections", "dataclasses", "numpy", "scipy")
                assert top != "scipy" or module == "scipy.linalg", f"{path.name}: {module}"


def test_the_import_check_sees_relative_and_nested_imports(tmp_path):
    # the checker above would be worthless if it missed these forms
    src = tmp_path / "probe.py"
    src.write_text(
        "from .. import contact\nfrom ..maximal import System\nfrom .lcp import lemke\n"
        "def f():\n    from ..dynamics import rnea\n    import scipy.sparse\n"
    )
    found = _imports(src)
    assert {"spatial.contact", "spatial.maximal", "spatial.dynamics", "scipy.sparse"} <= found
    assert "spatial.solvers.lcp" in found


# ------------------------------------------------------------------ inputs (spatial._validate)


@pytest.mark.parametrize("bad", [-1.0, np.nan, np.inf, [1.0, 2.0], "x"])
def test_nonnegative_scalar_rejects_with_one_message(bad):
    with pytest.raises(ValueError, match=r"^margin must be a number >= 0, got "):
        validate.nonnegative_scalar(bad, "margin")


def test_nonnegative_scalar_accepts_zero_and_returns_a_float():
    assert validate.nonnegative_scalar(0, "margin") == 0.0
    assert type(validate.nonnegative_scalar(np.float32(2.5), "margin")) is float


def test_unit_vectors_positive_diagonal_and_relaxation_messages():
    np.testing.assert_allclose(validate.unit_vectors([[3.0, 0, 4.0]], "n"), [[0.6, 0, 0.8]])
    with pytest.raises(ValueError, match="n must be a nonzero 3-vector"):
        validate.unit_vectors([[1.0, 0, 0], [0, 0, 0]], "n")
    with pytest.raises(ValueError, match="n must have shape"):
        validate.unit_vectors([1.0, 0.0], "n")
    with pytest.raises(ValueError, match=r"PGS needs a positive diagonal: W\[i, i\] > 0"):
        validate.positive_diagonal(np.diag([1.0, 0.0]), "W", "PGS")
    validate.positive_diagonal(np.diag([1.0, 2.0]), "W", "PGS")
    for omega in (0.0, 2.0, np.nan):
        with pytest.raises(ValueError, match="relaxation factor omega must be in"):
            validate.relaxation_factor(omega)


# ---------------------------------------------- checks at the boundary, kernels that trust them


def test_gauss_seidel_needs_a_positive_diagonal_at_every_public_entry():
    W = np.diag([1.0, 0.0, 1.0])  # one contact whose first tangent row cannot be moved
    u = np.array([-1.0, 0.5, 0.0])
    with pytest.raises(ValueError, match="Gauss-Seidel needs a positive diagonal"):
        sv.solve_impulses(W, u, 0.5, friction="gauss-seidel")
    with pytest.raises(ValueError, match="projected Gauss-Seidel needs a positive diagonal"):
        sv.box_friction(W, u, 0.5, method="pgs")
    # a unilateral row with no effect on x: the reduced LCP matrix N M^-1 N^T has a zero entry
    N = np.array([[1.0, 0.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match=r"needs a positive diagonal: N M\^-1 N\^T"):
        sv.solve_mixed_lcp(np.eye(2), None, N, np.zeros(2), None, -np.ones(2), method="pgs")
    assert sv.solve_impulses(W, u, 0.5).converged  # Lemke needs no diagonal


def test_kernels_report_a_zero_diagonal_instead_of_dividing_by_it():
    # the kernels trust their callers; a matrix built by a caller with a zero row must not turn
    # into inf/nan impulses
    W = np.diag([1.0, 0.0, 1.0])
    u = np.array([-1.0, 0.5, 0.0])
    with np.errstate(all="raise"):
        res = _solve_impulses(W, u, 0.5, friction="gauss-seidel", tol=1e-9)
        lcp = _pgs(np.diag([0.0, 1.0]), np.array([-1.0, -1.0]), tol=1e-9)
        frictionless = _solve_impulses(W, u, 0.0, friction="gauss-seidel", tol=1e-9)
    assert not res.converged and "positive diagonal" in res.message
    assert not lcp.converged and "positive diagonal" in lcp.message
    assert np.all(np.isfinite(lcp.z)) and np.all(np.isfinite(res.normal))
    assert frictionless.converged  # the normal block alone has a positive diagonal


def test_solver_options_are_checked_once_at_the_public_entry():
    W, u = np.eye(3), np.array([-1.0, 0.5, 0.0])
    with pytest.raises(ValueError, match="tol must be a positive number"):
        sv.polyhedral_friction(W, u, 0.5, tol=-1.0)
    with pytest.raises(ValueError, match="max_iter must be a positive integer"):
        sv.pyramid_friction(W, u, 0.5, max_iter=0)
    with pytest.raises(ValueError, match="covering vector d is only supported"):
        sv.box_friction(W, u, 0.5, d=np.ones(3))
    with pytest.raises(ValueError, match="tol must be a positive number"):
        sv.solve_impulses(W, u, 0.5, tol=0.0)
    with pytest.raises(ValueError, match="k must be an integer >= 3"):
        sv.solve_impulses(W, u, 0.5, k=2)
    with pytest.raises(ValueError, match="tol must be a positive number"):
        ct.contact_acceleration(np.eye(2), -np.ones(2), np.eye(2), tol=np.nan)
    with pytest.raises(TypeError):
        sv.polyhedral_friction(W, u, 0.5, omega=1.5)  # not an option of Lemke


def test_box_friction_pgs_warm_start_is_the_size_of_the_whole_problem():
    # z0 warm-starts the box LCP in [λ_n; λ_t]; the normal-impulse estimate starts cold
    W = np.array([[2.0, 0.6, 0.3], [0.6, 1.5, 0.5], [0.1, 0.5, 1.0]])
    W = 0.5 * (W + W.T)
    u = np.array([-1.0, 0.1, -0.05])  # slow slip: friction sticks, inside the box
    cold = sv.box_friction(W, u, 0.4, method="pgs", tol=1e-12).check()
    exact = np.concatenate([cold.normal, cold.tangent.ravel()])
    assert np.all(np.abs(cold.tangent) < 0.4 * cold.normal[0])  # strictly inside
    warm = sv.box_friction(W, u, 0.4, method="pgs", tol=1e-12, z0=exact).check()
    assert cold.iterations > 3 and warm.iterations <= 1  # already converged (round-off aside)
    reference = sv.box_friction(W, u, 0.4).check()  # Lemke, an independent route
    np.testing.assert_allclose(warm.tangent, reference.tangent, atol=1e-10)
    np.testing.assert_allclose(warm.normal, reference.normal, atol=1e-10)


def test_apply_impact_checks_its_options():
    setup = ct.bouncing_ball(0.5, height=1e-9, mu=0.5)
    scene, q = setup.scene, setup.q0
    contacts = scene.detect(q)
    v = np.array([0.0, 0.0, 0.0, 0.5, 0.0, -2.0])
    with pytest.raises(ValueError, match="friction coefficient mu must be >= 0"):
        ct.apply_impact(scene, q, v, contacts, -0.5)
    with pytest.raises(ValueError, match="friction must be one of"):
        ct.apply_impact(scene, q, v, contacts, 0.5, friction="velcro")
    with pytest.raises(TypeError):
        ct.apply_impact(scene, q, v, contacts, 0.5, tangent_dim=1)  # the scene decides
    v_plus, res = ct.apply_impact(scene, q, v, contacts, 0.5, restitution=0.5)
    assert res.converged and v_plus[5] == pytest.approx(1.0)  # e times the approach speed


def test_step_checks_the_cone_against_the_scene():
    setup = ct.sliding_box(mu=0.5, speed=1.0, system="free")  # 3D: a polygon needs k >= 3
    params = dataclasses.replace(setup.params, friction="polyhedral", k=2)
    with pytest.raises(ValueError, match="k must be an integer >= 3 for spatial contact"):
        ct.step(setup.scene, setup.q0, setup.v0, setup.h, params)
    with pytest.raises(ValueError, match="k must be an integer >= 3 for spatial contact"):
        ct.simulate(setup.scene, setup.q0, setup.v0, 0.01, setup.h, params)
    planar = ct.double_pendulum_floor()  # planar: k is 2 whatever is asked
    p = dataclasses.replace(planar.params, friction="polyhedral", k=2)
    ct.step(planar.scene, planar.q0, planar.v0, planar.h, p)


# ------------------------------------------------------------- one contact step, no re-checks


@pytest.fixture
def matrix_checks(monkeypatch):
    """Count calls of the matrix and vector checks, wherever the package imported them."""
    calls = []
    for fname in ("square_matrix", "matrix", "vector"):
        original = getattr(validate, fname)

        def counting(x, name, *args, _original=original, _fname=fname, **kwargs):
            calls.append(f"{_fname}({name})")
            return _original(x, name, *args, **kwargs)

        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("spatial"):
                if getattr(module, fname, None) is original:
                    monkeypatch.setattr(module, fname, counting)
    return calls


@pytest.mark.parametrize("friction", ["polyhedral", "pyramid", "box", "gauss-seidel"])
def test_a_contact_step_with_an_impact_validates_no_matrix(matrix_checks, friction):
    setup = ct.bouncing_ball(0.5, height=1e-9, mu=0.5)  # touching, hit at 2 m/s while sliding
    v = np.array([0.0, 0.0, 0.0, 0.5, 0.0, -2.0])
    params = dataclasses.replace(setup.params, friction=friction)
    _, v1, info = ct.step(setup.scene, setup.q0, v, setup.h, params)
    assert info.impact is not None and info.impulses.converged and len(info.contacts) == 1
    assert matrix_checks == []  # W and everything built from it is trusted by the kernels
    ct.solve_impulses(np.eye(3), np.array([-1.0, 0.5, 0.0]), 0.5, friction=friction)
    assert matrix_checks.count("square_matrix(W)") == 1  # the counter works: a public call


def test_a_resting_stack_step_validates_no_matrix(matrix_checks, monkeypatch):
    setup = ct.box_stack(2, system="free")
    q0 = setup.q0.copy()
    q0[:, 2, 3] -= [1e-4, 2e-4]  # sunk a little: post-stabilization has work to do
    params = dataclasses.replace(setup.params, friction="gauss-seidel", mu=0.5)
    stabilizations = []
    pgs = ct.stepping._pgs

    def spy(W, q, **options):
        stabilizations.append(len(q))
        return pgs(W, q, **options)

    monkeypatch.setattr(ct.stepping, "_pgs", spy)
    _, _, info = ct.step(setup.scene, q0, setup.v0, setup.h, params)
    assert len(info.contacts) >= 8 and info.impulses.converged
    assert stabilizations  # the post-stabilization LCP ran too
    assert matrix_checks == []  # once 2,714 checks, through disc_qp, for 12 contacts


# ------------------------------------------- the real-number and integer rules of _validate


@pytest.mark.parametrize(
    "convert",
    [
        lambda x: validate.as_array(x, "q", (2,)),
        lambda x: validate.as_float_array(x, "q", (2,)),
        lambda x: validate.as_scalar_array(x, "q"),
        lambda x: validate.vector(x, "q", 2),
        lambda x: validate.matrix(np.stack([x, x]), "q", 2),
        lambda x: validate.square_matrix(np.stack([x, x]), "q"),
        lambda x: validate.friction_coefficients(x, 2, "q"),
        lambda x: validate.real_array(x, "q"),
    ],
)
def test_every_converter_refuses_complex_arrays_by_name(convert):
    # NumPy would drop the tiny imaginary part with nothing more than a ComplexWarning
    with pytest.raises(ValueError, match="^q must be real, got a complex array"):
        convert(np.array([0.1 + 1e-20j, 0.2]))


def test_scalar_checks_refuse_complex_numbers_and_strings():
    for check in (validate.positive_scalar, validate.nonnegative_scalar, validate.finite_scalar):
        with pytest.raises(ValueError, match="^h must be real, got a complex number"):
            check(np.complex128(0.1), "h")
    with pytest.raises(ValueError, match="h must be a number .*got a string '0.1'"):
        validate.positive_scalar("0.1", "h")  # NumPy would parse it
    with pytest.raises(ValueError, match="t must be a single finite number, got '1'"):
        validate.finite_scalar("1", "t")
    assert validate.finite_scalar(np.float32(-2.5), "t") == -2.5


def test_object_arrays_of_symbols_are_not_complex():
    symbols = spatial.symbolic.symbol_array("q", (2,))
    assert validate.real(symbols, "q") is not None  # what the symbolic tracing runs on


@pytest.mark.parametrize(
    "bad, message",
    [
        (3.7, "n must be a positive integer, got 3.7"),  # int(3.7) would be 3
        (3.0, "n must be a positive integer, got 3.0"),
        (True, "n must be a positive integer, got the bool True"),
        (np.bool_(True), "n must be a positive integer, got the bool"),
        ("3", "n must be a positive integer, got '3'"),
        (0, "n must be a positive integer, got 0"),
        (None, "n must be a positive integer, got None"),
    ],
)
def test_integer_takes_sizes_exactly(bad, message):
    with pytest.raises(ValueError, match=message):
        validate.integer(bad, "n", minimum=1)


def test_integer_accepts_numpy_integers_and_states_its_range():
    assert validate.integer(np.int64(3), "n", minimum=1) == 3
    assert type(validate.integer(np.array(4), "n")) is int
    with pytest.raises(ValueError, match=r"i must be an integer in \[0, 5\], got 7"):
        validate.integer(7, "i", 0, 5)
    with pytest.raises(ValueError, match="i must be a non-negative integer, got -1"):
        validate.integer(-1, "i", minimum=0)
    assert validate.integers(np.array([1, 2]), "sizes", minimum=1) == (1, 2)
    with pytest.raises(ValueError, match=r"sizes\[1\] must be a positive integer, got 2.5"):
        validate.integers([3, 2.5], "sizes", minimum=1)
    with pytest.raises(ValueError, match="sizes must be a sequence of integers, got 3"):
        validate.integers(3, "sizes")
    with pytest.raises(ValueError, match="max_iter must be a positive integer, got 2.5"):
        validate.iteration_limit(2.5, 3)
