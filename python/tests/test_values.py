"""Results are values: they compare and hash by their fields, pickle (so they cross process
boundaries, e.g. to Dask workers), copy, and their repr reads back with eval."""

import copy
import pickle

import pytest

import npuzzle

HARDEST = "867254301"


def results():
    """One of each result type, from real questions."""
    return [
        npuzzle.solve(HARDEST),
        npuzzle.solve("123456708"),
        npuzzle.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"),
        npuzzle.verify(HARDEST, None, "RRD"),
        npuzzle.verify("123456708", None, "R"),
        npuzzle.verify("123456708", None, "RX"),
        npuzzle.verify("123456708", None, "UUUUU"),
        npuzzle.verify("123456870", None, None),
        *npuzzle.sample(count=3, seed=7),
        *npuzzle.sample(count=2, seed=7, unsolvable=2),
        npuzzle.Table(),
        npuzzle.Table(board="2x3"),
    ]


@pytest.mark.parametrize("result", results(), ids=repr)
def test_a_result_pickles_copies_and_reads_back_equal(result):
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(result, protocol=protocol))
        assert type(again) is type(result)
        assert again == result and hash(again) == hash(result)
    assert copy.copy(result) == result
    assert copy.deepcopy(result) == result
    namespace = {name: getattr(npuzzle, name) for name in npuzzle.__all__}
    assert eval(repr(result), namespace) == result


def test_results_compare_by_value_not_identity():
    assert npuzzle.solve(HARDEST) is not npuzzle.solve(HARDEST)
    assert npuzzle.solve("123456708") == npuzzle.solve("123456708")
    assert npuzzle.solve("123456708") != npuzzle.solve("123456078")
    assert len({npuzzle.verify("123456708", None, "R") for _ in range(3)}) == 1
    assert npuzzle.verify("123456708", None, "R") != npuzzle.verify("123456708", None, "L")
    assert npuzzle.sample(count=4, seed=3) == npuzzle.sample(count=4, seed=3)
    assert npuzzle.sample(count=4, seed=3) != npuzzle.sample(count=4, seed=4)
    assert npuzzle.Table() == npuzzle.Table() and npuzzle.Table() != npuzzle.Table(board="2x3")
    # Not equal to something of another type, and no error comparing with it.
    assert npuzzle.solve("123456708") != "R"
    assert npuzzle.Instance("123456708", "123456780", True, 1) != npuzzle.solve("123456708")


def test_a_pickled_table_answers_where_it_is_unpickled():
    table = pickle.loads(pickle.dumps(npuzzle.Table(board="2x3")))
    assert table.distance("123450") == 0
    assert table.states == 360


def test_the_fields_survive_a_round_trip():
    verdict = npuzzle.verify(HARDEST, None, "L" * 33)
    again = pickle.loads(pickle.dumps(verdict))
    for field in ["name", "passed", "detail", "exact", "solvable", "by", "step", "algorithm"]:
        assert getattr(again, field) == getattr(verdict, field)
    assert str(again) == str(verdict)
    solution = npuzzle.solve(HARDEST)
    again = pickle.loads(pickle.dumps(solution))
    for field in ["moves", "states", "algorithm", "expanded", "generated", "elapsed", "distance"]:
        assert getattr(again, field) == getattr(solution, field)


def test_a_constructed_solution_must_agree_with_itself():
    with pytest.raises(ValueError, match="passes 3 states, not 2"):
        npuzzle.Solution("RR", ["123456780", "123456708"], "table")
