from bowling import score


def test_gutter_game() -> None:
    assert score([0] * 20) == 0


def test_all_ones() -> None:
    assert score([1] * 20) == 20


def test_one_spare() -> None:
    assert score([5, 5, 3] + [0] * 17) == 16


def test_one_strike() -> None:
    assert score([10, 3, 4] + [0] * 16) == 24


def test_perfect_game() -> None:
    assert score([10] * 12) == 300


def test_all_spares() -> None:
    assert score([5] * 21) == 150


def test_spare_in_the_tenth_frame() -> None:
    assert score([0] * 18 + [7, 3, 5]) == 15
