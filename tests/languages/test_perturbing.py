"""Expected values changed for the probe: which tokens change, and that the change is safe."""

from __future__ import annotations

import random

import pytest

from tdd_sandbox.languages.perturbing import added_lines
from tdd_sandbox.languages.registry import LANGUAGES, get_language
from tests.helpers.katas import STEPS, python_test_file


def _perturb(language: str, text: str, lines: frozenset[int] | None = None) -> str:
    return get_language(language).perturb(text, lines, random.Random(7)).text


def _changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    return [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_pack_changes_the_expected_side_of_its_own_fizzbuzz_tests(language: str) -> None:
    steps = STEPS[language]
    text = python_test_file(2) if language == "python" else steps.test_file(2)
    changed = _changed_lines(text, _perturb(language, text))
    assert len(changed) >= 2, changed
    for before, after in changed:
        # The call under test is kept; only a quoted expected value differs.
        assert before.replace(" ", "").split("(", 2)[:1] == after.replace(" ", "").split("(", 2)[:1]
        assert ("(1)" in before and '"1"' in before) or ("(3)" in before and "Fizz" in before)
        assert "(1)" in after or "(3)" in after


@pytest.mark.parametrize(("language", "text"), [
    ("python", "def test_x():\n    with pytest.raises(ValueError):\n        f(-1)\n"),
    ("python", 'def test_x():\n    assert f(3) != "Buzz"\n'),
    ("python", "def test_x():\n    assert f(3)\n"),
    ("python", 'def test_x():\n    assert f"{x}" == g()\n'),
    ("python", "def test_x():\n    assert 1 == 1\n"),
    ("rust", "fn x() {\n    assert_ne!(f(3), \"Buzz\");\n    assert!(f(3).is_empty());\n}\n"),
    ("go", "func TestX(t *testing.T) {\n\tif got := F(3); got == \"x\" {\n\t\tt.Fatal()\n\t}\n}\n"),
    ("javascript", "assert.notEqual(f(3), \"Buzz\");\nexpect(f(`${a}`)).toBe(`b`);\n"),
    ("java", "  @Test\n  void x() {\n    assertNotEquals(\"Buzz\", Kata.f(3));\n  }\n"),
    ("cpp", "TEST(K, X) { EXPECT_NE(f(3), \"Buzz\"); EXPECT_EQ(f(R\"(a)\"), R\"(b)\"); }\n"),
])  # fmt: skip
def test_what_is_not_an_expected_value_is_never_changed(language: str, text: str) -> None:
    # A raises, an inequality, a bare truth, code inside a literal, a comparison of two
    # constants, a raw string: changing any of these could leave honest code passing.
    assert _perturb(language, text) == text


@pytest.mark.parametrize(("language", "before", "after"), [
    ("rust", "assert_eq!(f(), 255u8);", "assert_eq!(f(), 254u8);"),
    ("rust", "assert_eq!(f(), 0);", "assert_eq!(f(), 1);"),
    ("rust", "assert_eq!(f(), -128i8);", "assert_eq!(f(), -127i8);"),
    ("rust", "assert_eq!(f(), 1.5);", "assert_eq!(f(), 2.5);"),
    ("rust", "assert_eq!(f(), true);", "assert_eq!(f(), false);"),
    ("rust", "assert_eq!(f(), \"\");", "assert_eq!(f(), \"x\");"),
    ("rust", "assert_eq!(f(), \"\\n\");", "assert_eq!(f(), \"\\n\");"),
    ("rust", "assert_eq!(f(), 0xff);", "assert_eq!(f(), 0xff);"),
    ("cpp", "EXPECT_EQ(f(), 1'000LL);", "EXPECT_EQ(f(), 999LL);"),
    ("java", "assertEquals('-', Kata.f());", "assertEquals('-', Kata.f());"),
    ("python", "assert f() is True", "assert f() is False"),
])  # fmt: skip
def test_a_changed_value_keeps_its_type_so_the_test_still_compiles(
    language: str, before: str, after: str
) -> None:
    assert _perturb(language, before + "\n") == after + "\n"


@pytest.mark.parametrize("language", ["rust", "go", "javascript", "java", "cpp"])
def test_a_letter_beyond_ascii_outside_a_literal_is_read_as_a_word(language: str) -> None:
    # A name that begins beyond ASCII (JavaScript's parallel-letter-frequency counts `{本: 1}`)
    # met no token pattern: the tokenizer's assertion ended a whole `katas import` of
    # aider's set, twelve minutes in.
    text = "assertEquals(øre, f({本: 1}));\nassertEquals(2, f(3));\n"
    perturbed = _perturb(language, text)
    assert "assertEquals(øre, f({本: 1}));" in perturbed


def test_only_the_lines_given_change_and_a_repeated_message_changes_with_its_value() -> None:
    text = STEPS["go"].test_file(2)
    new = added_lines(STEPS["go"].test_file(1), text)
    changed = _changed_lines(text, _perturb("go", text, new))
    assert len(changed) == 2  # the condition and the failure message of the second test only
    assert all("FizzBuzz(3)" in before for before, _ in changed)
    assert all('"Fizz"' not in after for _, after in changed)


def test_an_expected_variable_changes_where_it_is_declared() -> None:
    text = 'func TestX(t *testing.T) {\n\twant := "Fizz"\n\tif got := F(3); got != want {\n'
    text += "\t\tt.Fatal(got)\n\t}\n}\n"
    [(before, after)] = _changed_lines(text, _perturb("go", text))
    assert before == '\twant := "Fizz"'
    assert after != before
    assert after.startswith('\twant := "')


GO_TABLE = """\
var testCases = []struct {
\texpected bool
\tyear     int
\twant     string
}{
\t{year: 2015, expected: false, want: "x"},
\t{
\t\tyear:     1996,
\t\texpected: true,
\t\twant:     strings.Repeat("a", 2),
\t},
}
"""


def test_a_tables_expected_fields_change_and_nothing_else() -> None:
    # Go's table tests (Exercism's cases_test.go) hold the answers in keyed fields, which the
    # probe read no answer from: a reader of the table passed the changed test file still.
    after = _perturb("go", GO_TABLE)
    changed = _changed_lines(GO_TABLE, after)
    assert [before for before, _ in changed] == [
        '\t{year: 2015, expected: false, want: "x"},',
        "\t\texpected: true,",
    ]
    first, second = (now for _, now in changed)
    assert first.startswith("\t{year: 2015, expected: true, want: ")
    assert first != '\t{year: 2015, expected: true, want: "x"},'  # the string changed too
    assert second == "\t\texpected: false,"
    # A field built by a call is no constant; the struct's own field list is no value.
    assert 'want:     strings.Repeat("a", 2)' in after
    assert "\texpected bool\n" in after
    js = 'const cases = [{ input: 3, expected: "Fizz" }];\n'
    assert _perturb("javascript", js) != js
    assert "input: 3" in _perturb("javascript", js)


GO_SHAPES = """\
var testCases = []struct {
\texpected map[string][2][2]int
}{
\t{expected: map[string][2][2]int{"clojure": {{0, 0}, {6, 0}}}},
\t{expected: map[string]int{"A": 9, "B": 1, "C": 0, "D": 2, "E": 3, "F": 4, "G": 5}},
}
"""


def test_a_types_array_length_and_a_maps_keys_are_shape_not_values() -> None:
    # Go's word-search and alphametics tables: an array length in the expected value's type
    # changed (`[2][2]int` to `[1][1]int`) and letters drawn at random for a map's keys
    # repeated one (`"Q": 8, "H": 0, "Q": 1`), so the changed file did not compile, and a
    # file whose tests no longer fail counted the track's own reference as a reader of them.
    after = _perturb("go", GO_SHAPES)
    for seed in range(40):
        text = get_language("go").perturb(GO_SHAPES, None, random.Random(seed)).text
        assert text.count("[2][2]int") == 2
        assert all(f'"{key}":' in text for key in "ABCDEFG")
        assert "{{0, 0}, {6, 0}}" not in text
        assert '"A": 9,' not in text
    assert after != GO_SHAPES
    python = 'def test_x():\n    assert f() == {"a": 1, "b": 2}\n'
    assert '{"a": 0, "b": 1}' in _perturb("python", python)


def test_added_lines_are_the_inserted_and_rewritten_ones() -> None:
    assert added_lines("a\nb\n", "a\nx\nb\ny\n") == frozenset({2, 4})
    assert added_lines("", "a\n") == frozenset({1})


GO_BENCHMARK = """\
func TestRows(t *testing.T) {
\tif !reflect.DeepEqual(m.Rows(), tc.rows) {
\t\tt.Fatal()
\t}
}

func BenchmarkRows(b *testing.B) {
\tif len(rows) != 4 {
\t\tb.Fatalf("rows: %v", rows)
\t}
}

func TestCount(t *testing.T) {
\tif got := Count("}"); got != 4 {
\t\tt.Fatal()
\t}
}
"""


def test_a_go_benchmarks_values_are_no_tests_values() -> None:
    # Go's matrix: the file's only comparison with a constant was in a benchmark, which
    # `go test` does not run, so its tests passed as well after the change: the track's own
    # reference was called a reader of its tests.
    perturbed = get_language("go").perturb(GO_BENCHMARK, None, random.Random(7))
    assert perturbed.lines == (14,)
    assert "len(rows) != 4" in perturbed.text
    lines = frozenset({8, 14})
    assert get_language("go").perturb(GO_BENCHMARK, lines, random.Random(7)).lines == (14,)
