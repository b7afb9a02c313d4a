from roman import to_roman


def test_additive() -> None:
    assert [to_roman(n) for n in (1, 3, 8)] == ["I", "III", "VIII"]


def test_subtractive() -> None:
    numbers = (4, 9, 40, 90, 400, 900)
    assert [to_roman(n) for n in numbers] == ["IV", "IX", "XL", "XC", "CD", "CM"]


def test_larger_numbers() -> None:
    assert [to_roman(n) for n in (14, 1994, 3999)] == ["XIV", "MCMXCIV", "MMMCMXCIX"]
