import { countVowels } from './count_vowels.js';

test('counts each vowel', () => {
  expect(countVowels('banana')).toBe(3);
});
