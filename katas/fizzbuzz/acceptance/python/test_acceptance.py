from fizzbuzz import fizzbuzz


def test_plain_numbers() -> None:
    assert [fizzbuzz(n) for n in (1, 2, 4, 98)] == ["1", "2", "4", "98"]


def test_multiples_of_three() -> None:
    assert [fizzbuzz(n) for n in (3, 6, 99)] == ["Fizz"] * 3


def test_multiples_of_five() -> None:
    assert [fizzbuzz(n) for n in (5, 10, 100)] == ["Buzz"] * 3


def test_multiples_of_fifteen() -> None:
    assert [fizzbuzz(n) for n in (15, 30, 45)] == ["FizzBuzz"] * 3
