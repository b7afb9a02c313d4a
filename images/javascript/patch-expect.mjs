// Run once at image build. Jest's `equals` lets any value with an `asymmetricMatch` method
// decide a comparison made with it, from either side, so code under test could return one
// that equals every expected value. Only a matcher that `expect` itself made (an instance
// of its AsymmetricMatcher, which code under test cannot import) counts as one here. The
// build fails if the text to change is not found, so a new version is never left unguarded.
import { readFileSync, writeFileSync } from "node:fs";

const file = "/opt/js/node_modules/@jest/expect-utils/build/jasmineUtils.js";
const before = `function isAsymmetric(obj) {
  return !!obj && isA('Function', obj.asymmetricMatch);
}`;
const after = `let genuineMatcher;
function isAsymmetric(obj) {
  // Patched by tdd-sandbox's image (patch-expect.mjs): only expect's own matchers.
  genuineMatcher ??= require('/opt/js/node_modules/expect/build/asymmetricMatchers.js')
    .AsymmetricMatcher;
  return !!obj && obj instanceof genuineMatcher && isA('Function', obj.asymmetricMatch);
}`;
const source = readFileSync(file, "utf8");
if (source.split(before).length !== 2) {
  throw new Error(`${file}: isAsymmetric is not as expected; review the patch`);
}
writeFileSync(file, source.replace(before, after));
