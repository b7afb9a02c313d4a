"""Which gates a check runs together, and which beside each other."""

from __future__ import annotations

from tdd_sandbox.execution.steps import READERS, split_lanes
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tdd_sandbox.settings import GateOverride
from tdd_sandbox.vocabulary.results import GateKind

FORMAT, LINT, BUILD, TEST = GateKind.FORMAT, GateKind.LINT, GateKind.BUILD, GateKind.TEST
RUST, PYTHON = get_language("rust"), get_language("python")
JAVASCRIPT = get_language("javascript")
TYPECHECK = GateKind.TYPECHECK


def test_a_language_whose_readers_are_cheap_runs_every_gate_in_one_sandbox() -> None:
    every = frozenset(g.kind for g in JAVASCRIPT.gates())
    assert split_lanes(JAVASCRIPT, None, None) == (every,)
    assert split_lanes(PYTHON, None, frozenset({TEST})) == (frozenset({TEST}),)


def test_a_costly_reader_runs_with_the_other_readers_beside_the_build_and_tests() -> None:
    assert split_lanes(RUST, None, None) == (frozenset({FORMAT, LINT}), frozenset({BUILD, TEST}))
    # mypy (a quarter second) beside pytest; the compile, a syntax check that makes nothing
    # pytest runs, among the readers.
    readers = frozenset({FORMAT, LINT, TYPECHECK, BUILD})
    assert split_lanes(PYTHON, None, None) == (readers, frozenset({TEST}))


def test_without_a_costly_reader_a_check_stays_in_one_sandbox() -> None:
    # RED's check: a format gate alone is not worth a container of its own.
    assert split_lanes(RUST, None, frozenset({FORMAT, TEST})) == (frozenset({FORMAT, TEST}),)
    assert split_lanes(RUST, None, frozenset({TEST})) == (frozenset({TEST}),)
    assert split_lanes(RUST, None, frozenset({LINT})) == (frozenset({LINT}),)


def test_in_a_warm_container_any_reader_runs_beside_the_gates_that_run_code() -> None:
    # A lane there is fresh namespaces, not a container: RED's format check beside its tests.
    warm = {"lanes_cost_containers": False}
    assert split_lanes(RUST, None, frozenset({FORMAT, TEST}), **warm) == (
        frozenset({FORMAT}),
        frozenset({TEST}),
    )
    assert split_lanes(PYTHON, None, frozenset({FORMAT, TEST}), **warm) == (
        frozenset({FORMAT}),
        frozenset({TEST}),
    )
    every = frozenset(g.kind for g in JAVASCRIPT.gates())
    readers = every & READERS
    assert split_lanes(JAVASCRIPT, None, None, **warm) == (readers, every - readers)
    # Nothing to run beside: one lane.
    readers_only = frozenset({FORMAT, LINT})
    assert split_lanes(RUST, None, readers_only, **warm) == (readers_only,)
    assert split_lanes(RUST, None, frozenset({TEST}), **warm) == (frozenset({TEST}),)


def test_a_build_that_makes_what_the_tests_run_stays_with_them() -> None:
    for pack in LANGUAGES.values():
        if not pack.build_reads_only and BUILD in {g.kind for g in pack.gates()}:
            lanes = split_lanes(pack, None, None, lanes_cost_containers=False)
            assert BUILD in lanes[-1], pack.name


def test_a_lane_holds_only_gates_the_language_has() -> None:
    asked = frozenset({LINT, GateKind.TYPECHECK})  # Rust has no type-check gate
    assert split_lanes(RUST, GateOverride(lint=["true"]), asked) == (frozenset({LINT}),)
    assert split_lanes(PYTHON, None, frozenset()) == ()


def test_every_pack_s_readers_apart_are_readers_it_has() -> None:
    for pack in LANGUAGES.values():
        has = {gate.kind for gate in pack.gates()}
        assert pack.readers_apart <= READERS & has, pack.name
