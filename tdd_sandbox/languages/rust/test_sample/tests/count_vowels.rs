use kata::count_vowels;

#[test]
fn counts_each_vowel() {
    assert_eq!(count_vowels("banana"), 3);
}
