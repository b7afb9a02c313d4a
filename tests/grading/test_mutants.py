"""Mutants of a reference: one token changed each, by operators every pack's tokens read."""

from __future__ import annotations

from tdd_sandbox.grading.mutants import make_mutants
from tdd_sandbox.languages.registry import get_language

LEAP = b"def leap_year(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"


def test_each_mutant_changes_one_token_and_says_which() -> None:
    python = get_language("python")
    mutants = make_mutants(python, {"leap.py": LEAP, "README.md": b"1 < 2"}, ["leap.py"])
    shown = [m.describe() for m in mutants]
    assert shown == [
        "leap.py:2: 4 -> 5", "leap.py:2: == -> !=", "leap.py:2: 0 -> 1", "leap.py:2: and -> or",
        "leap.py:2: 100 -> 101", "leap.py:2: != -> ==", "leap.py:2: 0 -> 1", "leap.py:2: or -> and",
        "leap.py:2: 400 -> 401", "leap.py:2: == -> !=", "leap.py:2: 0 -> 1",
    ]  # fmt: skip
    assert mutants[3].files["leap.py"] == LEAP.replace(b" and ", b" or ")
    assert all(m.files["README.md"] == b"1 < 2" for m in mutants)  # only the code is mutated


def test_a_limit_spreads_the_mutants_over_the_code() -> None:
    cpp = get_language("cpp")
    code = b"bool f(int a) { return a < 1 && a > 2 && a <= 3 && a >= 4 && a == 5 && true; }\n"
    every = make_mutants(cpp, {"f.cpp": code}, ["f.cpp"], limit=100)
    some = make_mutants(cpp, {"f.cpp": code}, ["f.cpp"], limit=4)
    assert len(every) == 16
    assert [m.describe() for m in some] == [every[i].describe() for i in (0, 4, 8, 12)]
    assert "f.cpp:1: true -> false" in [m.describe() for m in every]


def test_equivalent_mutants_change_the_text_and_not_what_it_does() -> None:
    from tdd_sandbox.grading.mutants import equivalent_mutants
    from tdd_sandbox.languages.registry import get_language

    python = '"""Doc\nstring."""\n\ndef f(x):\n    s = """a\nb"""\n    return x + \\\n        1\n'
    made = equivalent_mutants(get_language("python"), {"k.py": python.encode()}, ["k.py"])
    assert [m.now for m in made] == ["a blank line", "one more newline at the end"]
    for mutant in made:
        text = mutant.files["k.py"].decode()
        assert text != python
        assert "a\nb" in text
        assert "Doc\nstring." in text
        assert "\\\n        1" in text  # no continuation broken
        compile(text, "k.py", "exec")
    rust = 'pub fn f(x: i32) -> i32 {\n    let s = "a\nb";\n    x + 1\n}\n'
    [blank, _] = equivalent_mutants(get_language("rust"), {"src/lib.rs": rust.encode()},
                                    ["src/lib.rs"])  # fmt: skip
    assert '"a\nb"' in blank.files["src/lib.rs"].decode()
