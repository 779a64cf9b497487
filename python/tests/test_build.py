"""`npuzzle.build`: tables and pattern databases written into a data directory, with progress
reported on the calling thread, and the callback's exceptions raised from `build`."""

import os
import pathlib
import subprocess
import threading

import pytest

import npuzzle


def _private_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    directory = tmp_path / "data"
    directory.mkdir(mode=0o700)
    return directory


def test_a_small_board_table_is_built_saved_and_answers(tmp_path):
    directory = _private_dir(tmp_path)
    reports = []
    caller = threading.get_ident()

    def progress(done, total, label):
        # Called on the thread that called build, with the GIL (Python code runs here).
        reports.append((done, total, label, threading.get_ident()))

    paths = npuzzle.build(board="2x3", data_dir=directory, progress=progress)
    assert paths == [directory / "2x3-123450.npt"]
    assert paths[0].stat().st_size > 360  # 6!/2 entries behind a header
    assert [(d, t) for d, t, _, _ in reports] == [(360, 360)]
    assert all(thread == caller for *_, thread in reports)
    assert "2x3" in reports[0][2]
    # The file is a table the package opens from that directory and answers from.
    table = npuzzle.Table(board="2x3", data_dir=directory)
    assert table.histogram() == npuzzle.Table(board="2x3", data_dir=None).histogram()
    assert table.distance("123405") == 1


def test_an_mtm_table_is_built_saved_under_its_own_name_and_answers_in_mtm(tmp_path):
    directory = _private_dir(tmp_path)
    reports = []
    paths = npuzzle.build(board="2x3", metric="mtm", data_dir=directory,
                          progress=lambda d, t, label: reports.append((d, t, label)))
    assert paths == [directory / "mtm-2x3-123450.npt"]
    assert not (directory / "2x3-123450.npt").exists(), "no STM table was built"
    assert [(d, t) for d, t, _ in reports] == [(360, 360)]
    assert "MTM" in reports[0][2]
    before = paths[0].stat()
    table = npuzzle.Table(board="2x3", metric="mtm", data_dir=directory)
    after = paths[0].stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns), "opened, not rebuilt"
    assert table.metric == "mtm"
    in_memory = npuzzle.Table(board="2x3", metric="mtm", data_dir=None)
    stm = npuzzle.Table(board="2x3", data_dir=None)
    assert table.histogram() == in_memory.histogram()
    assert table.histogram() != stm.histogram()
    # The blank two cells above its goal cell: one slide in MTM, two steps in STM.
    assert table.distance("103254") == 1
    assert stm.distance("103254") == 2
    # Databases are STM only, and an unknown metric is named.
    with pytest.raises(ValueError, match="mtm"):
        npuzzle.build("6-6-3", metric="mtm", data_dir=directory)
    with pytest.raises(ValueError, match="hex"):
        npuzzle.build(board="2x3", metric="hex", data_dir=directory)
    assert sorted(p.name for p in directory.glob("*.npt")) == ["mtm-2x3-123450.npt"]


def test_every_blank_cell_gets_its_table_and_progress_counts_up(tmp_path):
    directory = _private_dir(tmp_path)
    reports = []
    paths = npuzzle.build(
        board="2x2", all_blanks=True, data_dir=directory,
        progress=lambda d, t, label: reports.append((d, t)),
    )
    assert len(paths) == 4 and all(p.exists() for p in paths)
    assert [d for d, _ in reports] == [12, 24, 36, 48]
    assert {t for _, t in reports} == {48}


def test_the_6_6_3_databases_are_built_and_used_by_the_search(tmp_path):
    directory = _private_dir(tmp_path)
    reports = []
    paths = npuzzle.build("6-6-3", data_dir=directory, threads=2,
                          progress=lambda d, t, label: reports.append((d, t, label)))
    assert len(paths) == 3 and all(p.exists() for p in paths)
    assert all("-pdb-" in p.name for p in paths)
    total = 16 * 15 * 14 * 13 * 12 * 11 * 2 + 16 * 15 * 14
    assert {t for _, t, _ in reports} == {total}
    dones = [d for d, _, _ in reports]
    assert dones == sorted(dones) and dones[-1] == total
    assert any("layer" in label for _, _, label in reports)
    # The CLI, pointed at the same directory, finds them valid (deep check included).
    binary = os.environ.get("NPUZZLE_BIN")
    if binary:
        for path in paths:
            result = subprocess.run([binary, "check", "--deep", str(path)], capture_output=True)
            assert result.returncode == 0, result.stderr


def test_an_exception_in_the_callback_stops_the_build_and_is_raised(tmp_path):
    directory = _private_dir(tmp_path)
    calls = []

    class Stop(Exception):
        pass

    def progress(done, total, label):
        calls.append(done)
        raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        npuzzle.build("6-6-3", data_dir=directory, progress=progress)
    assert len(calls) == 1  # never called again once it raised
    # Nothing half-built was saved: at most the databases finished before the first report.
    assert not any(p.name.endswith(".npt") for p in directory.iterdir())


def test_bad_requests_raise_value_errors(tmp_path):
    directory = _private_dir(tmp_path)
    with pytest.raises(ValueError, match="partition"):
        npuzzle.build("9-9", data_dir=directory)
    with pytest.raises(ValueError, match="no exact table"):
        npuzzle.build(board="4x4", data_dir=directory)
    with pytest.raises(ValueError, match="corner"):
        npuzzle.build("6-6-3", goal="1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", data_dir=directory)
    with pytest.raises(TypeError, match="callable"):
        npuzzle.build(board="2x2", data_dir=directory, progress=3)  # type: ignore[arg-type]
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(ValueError):
        npuzzle.build(board="2x2", data_dir=shared)
    assert list(shared.iterdir()) == []
