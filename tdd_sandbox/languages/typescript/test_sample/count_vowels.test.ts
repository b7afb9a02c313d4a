import { test } from "node:test";
import assert from "node:assert/strict";
import { countVowels } from "./count_vowels.ts";

test("counts each vowel", () => {
  assert.equal(countVowels("banana"), 3);
});
