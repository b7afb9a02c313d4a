"""The guard's sentinel module for `node --test`: two tests of the tool's, one that must
pass and one that must fail, which a rigged `assert` or runner cannot both survive."""

from __future__ import annotations

import json
import re

from tdd_sandbox.languages.javascript.flavour import NO_CODE_FROM_TEXT, REPORTER
from tdd_sandbox.languages.readout import NEXT_UNINDENTED, SentinelReports


def sentinel_names(nonce: str) -> tuple[str, str]:
    """The passing and the failing sentinel test's names for `nonce`."""
    return f"tdd_check_{nonce[:6]}", f"tdd_check_{nonce[6:12]}"


def sentinel_module(nonce: str) -> str:
    """The guard's module: imported first into each test file's process, before the test
    file and the code it imports are loaded. It freezes the built-in namespaces matchers
    compare through (`Object.is`, `Object.keys`, `Array.isArray`...: Jest's `expect` reads
    them at every comparison), and takes note of the runner's and `assert`'s functions, the
    built-in prototypes and the global names of the built-ins. After each test, a hook fails
    that test if any of those changed, whatever route changed them; `register(file)`,
    called at the end of the test file, adds two tests named after it: the first passes
    unless something changed, the second must fail, through `assert`, so an `assert` made to
    let everything through gives itself away."""
    passing, failing = sentinel_names(nonce)
    a, b = int(nonce[:4], 16), int(nonce[4:8], 16)
    return f"""import * as runner from "node:test";
import assert from "node:assert";
import strict from "node:assert/strict";

// Frozen: nothing the runner or the matchers do assigns to these namespaces. (Error is
// not: node's assert sets Error.stackTraceLimit while it builds an error.)
const frozen = [Object, Array, Reflect, JSON, Math, Number, String, Boolean, Map, Set,
  WeakMap, WeakSet, Promise];
frozen.forEach((namespace) => Object.freeze(namespace));
const names = ["Object", "Array", "Reflect", "JSON", "Math", "Number", "String", "Boolean",
  "Map", "Set", "WeakMap", "WeakSet", "Promise", "Symbol", "Function", "Error", "Date",
  "RegExp", "BigInt", "Proxy"];
const globals = names.map((name) => globalThis[name]);
const owners = [runner, assert, strict, ...frozen, Symbol, Function.prototype,
  Object.prototype, Array.prototype, String.prototype, Number.prototype, Boolean.prototype,
  Map.prototype, Set.prototype, Symbol.prototype, Date.prototype, RegExp.prototype,
  Promise.prototype, Error.prototype];
const described = (owner) => Reflect.ownKeys(owner).map((key) => {{
  const d = Reflect.getOwnPropertyDescriptor(owner, key);
  return [key, d.value, d.get, d.set];
}});
const taken = owners.map(described);
const test = runner.test;
const ownKeys = Reflect.ownKeys;
const getOwn = Reflect.getOwnPropertyDescriptor;
const MyError = Error;
const same = Object.is;  // NaN is itself here

function unchanged() {{
  names.forEach((name, i) => {{
    if (globalThis[name] !== globals[i]) throw new MyError(`${{name}} was replaced`);
  }});
  owners.forEach((owner, i) => {{
    if (ownKeys(owner).length !== taken[i].length) throw new MyError("a built-in was changed");
    for (const [key, value, get, set] of taken[i]) {{
      const now = getOwn(owner, key);
      if (!now || !same(now.value, value) || now.get !== get || now.set !== set) {{
        throw new MyError(`${{String(key)}} was replaced`);
      }}
    }}
  }});
}}

runner.afterEach(unchanged);

export function register(file) {{
  test(`{passing} ${{file}}`, () => {{
    unchanged();
    strict.equal({a} + {b}, {a + b});
  }});
  test(`{failing} ${{file}}`, () => {{
    strict.equal({a} * {b}, {a * b + 1});
  }});
}}
"""


def runner_module(results: str, flags: tuple[str, ...]) -> str:
    """The guarded test run's own process: `node --test` as a module of the tool's, so that
    it, and not the flags it hands on, says how each test file's process runs. It runs the
    keeper and the reporters (the image's, to `results`, and node's spec, to the output);
    each test file runs in a process of its own under Node's permission model, which lets
    it read the kata's tree, the guard's modules and the image's JavaScript tools, and write
    no file and start no process, whatever the code in it reaches (the static policy is a
    list of what code may name; this is what the runtime refuses). `flags` are the
    language's own (`flavour.NodeFlavour.node_flags`). The exit code is node --test's: 1
    when a test or a test file failed."""
    own = "".join(f"\n  {json.dumps(flag)}," for flag in flags)
    return f"""import {{ createWriteStream }} from "node:fs";
import {{ resolve }} from "node:path";
import {{ PassThrough }} from "node:stream";
import {{ run }} from "node:test";
import {{ spec }} from "node:test/reporters";
import keep from "./keeper.mjs";

const here = new URL(".", import.meta.url).pathname;
const execArgv = [
  "{NO_CODE_FROM_TEXT}",{own}
  "--permission",
  `--allow-fs-read=${{process.cwd()}}`,
  `--allow-fs-read=${{here}}`,
  "--allow-fs-read=/opt/js",
  "--import",
  `${{here}}seal.mjs`,
  "--import",
  `${{here}}sentinels.mjs`,
];
// As `node --test` names them: by their full path, which is also each file's own test's name.
const files = process.argv.slice(2).map((file) => resolve(file));
const events = run({{ files, execArgv }});
events.on("test:fail", () => {{
  process.exitCode = 1;
}});
const kept = new PassThrough({{ objectMode: true }});
const shown = new PassThrough({{ objectMode: true }});
events.pipe(kept);
events.pipe(shown);
kept.compose(keep).pipe(createWriteStream("{results}"));
shown.compose(spec).pipe(process.stdout);
"""


def _socket(nonce: str) -> str:
    # An abstract Unix socket: no file, and nothing but the sandbox's processes reach it.
    return f"\\0tdd-seal-{nonce}"


def server_module(nonce: str) -> str:
    """The sealed tests' keeper: the image's reporter wrapped, so it runs in `node --test`'s
    own process, which runs no test file. It reads the sealed sources from standard input
    before any test file's process starts, and hands each test file's source, once, to the
    process that asks for it (and the sealed helpers to any). A second ask for a test file
    gets nothing, so code that asks for another file's source only makes that file fail to
    load."""
    return f"""import {{ readFileSync }} from "node:fs";
import {{ createServer }} from "node:net";
import {{ pathToFileURL }} from "node:url";
import report from "{REPORTER}";

let given = {{ tests: {{}}, helpers: {{}} }};
try {{
  given = {{ ...given, ...JSON.parse(readFileSync(0, "utf8") || "{{}}") }};
}} catch {{
  // Nothing readable on the input: every file loads from the disk, or fails to.
}}
const tests = new Map(Object.entries(given.tests));
const helpers = Object.fromEntries(
  Object.entries(given.helpers).map(([path, text]) => [pathToFileURL(path).href, text]),
);
given = null;
const server = createServer((socket) => {{
  let asked = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => {{
    asked = (asked + chunk).slice(0, 4096);
  }});
  socket.on("end", () => {{
    const file = asked.trim();
    const reply = {{ ...helpers }};
    const text = tests.get(file);
    if (text !== undefined) {{
      tests.delete(file);
      reply[pathToFileURL(file).href] = text;
    }}
    socket.end(JSON.stringify(reply));
  }});
  socket.on("error", () => {{}});
}});
server.listen("{_socket(nonce)}");
server.unref();

export default async function* keep(source) {{
  yield* report(source);
  server.close();
}}
"""


TEXT_CONSOLE = """
const stderr = process.stderr;
const say = (...args) => {
  stderr.write(`${format(...args)}\\n`);
};
const quiet = () => {};
const shown = Object.freeze({
  __proto__: null,
  log: say, info: say, debug: say, warn: say, error: say, trace: say, table: say,
  dir: (value) => say("%o", value), dirxml: say, group: say, groupCollapsed: say,
  groupEnd: quiet, count: quiet, countReset: quiet, time: quiet, timeEnd: quiet,
  timeLog: quiet, timeStamp: quiet, profile: quiet, profileEnd: quiet,
  assert: (ok, ...args) => {
    if (!ok) say("Assertion failed:", ...args);
  },
});
Object.defineProperty(globalThis, "console", {
  value: shown, writable: false, enumerable: false, configurable: false,
});
"""
"""The console of each test file's process, code's and tests' alike: formatted text, to
stderr. Node's own writes to stdout, where `node --test` reads the process's events as
frames, and hands out the stream itself (`console._stdout`): a frame written through it was
taken for a test that passed, one that never ran. Text cannot be such a frame (a frame
starts with a byte UTF-8 never writes), and stderr carries none. Frozen and in place before
the test file or any code loads, so the policy need not refuse the name."""
CONSOLE_MODULE = f'import {{ format }} from "node:util";\n{TEXT_CONSOLE}'
"""`TEXT_CONSOLE` as a module of its own, for a process whose first import it is (a scored
case's, `driver.py`)."""


def seal_module(nonce: str) -> str:
    """Imported first into each test file's process: asks the keeper for the file's sealed
    source, and registers hooks that load it from there (and add the sentinels' line to
    it), all before the file or any code it imports is loaded. The hooks run in the
    process's own thread (`registerHooks`: a loader thread is a worker, which the
    permission model refuses), their sources held where no module can reach them. First of
    all it gives the process `TEXT_CONSOLE`."""
    return f"""{CONSOLE_MODULE}import {{ registerHooks }} from "node:module";
import {{ connect }} from "node:net";
import {{ relative }} from "node:path";
import {{ pathToFileURL }} from "node:url";

const file = process.argv[1] ?? "";
const reply = await new Promise((resolve) => {{
  const socket = connect("{_socket(nonce)}");
  let data = "";
  socket.setEncoding("utf8");
  socket.on("connect", () => socket.end(file));
  socket.on("data", (chunk) => {{
    data += chunk;
  }});
  socket.on("end", () => resolve(data));
  socket.on("error", () => resolve("{{}}"));
}});
// The sentinels' module sits beside this one, where the guard's shell wrote both.
const sentinels = new URL("./sentinels.mjs", import.meta.url).href;
const line =
  `\\nimport {{ register as tdd_{nonce} }} from "${{sentinels}}";\\n` +
  `tdd_{nonce}(${{JSON.stringify(relative(process.cwd(), file))}});\\n`;
const sources = new Map(Object.entries(JSON.parse(reply)));
const entry = pathToFileURL(file).href;
registerHooks({{
  load(url, context, next) {{
    let source = sources.get(url);
    if (url !== entry && source === undefined) return next(url, context);
    if (source === undefined) source = String(next(url, context).source ?? "");
    sources.delete(url);
    if (url === entry) source += line;
    return {{ format: context.format ?? "module", source, shortCircuit: true }};
  }},
}});
"""


NODE_SENTINELS = SentinelReports(
    opens=re.compile(r"^(?:[\u2714\u2716] tdd_check_[0-9a-f]{6}\b|test at \S*tdd-guard-)"),
    closes=NEXT_UNINDENTED,
)
"""Where node's spec reporter reports the sentinels (`sentinel_names`): a line with the
failure's detail indented below it, and the same in the failing tests' summary."""
