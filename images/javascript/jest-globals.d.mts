// The types of jest-globals.mjs, for `tsc` over a TypeScript track's tests: node's runner
// for `describe` and `test`, Jest's own `expect`.
export { describe, test, it, beforeEach, afterEach } from "node:test";
export { before as beforeAll, after as afterAll } from "node:test";
export { expect } from "expect";
