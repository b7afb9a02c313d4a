"""Scripted 'perfect' agents for FizzBuzz in Python and Rust, cycle by cycle."""

from __future__ import annotations

from tests.helpers.fake_llm import Answer, done, no_change, plan

PY_TEST_HEAD = "from fizzbuzz import fizzbuzz\n"
PY_TESTS = [
    ("one", 'def test_one() -> None:\n    assert fizzbuzz(1) == "1"\n'),
    ("fizz", 'def test_fizz() -> None:\n    assert fizzbuzz(3) == "Fizz"\n'),
    ("buzz", 'def test_buzz() -> None:\n    assert fizzbuzz(5) == "Buzz"\n'),
    ("fizzbuzz", 'def test_fizzbuzz() -> None:\n    assert fizzbuzz(15) == "FizzBuzz"\n'),
]
PY_IMPLS = [
    "def fizzbuzz(n: int) -> str:\n    return str(n)\n",
    'def fizzbuzz(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n    return str(n)\n',
    (
        'def fizzbuzz(n: int) -> str:\n    if n % 3 == 0:\n        return "Fizz"\n'
        '    if n % 5 == 0:\n        return "Buzz"\n    return str(n)\n'
    ),
    (
        'def fizzbuzz(n: int) -> str:\n    if n % 15 == 0:\n        return "FizzBuzz"\n'
        '    if n % 3 == 0:\n        return "Fizz"\n    if n % 5 == 0:\n        return "Buzz"\n'
        "    return str(n)\n"
    ),
]
PY_REFACTOR = (
    "def fizzbuzz(n: int) -> str:\n"
    '    word = ("Fizz" if n % 3 == 0 else "") + ("Buzz" if n % 5 == 0 else "")\n'
    "    return word or str(n)\n"
)

RS_TESTS = [
    ("one", '#[test]\nfn one() {\n    assert_eq!(fizzbuzz(1), "1");\n}\n'),
    ("fizz", '#[test]\nfn fizz() {\n    assert_eq!(fizzbuzz(3), "Fizz");\n}\n'),
    ("buzz", '#[test]\nfn buzz() {\n    assert_eq!(fizzbuzz(5), "Buzz");\n}\n'),
    ("fizzbuzz", '#[test]\nfn fizz_buzz() {\n    assert_eq!(fizzbuzz(15), "FizzBuzz");\n}\n'),
]
RS_IMPLS = [
    "pub fn fizzbuzz(n: u32) -> String {\n    n.to_string()\n}\n",
    (
        "pub fn fizzbuzz(n: u32) -> String {\n    if n % 3 == 0 {\n"
        '        return "Fizz".to_string();\n    }\n    n.to_string()\n}\n'
    ),
    (
        "pub fn fizzbuzz(n: u32) -> String {\n    if n % 3 == 0 {\n"
        '        return "Fizz".to_string();\n    }\n    if n % 5 == 0 {\n'
        '        return "Buzz".to_string();\n    }\n    n.to_string()\n}\n'
    ),
    (
        "pub fn fizzbuzz(n: u32) -> String {\n    if n % 15 == 0 {\n"
        '        return "FizzBuzz".to_string();\n    }\n    if n % 3 == 0 {\n'
        '        return "Fizz".to_string();\n    }\n    if n % 5 == 0 {\n'
        '        return "Buzz".to_string();\n    }\n    n.to_string()\n}\n'
    ),
]
RS_REFACTOR = (
    "pub fn fizzbuzz(n: u32) -> String {\n    match (n % 3, n % 5) {\n"
    '        (0, 0) => "FizzBuzz".to_string(),\n        (0, _) => "Fizz".to_string(),\n'
    '        (_, 0) => "Buzz".to_string(),\n        _ => n.to_string(),\n    }\n}\n'
)


def python_test_file(count: int) -> str:
    """The Python test module holding the first `count` tests."""
    return PY_TEST_HEAD + "".join("\n\n" + body for _, body in PY_TESTS[:count])


def rust_test_file(count: int) -> str:
    """The Rust test file holding the first `count` tests."""
    return "use kata::fizzbuzz;\n" + "".join("\n" + body for _, body in RS_TESTS[:count])


def fizzbuzz_script(language: str, prefix: str = "") -> dict[str, list[Answer]]:
    """Answers for models `<prefix>tester`, `<prefix>implementer`, `<prefix>refactorer` that
    complete the kata in four cycles, with one real refactoring in the last."""
    tester: list[Answer] = []
    implementer: list[Answer] = []
    refactorer: list[Answer] = []
    count = len(PY_TESTS)
    for index in range(count):
        if language == "python":
            test = ("tests/test_fizzbuzz.py", python_test_file(index + 1))
            impl = ("fizzbuzz.py", PY_IMPLS[index])
            refactor = ("fizzbuzz.py", PY_REFACTOR)
            name = PY_TESTS[index][0]
        else:
            test = ("tests/fizzbuzz.rs", rust_test_file(index + 1))
            impl = ("src/lib.rs", RS_IMPLS[index])
            refactor = ("src/lib.rs", RS_REFACTOR)
            name = RS_TESTS[index][0]
        tester.append(plan(test, message=f"test(fizzbuzz): {name}", note=f"test {name}"))
        implementer.append(plan(impl, message=f"feat(fizzbuzz): handle {name}", note="minimal"))
        last = index == count - 1
        refactorer.append(
            plan(refactor, message="refactor(fizzbuzz): one expression", note="simplify")
            if last
            else no_change()
        )
    tester.append(done())
    return {
        f"{prefix}tester": tester,
        f"{prefix}implementer": implementer,
        f"{prefix}refactorer": refactorer,
    }


def covering(count: int, language: str = "python") -> str:
    """The implementation of the first `count` tests as the fake runtime judges it: the real
    code, naming the tests it makes pass (see `tdd_sandbox.execution.fake`)."""
    if language == "rust":
        names = " ".join(body.split("fn ", 1)[1].split("(", 1)[0] for _, body in RS_TESTS[:count])
        return f"// passes: {names}\n{RS_IMPLS[count - 1]}"
    names = " ".join(f"test_{name}" for name, _ in PY_TESTS[:count])
    return f"# passes: {names}\n{PY_IMPLS[count - 1]}"


def fake_fizzbuzz_script(language: str = "python") -> dict[str, list[Answer]]:
    """The FizzBuzz script as the fake runtime judges it: each implementation names the tests
    it makes pass (see `covering`), and the refactoring keeps naming them."""
    script = fizzbuzz_script(language)
    source, refactor = (
        ("src/lib.rs", RS_REFACTOR) if language == "rust" else ("fizzbuzz.py", PY_REFACTOR)
    )
    count = len(PY_TESTS)
    script["implementer"] = [
        plan(
            (source, covering(n, language)), message=f"feat(fizzbuzz): handle {PY_TESTS[n - 1][0]}"
        )
        for n in range(1, count + 1)
    ]
    names = covering(count, language).splitlines()[0]
    refactored = plan((source, f"{names}\n{refactor}"),
                      message="refactor(fizzbuzz): one expression", note="simplify")  # fmt: skip
    script["refactorer"] = [no_change()] * (count - 1) + [refactored]
    return script
