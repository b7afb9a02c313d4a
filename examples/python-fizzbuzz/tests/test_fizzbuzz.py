from fizzbuzz import fizzbuzz


def test_1() -> None:
    assert fizzbuzz(1) == "1"


def test_2() -> None:
    assert fizzbuzz(2) == "2"


def test_3() -> None:
    assert fizzbuzz(3) == "Fizz"


def test_4() -> None:
    assert fizzbuzz(4) == "4"


def test_5() -> None:
    assert fizzbuzz(5) == "Buzz"


def test_6() -> None:
    assert fizzbuzz(6) == "Fizz"
