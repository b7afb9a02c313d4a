"""Calls read off Exercism's JavaScript track: the stub's exported functions perform the
canonical properties."""

from __future__ import annotations

from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.vocabulary.cases import CallMap, Case

JAVASCRIPT = get_language("javascript")


def _case(prop: str, **given: object) -> Case:
    return Case(id=f"{prop}-{len(given)}", description="", property=prop, input=given, expected=0)


def test_the_stubs_one_exported_function_performs_the_one_property() -> None:
    stub = {
        "leap.js": b"// `export const no = 1`\nexport const isLeap = (year) => {\n  throw 1;\n};\n"
    }
    calls = JAVASCRIPT.derive_calls([_case("leapYear", year=2015)], stub, {})
    assert calls == CallMap(
        setup='import { isLeap } from "./leap.js";', calls={"leapYear": "isLeap(${year})"}
    )


def test_a_property_is_the_exported_function_of_its_name() -> None:
    stub = {
        "rebase.js": b"export function convert(digits, inputBase, outputBase) {}\n"
        b"export const helper = x => x;\nfunction hidden(a) {}\n"
    }
    cases = [_case("convert", inputBase=2, digits=[1], outputBase=10)]
    calls = JAVASCRIPT.derive_calls(cases, stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"convert": "convert(${digits}, ${inputBase}, ${outputBase})"}


def test_a_class_is_a_reason() -> None:
    stub = {"bank.js": b"export class BankAccount {\n  open() {}\n}\n"}
    reason = JAVASCRIPT.derive_calls([_case("open")], stub, {})
    assert reason == "no function of the stub performs the property open (open)"


def test_a_function_declaring_no_parameters_takes_the_inputs_in_order() -> None:
    # The track's stubs often leave the parameters out: `export const transpose = () => {`.
    stub = {"transpose.js": b"export const transpose = () => {\n  throw new Error();\n};\n"}
    calls = JAVASCRIPT.derive_calls([_case("transpose", lines=["A"])], stub, {})
    assert isinstance(calls, CallMap)
    assert calls.calls == {"transpose": "transpose(${lines})"}


def test_rows_the_tracks_tests_pass_as_text_are_given_as_lines() -> None:
    # ocr-numbers' and tournament's JavaScript tests pass one string of lines where the
    # canonical data lists the rows: the array reached `text.split` (reference 0/17, 0/12).
    stub = {"ocr.js": b"export const convert = () => {\n  throw new Error('x');\n};\n"}
    tests = {"ocr.spec.js": b"test('zero', () => {\n  expect(convert(\n    ' _ \\n' + '| |'\n"}
    cases = [_case("convert", rows=[" _ ", "| |"])]
    calls = JAVASCRIPT.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"convert": "convert(${rows|lines})"}
    listed = {"ocr.spec.js": b"expect(convert([' _ ', '| |'])).toEqual('0');\n"}
    calls = JAVASCRIPT.derive_calls(cases, stub, listed)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"convert": "convert(${rows})"}


def test_an_object_the_tests_make_and_use_performs_what_no_function_does() -> None:
    # The track's class stubs declare no parameters (`constructor() {}`): the tests say how
    # many inputs the constructor takes and how many the method does.
    stub = {
        "scale.js": b"export class Scale {\n  constructor() {}\n  chromatic() {}\n}\n",
        "search.js": b"class WordSearch {\n  find() {}\n}\nexport default WordSearch;\n",
    }
    tests = {
        "scale.spec.js": b"import { Scale } from './scale';\n"
        b"test('a', () => { expect(new Scale('C').chromatic()).toEqual(['C']); });\n"
        b"test('b', () => { const s = new Scale('F, G');\n"
        b"  expect(s.interval('M(m')).toEqual(['F']); });\n"
    }
    cases = [_case("chromatic", tonic="C"), _case("interval", tonic="G", intervals="MMm")]
    calls = JAVASCRIPT.derive_calls(cases, stub, tests)
    assert calls == CallMap(
        setup='import { Scale } from "./scale.js";',
        calls={
            "chromatic": "new Scale(${tonic}).chromatic()",
            "interval": "new Scale(${tonic}).interval(${intervals})",
        },
    )
    tests = {"search.spec.js": b"const w = new WordSearch(grid);\nexpect(w.find(['a'])).toBe(1);"}
    calls = JAVASCRIPT.derive_calls([_case("search", grid=["ab"], words=["a"])], stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.setup == 'import WordSearch from "./search.js";'
    assert calls.calls == {"search": "new WordSearch(${grid}).find(${words})"}


def test_a_spread_of_unknown_length_is_no_use() -> None:
    stub = {"triangle.js": b"export class Triangle {\n  constructor(...sides) {}\n}\n"}
    tests = {"t.spec.js": b"expect(new Triangle(...sides).isEquilateral).toBe(true);"}
    reason = JAVASCRIPT.derive_calls([_case("equilateral", sides=[1])], stub, tests)
    assert isinstance(reason, str)


def test_a_class_s_own_member_the_tests_call_performs_a_property() -> None:
    # house's `export class House { static verse() ... static verses() ... }`, called as
    # `House.verses(1, 2)`: no object is made, so no use was found.
    stub = {"house.js": b"export class House {\n  static verse() {}\n  static verses() {}\n}\n"}
    tests = {
        "house.spec.js": b"expect(House.verse(1)).toEqual(a);\n"
        b"expect(House.verses(1, 2)).toEqual(b);\nexpect(Other.verses(1, 2)).toEqual(b);\n"
    }
    calls = JAVASCRIPT.derive_calls([_case("recite", startVerse=1, endVerse=2)], stub, tests)
    assert calls == CallMap(
        setup='import { House } from "./house.js";',
        calls={"recite": "House.verses(${startVerse}, ${endVerse})"},
    )


def test_a_list_input_of_one_length_is_given_item_by_item_where_the_tests_pass_them_apart() -> None:
    # triangle: `new Triangle(2, 2, 2).isEquilateral` where the data gives `sides: [2, 2, 2]`
    # ("no function of the stub performs the property equilateral").
    stub = {"triangle.js": b"export class Triangle {\n  constructor(...sides) {}\n"
            b"  get isEquilateral() {}\n  get isScalene() {}\n}\n"}  # fmt: skip
    tests = {"triangle.spec.js": b"import { Triangle } from './triangle';\n"
             b"test('a', () => {\n  const triangle = new Triangle(2, 2, 2);\n"
             b"  expect(triangle.isEquilateral).toBe(true);\n"
             b"  expect(new Triangle(3, 4, 5).isScalene).toBe(true);\n});\n"}  # fmt: skip
    cases = [_case("equilateral", sides=[2, 2, 2]), _case("scalene", sides=[3, 4, 5])]
    calls = JAVASCRIPT.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.calls == {
        "equilateral": "new Triangle(${sides.0}, ${sides.1}, ${sides.2}).isEquilateral",
        "scalene": "new Triangle(${sides.0}, ${sides.1}, ${sides.2}).isScalene",
    }
    # Lists of other lengths in other cases: not given apart.
    uneven = [*cases, _case("scalene", sides=[3, 4])]
    assert isinstance(JAVASCRIPT.derive_calls(uneven, stub, tests), str)


def test_a_class_the_tests_build_step_by_step_replays_the_list_input() -> None:
    # Bowling: before, "no function of the stub performs the property score". The stub
    # declares no parameters; the tests' calls say each method takes one and none.
    stub = {"bowling.js": b"export class Bowling {\n  roll() {}\n\n  score() {}\n}\n"}
    tests = {
        "bowling.spec.js": b"const bowling = new Bowling();\n"
        b"rolls.forEach((roll) => { bowling.roll(roll); });\n"
        b"expect(bowling.score()).toEqual(0);\n"
    }
    cases = [_case("score", previousRolls=[0]), _case("roll", previousRolls=[10], roll=11)]
    calls = JAVASCRIPT.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap), calls
    built = 'tddFold(new Bowling(), "roll", ${previousRolls}, false)'
    replayed = (
        'await tddFold(new Bowling(), "roll", [...${previousRolls}, ${roll}], false, "answers")'
    )
    # The last roll too; the object comes boxed, as it may be a thenable.
    assert calls.calls == {"score": f"(await {built}).made.score()", "roll": replayed}
    assert calls.setup.startswith('import { Bowling } from "./bowling.js";\n')


def test_a_text_the_tests_spell_in_lower_case_is_passed_so() -> None:
    # space-age: `age('earth', 1000000000)` where the data says "Earth"; before, the
    # reference answered NaN for every case.
    stub = {"space-age.js": b"export const age = () => {\n  throw 1;\n};\n"}
    tests = {"space-age.spec.js": b"expect(age('earth', 1000000000)).toEqual(31.69);\n"}
    cases = [_case("age", planet="Earth", seconds=1)]
    calls = JAVASCRIPT.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap)
    assert calls.calls == {"age": "age(${planet|lower}, ${seconds})"}


def test_a_member_the_tests_give_one_text_at_a_time_takes_a_list_input_step_by_step() -> None:
    # forth: `forth.evaluate('1 2 +')`, then `forth.stack`, where the data lists the
    # instructions; before, `evaluate` was given the whole list (29 of 47 cases failed).
    stub = {
        "forth.js": b"export class Forth {\n  evaluate() {\n    throw 1;\n  }\n\n"
        b"  get stack() {\n    throw 1;\n  }\n}\n"
    }
    tests = {
        "forth.spec.js": b"import { Forth } from './forth';\nlet forth;\n"
        b"beforeEach(() => {\n  forth = new Forth();\n});\n"
        b"test('adds', () => {\n  forth.evaluate('1 2 +');\n"
        b"  expect(forth.stack).toEqual([3]);\n});\n"
    }
    cases = [_case("evaluate", instructions=["1 2 +"]), _case("evaluate", instructions=["+"])]
    calls = JAVASCRIPT.derive_calls(cases, stub, tests)
    assert isinstance(calls, CallMap), calls
    assert calls.calls == {
        "evaluate": '(await tddFold(new Forth(), "evaluate", ${instructions}, false, "errs"))'
        ".made.stack"
    }
