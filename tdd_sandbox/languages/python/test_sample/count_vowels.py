def count_vowels(word: str) -> int:
    return sum(letter in "aeiou" for letter in word)
