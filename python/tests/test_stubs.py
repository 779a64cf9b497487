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
