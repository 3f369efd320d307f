"""The package installs like any other: a wheel named ``spatial-rbd`` that imports as ``spatial``.

The wheel is built from a copy of the sources (so the work tree stays clean), unpacked with
``pip install --no-deps --target`` into a temporary folder, and imported from there by a fresh
interpreter whose working directory is elsewhere, so the copy in this repository cannot be the
one that answers.  The dependencies (NumPy, SciPy, Matplotlib) come from the running
environment; a fully clean virtual environment is checked by hand (see the README).
"""

import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DIST_NAME = "spatial-rbd"


def _pip(*args, cwd):
    run = subprocess.run(
        [sys.executable, "-m", "pip", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    if run.returncode != 0:  # pragma: no cover - shows pip's own words
        pytest.fail(f"pip {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "spatial", src / "spatial", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    _pip("wheel", ".", "--no-deps", "--quiet", "-w", str(out), cwd=src)
    (path,) = out.glob("*.whl")
    return path


def test_the_wheel_is_spatial_rbd_with_every_module_of_the_package(wheel):
    assert wheel.name.startswith("spatial_rbd-")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = z.read(metadata).decode()
    assert f"Name: {DIST_NAME}\n" in meta
    assert "Provides-Extra: robots" in meta
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "spatial").rglob("*.py")}
    assert modules and modules <= names, sorted(modules - names)
    assert not any(n.startswith(("tests/", "notebooks/")) for n in names)


def test_the_installed_wheel_imports_from_where_it_was_installed(wheel, tmp_path):
    site = tmp_path / "site"
    _pip("install", "--no-deps", "--quiet", "--target", str(site), str(wheel), cwd=tmp_path)
    code = (
        "import importlib.metadata, numpy as np, spatial as sp\n"
        "from spatial.urdf import load_urdf, to_urdf\n"
        "model = sp.builders.double_pendulum()\n"
        "assert load_urdf(to_urdf(model)).NB == 2\n"
        "print(sp.__file__, importlib.metadata.version('spatial-rbd'))\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r})\n" + code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    where, version = run.stdout.split()
    assert pathlib.Path(where).is_relative_to(site)
    assert version == wheel.name.split("-")[1]
