"""The algebra and model-building packages after their split from single modules.

``spatial.vectors``, ``spatial.rotations``, ``spatial.joints`` and ``spatial.builders`` were
single modules; each is now a package of modules with one idea each.  These tests pin down that
every name the old modules offered still imports from the old path (their ``__all__``, the
names they happened to import from elsewhere, and the private names other modules use), that
the packages stay small, and that loading them does not pull in ``scipy.sparse``.
"""

import importlib
import pathlib
import subprocess
import sys
import textwrap

import pytest

import spatial

# ``__all__`` of each module before the split (copied from the single modules)
OLD_ALL = {
    "vectors": {
        "skew", "unskew", "rx", "ry", "rz", "rot", "xlt", "rotx", "roty", "rotz", "plux",
        "unplux", "pluho", "xinv", "xstar", "inv_motion", "apply_force", "inv_force",
        "transform_inertia", "inv_transform_inertia", "crm", "crf", "cross_motion",
        "cross_force", "XtoV", "transform_point", "point_velocity", "point_acceleration",
        "point_force", "swap_linear_angular",
    },
    "rotations": {
        "quat_multiply", "quat_conjugate", "quat_normalize", "require_unit_quaternion",
        "quat_to_matrix", "quat_from_matrix", "quat_from_axis_angle", "quat_from_rotvec",
        "quat_to_rotvec", "quat_rotate", "quat_rate", "quat_rate_to_omega", "euler_to_matrix",
        "euler_S", "euler_S_dot", "rpy_to_matrix", "matrix_to_rpy", "rpy_rate_matrix",
        "rpy_rates_to_omega", "omega_to_rpy_rates_matrix", "omega_to_rpy_rates",
        "omega_to_rpy_rates_matrix_dot", "rotvec_rate_matrix", "rotvec_dR",
        "rotvec_reparameterize",
    },
    "joints": {
        "Joint", "Revolute", "Prismatic", "Fixed", "Helical", "Cylindrical", "Planar",
        "SphericalYPR", "Spherical", "Free", "RackPinion", "Reversed", "axis_vector",
    },
    "builders": {
        "JOINT_CODES", "random_transform", "random_inertia", "random_tree", "gu_chain",
        "branched_tree", "dh_transforms", "from_dh", "simple_pendulum", "double_pendulum",
        "planar_chain", "cart_pole", "arm7", "humanoid", "four_bar", "crank_slider",
        "planar_loop_fig_8_3", "ladder", "floating_base", "renumber", "geared_arm",
    },
}  # fmt: skip

# public names the single modules imported from elsewhere (``from spatial.joints import xinv``
# worked), and private names that other modules of the package import from them
OTHER_NAMES = {
    "vectors": {"as_array", "as_scalar_array", "require_rotation", "_as_plucker", "_crm"},
    "rotations": {"as_array", "exp_so3", "require_rotation", "rx", "ry", "rz", "skew"},
    "joints": {
        "as_array", "inv_motion", "quat_conjugate", "quat_from_rotvec", "quat_multiply",
        "quat_normalize", "quat_rate", "quat_to_matrix", "quat_to_rotvec",
        "require_unit_quaternion", "rx", "ry", "rz", "skew", "xinv",
    },
    "builders": {
        "Model", "as_scalar_array", "cuboid_inertia", "cylinder_inertia", "frame",
        "inv_transform_inertia", "mcI", "plux", "point_mass_inertia", "positive_scalars",
        "quat_normalize", "quat_to_matrix", "rotx", "rotz", "rx", "sphere_inertia", "xlt",
    },
}  # fmt: skip


# public names added to a package after the split (Sueda's joint zoo, §2.4; Jansen's leg)
ADDED_ALL = {
    "vectors": {"transform_dyadic"},  # Featherstone Table 2.5
    "joints": {
        "Universal", "SphericalEuler", "PlanarTranslation", "Translational", "SphericalExp",
        "Composite", "free_2d", "free_3d", "SplineCurve", "SplineSurface",
    },
    "builders": {
        "ElbowArm", "elbow_arm26",  # notebook 13b's arm (OpenSim arm26)
        "quadruped",  # notebook 11's Solo-12 stand-in
        "JANSEN_LENGTHS", "jansen_points", "jansen_leg",  # project P3
    },
}  # fmt: skip


@pytest.mark.parametrize("package", sorted(OLD_ALL))
def test_the_public_names_are_those_of_the_old_module(package):
    module = importlib.import_module(f"spatial.{package}")
    assert set(module.__all__) == OLD_ALL[package] | ADDED_ALL.get(package, set())


@pytest.mark.parametrize("package", sorted(OLD_ALL))
def test_every_old_name_imports_from_the_old_path(package):
    module = importlib.import_module(f"spatial.{package}")
    missing = sorted(n for n in OLD_ALL[package] | OTHER_NAMES[package] if not hasattr(module, n))
    assert missing == []
    for name in OLD_ALL[package]:
        obj = getattr(module, name)
        if hasattr(spatial, name):  # the top-level re-export is the same object
            assert getattr(spatial, name) is obj, name
        home = getattr(obj, "__module__", None)
        if home is not None:  # defined in one of the package's own modules
            assert home.startswith(f"spatial.{package}."), (name, home)


@pytest.mark.parametrize("package", sorted(OLD_ALL))
def test_modules_stay_short(package):
    directory = pathlib.Path(spatial.__file__).parent / package
    lengths = {p.name: len(p.read_text().splitlines()) for p in directory.glob("*.py")}
    assert len(lengths) >= 4
    assert {name: n for name, n in lengths.items() if n >= 500} == {}


def test_algebra_and_builders_load_without_scipy_sparse():
    # import the packages without running spatial/__init__.py (which loads every subpackage,
    # the sparse loop solvers among them): only their own dependencies are loaded
    root = pathlib.Path(spatial.__file__).parent
    code = textwrap.dedent(
        f"""
        import sys, types
        package = types.ModuleType("spatial")
        package.__path__ = [{str(root)!r}]
        sys.modules["spatial"] = package
        import spatial.vectors, spatial.rotations, spatial.joints, spatial.model
        import spatial.builders
        print(sorted(m for m in sys.modules if m.startswith("scipy.sparse")))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
