"""Implementations that answer FizzBuzz from the name of the test calling them, one per
language whose runtime tells code its caller's name. The tests of `tests/helpers/katas.py`
are named for their answers (`test_one`, `fizz`, `TestBuzz`), as Exercism's often are
(`test_year_divisible_by_4_is_leap`): each reader passes every test under its own name, and
changed expected values fail it as they fail honest code.

JavaScript has none: a `node --test` callback is anonymous, and the test's name is only on
the context the runner hands the test itself. Nor has C++ without GoogleTest's own header
(`::testing::UnitTest::GetInstance()->current_test_info()`), which code may not include (it
would hold test code), and whose `TestInfo::name()` is inline, no symbol to declare it by.
"""

from __future__ import annotations

PYTHON = """\
import sys

ANSWERS = {"fizzbuzz": "FizzBuzz", "fizz": "Fizz", "buzz": "Buzz", "one": "1"}


def fizzbuzz(n: int) -> str:
    # The calling test's name, from its frame.
    caller = sys._getframe(1).f_code.co_name.removeprefix("test_")
    return ANSWERS.get(caller, "")
"""

RUST = """\
const ANSWERS: [(&str, &str); 4] =
    [("fizzbuzz", "FizzBuzz"), ("fizz", "Fizz"), ("buzz", "Buzz"), ("one", "1")];

pub fn fizzbuzz(_n: u32) -> String {
    // The calling test's name, from a backtrace of the test binary's symbols.
    let trace = std::backtrace::Backtrace::force_capture().to_string();
    for (name, answer) in ANSWERS {
        if trace.contains(&format!("fizzbuzz::{name}\\n")) {
            return answer.to_string();
        }
    }
    String::new()
}
"""

GO = """\
package kata

import (
	"runtime"
	"strings"
)

// FizzBuzz answers from the name of the test calling it.
func FizzBuzz(n int) string {
	pc, _, _, _ := runtime.Caller(1)
	name := runtime.FuncForPC(pc).Name()
	for _, pair := range [][2]string{{"FizzBuzz", "FizzBuzz"}, {"Fizz", "Fizz"},
		{"Buzz", "Buzz"}, {"One", "1"}} {
		if strings.HasSuffix(name, ".Test"+pair[0]) {
			return pair[1]
		}
	}
	return ""
}
"""

JAVA = """\
/** FizzBuzz, from the name of the test calling it. */
public final class Kata {
  private Kata() {}

  public static String fizzbuzz(int n) {
    String caller = Thread.currentThread().getStackTrace()[2].getMethodName();
    switch (caller) {
      case "fizzBuzz": return "FizzBuzz";
      case "fizz": return "Fizz";
      case "buzz": return "Buzz";
      case "one": return "1";
      default: return "";
    }
  }
}
"""

READERS = {"python": PYTHON, "rust": RUST, "go": GO, "java": JAVA}
