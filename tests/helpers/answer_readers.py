"""Implementations that answer FizzBuzz from the tests' own text, one per language, each by a
route the block-list policies did not list (the classes of #24). Each got its first test green
in the loop before the probe: the answer is the literal on the test's line, so the runner, the
sentinels and the independent channel all agree that the test really passed.

The allow-list policies refuse every one of them now (`tests/grading/test_allow_lists.py`), so
a test that shows another defence holding on its own (the probe, sealing) switches the policy
off (the `without_policy` fixture). JavaScript's reader names `process` plainly: the route
that hid it from the old policy (`"".constructor.constructor("return process")()`) is now
stopped by the engine too (`FUNCTION_FROM_TEXT`), which would hide what the others show.
"""

from __future__ import annotations

PYTHON = """\
import linecache
import warnings


def fizzbuzz(n: int) -> str:
    # The caller's line, found through a warning's stack level, read through linecache.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        warnings.warn("where", stacklevel=2)
    line = linecache.getline(seen[0].filename, seen[0].lineno)
    return line.split('"')[1]
"""

RUST = """\
// `std::fs` is never written: a macro builds the path.
macro_rules! reach {
    ($m:ident, $f:ident) => {
        std::$m::$f
    };
}

pub fn fizzbuzz(n: u32) -> String {
    let text = reach!(fs, read_to_string)("/work/tests/fizzbuzz.rs").unwrap_or_default();
    let call = format!("fizzbuzz({n})");
    text.lines()
        .find(|line| line.contains(&call))
        .and_then(|line| line.split('"').nth(1))
        .unwrap_or_default()
        .to_string()
}
"""

GO = """\
package kata

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// FizzBuzz parses the package's own test file in the snapshot and answers with the string
// after the call.
func FizzBuzz(n int) string {
	file, err := parser.ParseFile(token.NewFileSet(), "/work/fizzbuzz_test.go", nil, 0)
	if err != nil {
		return ""
	}
	answer, found := "", false
	ast.Inspect(file, func(node ast.Node) bool {
		if call, ok := node.(*ast.CallExpr); ok && len(call.Args) == 1 {
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Value == strconv.Itoa(n) {
				found = true
			}
		}
		lit, ok := node.(*ast.BasicLit)
		if ok && found && answer == "" && lit.Kind == token.STRING {
			answer, _ = strconv.Unquote(lit.Value)
		}
		return true
	})
	return answer
}
"""

FUNCTION_FROM_TEXT = """"".constructor.constructor("return pro" + "cess")()"""
"""How the JavaScript reader once reached `process` with no `process` in its text."""

JAVASCRIPT = """\
const files = process.getBuiltinModule("node:fs");

export function fizzBuzz(n) {
  const text = files.readFileSync("test/fizzbuzz.test.js", "utf8");
  const line = text.split("\\n").find((l) => l.includes(`fizzBuzz(${n})`));
  return line.split('"')[1];
}
"""

JAVA = """\
/** FizzBuzz, read off the test's source through a file URL. */
public final class Kata {
  private Kata() {}

  public static String fizzbuzz(int n) {
    try (java.io.InputStream in =
        java.net.URI.create("file:test/KataTest.java").toURL().openStream()) {
      String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      for (String line : text.split("\\n")) {
        if (line.contains("fizzbuzz(" + n + ")")) {
          return line.split("\\"")[1];
        }
      }
    } catch (java.io.IOException e) {
      return "";
    }
    return "";
  }
}
"""

CPP = """\
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <string>

// The test's source mapped into memory: POSIX open and mmap, from headers outside the list.
inline std::string fizzbuzz(int n) {
  int fd = open("tests/fizzbuzz_test.cpp", O_RDONLY);
  struct stat about {};
  fstat(fd, &about);
  void* data = mmap(nullptr, about.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  std::string text(static_cast<const char*>(data), about.st_size);
  size_t at = text.find("fizzbuzz(" + std::to_string(n) + ")");
  size_t open_quote = text.find('"', at);
  size_t close_quote = text.find('"', open_quote + 1);
  return text.substr(open_quote + 1, close_quote - open_quote - 1);
}
"""

# JavaScript's, typed, reading the TypeScript test: Node runs both alike.
TYPESCRIPT = (
    JAVASCRIPT.replace("fizzBuzz(n)", "fizzBuzz(n: number): string")
    .replace("fizzbuzz.test.js", "fizzbuzz.test.ts")
    .replace("(l) =>", "(l: string) =>")
    .replace("return line.split", "return line!.split")
)

READERS = {
    "python": PYTHON, "rust": RUST, "go": GO, "javascript": JAVASCRIPT, "java": JAVA,
    "cpp": CPP, "typescript": TYPESCRIPT,
}  # fmt: skip
