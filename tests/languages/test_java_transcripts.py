"""A Java track's own JUnit tests transcribed as data: each test runs as written in the
driver, and what it asserts stays on the host. The attack throughout is an expected value
reaching the sandbox, where the code could read it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tdd_sandbox.languages.java.junit import ClassUnreadable, read_test_class
from tdd_sandbox.languages.java.literals import read_literal
from tdd_sandbox.languages.java.transcripts import derive_java_transcripts
from tdd_sandbox.languages.literal_reader import NO, SetLiteral
from tdd_sandbox.vocabulary.cases import CallMap, Case

SECRET = "the-answer-only-the-host-holds"
HEAD = (
    "import org.junit.jupiter.api.Test;\nimport java.util.List;\n\n"
    "import static org.assertj.core.api.Assertions.assertThat;\n"
    "import static org.assertj.core.api.Assertions.assertThatExceptionOfType;\n\n"
)


def _transcribed(body: str, *descriptions: str) -> CallMap | str:
    cases = [Case(f"id{k}", d, "prop", {}, None) for k, d in enumerate(descriptions)]
    source = f"{HEAD}public class TallyTest {{\n{body}}}\n"
    return derive_java_transcripts(cases, {"src/test/java/TallyTest.java": source.encode()})


def _shipped(calls: CallMap) -> str:
    return json.dumps([calls.setup, calls.calls, calls.transcripts])


def _steps(calls: CallMap, case_id: str = "id0") -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = calls.restated[case_id].input["operations"]
    return steps


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('"a" + "b" +\n  "c"', "abc"),
        ("'x'", "x"),
        ("new int[][] {{1, 2}, {3}}", [[1, 2], [3]]),
        ("{1, -2}", [1, -2]),
        ('Arrays.asList("0x40", "0x7f")', ["0x40", "0x7f"]),
        ("0x40L", 64),
        ("1.5d", 1.5),
        ("Collections.emptyList()", []),
        ('Map.of("a", 1)', {"a": 1}),
        ("Winner.PLAYER_O", "player o"),
        ('"""\n    one\n      two\n    """', "one\n  two\n"),
        ("known", [1]),
    ],
)
def test_a_literal_reads_as_the_driver_reports_the_value(text: str, value: Any) -> None:
    assert read_literal(text, {"known": [1]}) == value


def test_a_set_reads_in_any_order_and_anything_else_is_no_literal() -> None:
    assert isinstance(read_literal("Set.of(1, 2)"), SetLiteral)
    for text in ("new Tally(1)", "1 + 2", "tally.value()", "unknown"):
        assert read_literal(text) is NO


def test_a_test_runs_after_its_class_s_fields_and_before_each_bodies() -> None:
    read = read_test_class(
        HEAD + "public class TallyTest {\n  private static final int FIRST = 1;\n"
        "  private Tally tally;\n\n  @BeforeEach\n  public void setUp() {\n"
        '    tally = new Tally(FIRST);\n  }\n\n  @Disabled("Remove to run test")\n  @Test\n'
        '  @DisplayName("adds one")\n  public void adds() {\n    tally.add(1);\n  }\n}\n'
    )
    (test,) = read.tests
    assert (test.name, test.shown) == ("adds", "adds one")
    assert test.before == ("final int FIRST = 1;", "Tally tally;", "tally = new Tally(FIRST);")
    assert test.body == ("tally.add(1);",)
    with pytest.raises(ClassUnreadable, match="parameters"):
        read_test_class(
            "class T {\n  @ParameterizedTest\n  @ValueSource(ints = {1})\n"
            "  void t(int n) {\n  }\n}\n"
        )


def test_a_value_the_test_asserts_against_stays_on_the_host() -> None:
    calls = _transcribed(
        "  @Test\n  public void sums() {\n"
        "    Tally tally = new Tally(1).add(2);\n"
        f'    String expected = "{SECRET}";\n'
        '    assertThat(tally.label()).as("the label").isEqualTo(expected);\n'
        f"    assertThat(tally.parts()).containsExactlyInAnyOrder(2, 1);\n"
        "    assertThat(tally.isEmpty()).isFalse();\n"
        f"    assertThatExceptionOfType(IllegalArgumentException.class)\n"
        f'        .isThrownBy(() -> new Tally(-1))\n        .withMessage("{SECRET}2");\n'
        "  }\n",
        "sums",
    )
    assert isinstance(calls, CallMap), calls
    assert SECRET not in _shipped(calls)
    assert _steps(calls) == [
        {"operation": "tally.label()", "expected": SECRET},
        {"operation": "tally.parts()", "expected": [2, 1], "unordered": True},
        {"operation": "tally.isEmpty() (isFalse)", "expected": False},
        {"operation": "new Tally(-1)", "expected": {"error": SECRET + "2"}},
    ]
    assert calls.setup == "import java.util.List;"  # the runner's own imports left out
    assert "tddSteps.fails(() -> new Tally(-1));" in calls.transcripts["id0"]


def test_a_value_held_against_that_the_code_makes_leaves_the_test_out() -> None:
    calls = _transcribed(
        "  @Test\n  public void same() {\n"
        "    assertThat(new Tally(1).add(1)).isEqualTo(new Tally(2));\n  }\n"
        "  @Test\n  public void value() {\n"
        "    assertThat(new Tally(2).value()).isEqualTo(2);\n  }\n"
        "  @Test\n  public void again() {\n"
        "    assertThat(new Tally(3).value()).isEqualTo(3);\n  }\n"
        "  @Test\n  public void more() {\n"
        "    assertThat(new Tally(4).value()).isEqualTo(4);\n  }\n",
        "value",
    )
    assert isinstance(calls, CallMap), calls
    assert set(calls.transcripts) == {"id0", "again", "more"}
    assert "same" in calls.exclude
    helper = _transcribed(
        "  @Test\n  public void chain() {\n    assertValidChain(new Tally(1));\n  }\n", "chain"
    )
    assert helper == "the test chain cannot be transcribed: it asserts with assertValidChain"


def test_a_literal_a_test_compares_the_code_with_is_never_shipped() -> None:
    # `assertThat(x == 7291).isTrue()` would ship 7291 in the driver's source, beside the
    # code, which could read it there.
    compared = _transcribed(
        "  @Test\n  public void compares() {\n"
        "    assertThat(new Tally(1).value() == 7291).isTrue();\n  }\n",
        "compares",
    )
    assert compared == (
        "the test compares cannot be transcribed: it compares beside the code: "
        "new Tally(1).value() == 7291"
    )
