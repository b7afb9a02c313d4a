public class Vowels {
    public static int countVowels(String word) {
        return (int) word.chars().filter(letter -> "aeiou".indexOf(letter) >= 0).count();
    }
}
