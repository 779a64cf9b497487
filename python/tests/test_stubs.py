"""The type stubs match the extension: mypy's stubtest compares every name, signature and
default of `npuzzle._npuzzle` with `_npuzzle.pyi` (skipped where mypy is not installed;
.ci/run installs it)."""

import os
import subprocess
import sys

import pytest


def test_the_stubs_match_the_extension(tmp_path):
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "npuzzle"],
        cwd=tmp_path,  # not the checkout, whose python/npuzzle has no compiled extension
        capture_output=True,
        text=True,
        env={**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_passes_mypy_strict(tmp_path):
    """The stubs and the Python side, and a program using the API, type-check under
    `mypy --strict` (no implicit Any, every signature complete)."""
    pytest.importorskip("mypy")
    program = tmp_path / "use_npuzzle.py"
    program.write_text(
        "import pickle\n"
        "import npuzzle\n"
        "solution: npuzzle.Solution = npuzzle.solve('123456708')\n"
        "moves: str = solution.moves\n"
        "again: npuzzle.Solution = pickle.loads(pickle.dumps(solution))\n"
        "same: bool = again == solution\n"
        "verdict: npuzzle.Verdict = npuzzle.verify('123456708', None, 'R')\n"
        "exact: int | None = verdict.exact\n"
        "where = npuzzle.data_dir()\n"
        "instances: list[npuzzle.Instance] = npuzzle.sample(count=2, seed=1)\n"
    )
    for target in (["-p", "npuzzle"], [str(program)]):
        result = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.10", *target],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "cache")},
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_the_tests_run_against_the_installed_package():
    """Where CI says so (NPUZZLE_EXPECT_INSTALLED), `npuzzle` is the installed wheel in
    site-packages, not the source tree's `python/npuzzle`."""
    if not os.environ.get("NPUZZLE_EXPECT_INSTALLED"):
        pytest.skip("NPUZZLE_EXPECT_INSTALLED is not set (.ci/run sets it for the wheel)")
    import npuzzle

    assert "site-packages" in npuzzle.__file__, npuzzle.__file__
