from twice import twice


def test_twice_doubles_a_number() -> None:
    assert twice(2) == 4
