// The test gate's reporter: one JSON line per test that ended, naming its file (relative to the
// working directory), the suites it sits in and its status, then a last line when the run
// ended. It runs in the runner's own process, never in a test file's: `node --test` runs each
// file in a child process and rebuilds these events from what the child reports.
import { relative } from "node:path";

const text = (error) => String(error?.cause?.message ?? error?.message ?? error ?? "").slice(0, 2000);

export default async function* report(source) {
  const open = new Map();
  const stderr = new Map();
  for await (const { type, data } of source) {
    const file = data?.file ? relative(process.cwd(), data.file) : "";
    if (type === "test:stderr") {
      stderr.set(file, ((stderr.get(file) ?? "") + String(data.message)).slice(-4000));
    } else if (type === "test:fail" && data.nesting === 0 && data.name === data.file) {
      // The file's process failed outside any test: it did not load, or it died.
      const said = (stderr.get(file) ?? "").split("\n").filter((line) => /\w*Error\b/.test(line));
      yield JSON.stringify({ file, diagnostic: said[0] ?? text(data.details?.error) }) + "\n";
    } else if (type === "test:start") {
      const stack = open.get(file) ?? [];
      stack.length = data.nesting;
      stack.push(data.name);
      open.set(file, stack);
    } else if ((type === "test:pass" || type === "test:fail") && data.details?.type !== "suite") {
      const path = [...(open.get(file) ?? []).slice(0, data.nesting), data.name];
      const status =
        type === "test:fail" ? "failed" : data.skip || data.todo ? "skipped" : "passed";
      const message = type === "test:fail" ? text(data.details?.error) : "";
      yield JSON.stringify({ file, path, status, message }) + "\n";
    } else if (type === "test:diagnostic" && data.nesting === 0 && /rror/.test(data.message)) {
      yield JSON.stringify({ file, diagnostic: String(data.message).slice(0, 2000) }) + "\n";
    }
  }
  yield JSON.stringify({ end: true }) + "\n";
}
