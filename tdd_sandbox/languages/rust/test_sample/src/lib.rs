pub fn count_vowels(word: &str) -> usize {
    word.chars().filter(|letter| "aeiou".contains(*letter)).count()
}
