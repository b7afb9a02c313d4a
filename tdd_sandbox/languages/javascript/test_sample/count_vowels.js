export function countVowels(word) {
  return [...word].filter((letter) => 'aeiou'.includes(letter)).length;
}
