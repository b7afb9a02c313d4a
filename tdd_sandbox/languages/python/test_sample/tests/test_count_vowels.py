from count_vowels import count_vowels


def test_count_vowels_counts_each_vowel() -> None:
    assert count_vowels("banana") == 3
