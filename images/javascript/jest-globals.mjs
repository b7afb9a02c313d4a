// Jest's API for an Exercism track's specs, run by `node --test` under the tool's guard:
// Jest's own `expect` (the npm package, so matchers judge as Jest's do) and node's runner
// for `describe` and `test`. An import turns a spec's globals into an import of this file.
import * as runner from "node:test";
import expectPackage from "expect";

export const { describe, test, it, beforeEach, afterEach } = runner;
export const beforeAll = runner.before;
export const afterAll = runner.after;
export const { expect } = expectPackage;
