"""What every pack's derivation shares: which of the stub's functions performs a property."""

from __future__ import annotations

from tdd_sandbox.languages.deriving import Chosen, choose_functions
from tdd_sandbox.vocabulary.cases import Case


def _cases(prop: str, **given: object) -> list[Case]:
    return [Case("c1", "c1", prop, given, "")]


def _same(prop: str) -> list[str]:
    return [prop]


def test_the_one_function_of_the_propertys_arity_performs_it() -> None:
    # Java's twelve-days and Go's beer-song sing one verse, several, or the song: recite
    # (start, end) is the one that takes two, though no name says so.
    functions = {"verse": ["n"], "verses": ["start", "end"], "sing": []}
    chosen = choose_functions(_cases("recite", startVerse=1, endVerse=3), functions, _same)
    assert chosen == {"recite": Chosen("verses", ("startVerse", "endVerse"))}


def test_two_functions_of_that_arity_choose_none() -> None:
    functions = {"verses": ["start", "end"], "between": ["a", "b"]}
    chosen = choose_functions(_cases("recite", startVerse=1, endVerse=3), functions, _same)
    assert chosen == "no function of the stub performs the property recite (recite)"
