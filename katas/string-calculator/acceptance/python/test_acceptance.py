import pytest

from calculator import add


def test_empty_is_zero() -> None:
    assert add("") == 0


def test_one_and_two_numbers() -> None:
    assert add("1") == 1
    assert add("1,2") == 3


def test_many_numbers() -> None:
    assert add("1,2,3,4,5") == 15


def test_newlines_separate() -> None:
    assert add("1\n2,3") == 6


def test_custom_delimiter() -> None:
    assert add("//;\n1;2") == 3


def test_big_numbers_are_ignored() -> None:
    assert add("2,1001") == 2
    assert add("1000,1") == 1001


def test_negatives_are_refused_and_listed() -> None:
    with pytest.raises(ValueError, match="negatives not allowed: -1, -3"):
        add("-1,2,-3")
