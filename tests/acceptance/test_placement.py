"""A kata's hidden test files are placed where the runner collects them, and a suite that
defines no test the runner would collect is an error naming the fix, never a 0/0 score."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdd_sandbox.acceptance.testfiles import hidden_test_files
from tdd_sandbox.errors import UsageError
from tdd_sandbox.languages.registry import get_language
from tests.helpers.katas import STEPS


def _kata(root: Path, language: str, files: dict[str, str]) -> Path:
    folder = root / "wordwrap" / "acceptance" / language
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    return root / "wordwrap"


@pytest.mark.parametrize("language", ["python", "rust", "cpp", "java"])
def test_a_suite_laid_out_at_the_root_goes_where_the_runner_collects_it(
    tmp_path: Path, language: str
) -> None:
    # `acceptance/python/test_fizzbuzz.py` (as a user would guess, or as Exercism has
    # `leap_test.py`) defined no test pytest collects there: the kata scored 0/0.
    steps, pack = STEPS[language], get_language(language)
    name = Path(steps.test_path).name
    kata = _kata(tmp_path, language, {name: steps.test_file(2)})
    placed = hidden_test_files(kata, pack)
    assert list(placed) == [steps.test_path]
    assert pack.expected_tests(placed)


def test_a_jest_spec_laid_out_by_hand_is_placed_as_an_imported_one_would_be(
    tmp_path: Path,
) -> None:
    # `acceptance/javascript/wrap.spec.js`, as Exercism writes it: the import converts such
    # specs, and the same file put there by hand defined no test the runner collects.
    spec = (
        "import { wrap } from './wrap';\n\n"
        "test('one word', () => {\n  expect(wrap('a')).toBe('a');\n});\n"
    )
    kata = _kata(tmp_path, "javascript", {"wrap.spec.js": spec})
    pack = get_language("javascript")
    placed = hidden_test_files(kata, pack)
    assert placed == dict([pack.track_test("wrap.spec.js", spec.encode())])
    assert pack.expected_tests(placed) == {"test/wrap.test.js::one word"}


def test_a_suite_already_collected_stays_where_it_is(tmp_path: Path) -> None:
    steps, pack = STEPS["go"], get_language("go")
    kata = _kata(tmp_path, "go", {steps.test_path: steps.test_file(2), "go.mod": "module kata\n"})
    assert sorted(hidden_test_files(kata, pack)) == ["fizzbuzz_test.go", "go.mod"]


def test_helpers_move_with_the_tests_they_serve(tmp_path: Path) -> None:
    steps, pack = STEPS["python"], get_language("python")
    kata = _kata(tmp_path, "python", {"test_fizzbuzz.py": steps.test_file(2), "data.py": "X = 1\n"})
    assert sorted(hidden_test_files(kata, pack)) == ["tests/data.py", "tests/test_fizzbuzz.py"]


@pytest.mark.parametrize(
    ("language", "files"),
    [
        ("python", {"helpers.py": "X = 1\n"}),
        ("python", {"tests/test_nothing.py": "def helper():\n    return 1\n"}),
        ("go", {"leap_test.go": "package leap\n\nfunc helper() {}\n"}),
        ("rust", {"tests/leap.rs": "fn helper() {}\n"}),
    ],
)
def test_a_suite_with_no_test_the_runner_collects_is_an_error_naming_the_fix(
    tmp_path: Path, language: str, files: dict[str, str]
) -> None:
    kata = _kata(tmp_path, language, files)
    with pytest.raises(UsageError) as raised:
        hidden_test_files(kata, get_language(language))
    message = str(raised.value)
    assert "\n" not in message
    assert f"wordwrap: acceptance/{language}/ defines no test" in message
    assert get_language(language).collects in message
    hint = get_language(language).suggest_paths({}, "wordwrap")[0]
    assert f"acceptance/{language}/{hint}" in message
