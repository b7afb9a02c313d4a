"""The guard's sentinel module for `node --test`: two tests of the tool's, one that must
pass and one that must fail, which a rigged `assert` or runner cannot both survive."""

from __future__ import annotations


def sentinel_names(nonce: str) -> tuple[str, str]:
    """The passing and the failing sentinel test's names for `nonce`."""
    return f"tdd_check_{nonce[:6]}", f"tdd_check_{nonce[6:12]}"


def sentinel_module(nonce: str) -> str:
    """The guard's module: imported first into each test file's process, it takes note of the
    runner's and `assert`'s functions; `register(file)`, called at the end of the test file,
    adds two tests named after it. The first passes unless one of those functions was
    replaced since; the second must fail, through `assert`, so an `assert` made to let
    everything through gives itself away."""
    passing, failing = sentinel_names(nonce)
    a, b = int(nonce[:4], 16), int(nonce[4:8], 16)
    return f"""import * as runner from "node:test";
import assert from "node:assert";
import strict from "node:assert/strict";

const owners = [runner, assert, strict];
const taken = owners.map((owner) => Object.entries(owner));
const test = runner.test;

export function register(file) {{
  test(`{passing} ${{file}}`, () => {{
    owners.forEach((owner, i) => {{
      for (const [name, value] of taken[i]) {{
        if (owner[name] !== value) throw new Error(`${{name}} was replaced`);
      }}
    }});
    strict.equal({a} + {b}, {a + b});
  }});
  test(`{failing} ${{file}}`, () => {{
    strict.equal({a} * {b}, {a * b + 1});
  }});
}}
"""
