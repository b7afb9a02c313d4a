import { twice } from './twice.js';

test('doubles a number', () => {
  expect(twice(2)).toBe(4);
});
