export function countVowels(word: string): number {
  return [...word].filter((letter) => "aeiou".includes(letter)).length;
}
