"""What every pack's `derive_calls` shares: which of the stub's functions performs each
canonical property, and which of the case's inputs each of its parameters takes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from tdd_sandbox.languages.naming import extended_name, same_words, worded_name
from tdd_sandbox.vocabulary.cases import Case


@dataclass(frozen=True)
class Chosen:
    """The function that performs a property, and the inputs its call passes, in order."""

    function: str
    arguments: tuple[str, ...]
    constants: tuple[str, ...] = ()
    """Source text passed after the arguments, for parameters the data gives nothing
    (`choose_functions`' `fixed`)."""


def choose_functions(
    cases: Sequence[Case],
    functions: Mapping[str, Sequence[str]],
    names: Callable[[str], Sequence[str]],
    *,
    unnamed: bool = False,
    fixed: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Chosen] | str:
    """Per property, the stub's function of one of its `names` (how the track spells the
    property), or of those and more words (`naming.extended_name`), or of its words in
    another order or form (`naming.same_words`); or, for a kata of one property, the stub's
    one function, or its one function that takes as many parameters as the property gives
    inputs; its parameters take
    the inputs of the same names, or as many in the canonical order (the reference's proof
    confirms the order, or the track's tests judge instead). With `unnamed`, a function that
    declares no parameters takes every input in that order (JavaScript's stubs leave them
    out). Where a function takes more parameters than the property gives inputs, its last
    ones take the source text `fixed` names for them (what every call of the track's tests
    passes there: parallel-letter-frequency's worker count). A reason where there is none."""
    properties = list(dict.fromkeys(case.property for case in cases))
    chosen: dict[str, Chosen] = {}
    for prop in properties:
        tried = list(names(prop))
        name = next((n for n in tried if n in functions), None) or extended_name(tried, functions)
        name = name or worded_name(prop, functions)
        if name is None and len(properties) == 1:
            name = _by_arity(functions, [case.input for case in cases])
        if name is None:
            return f"no function of the stub performs the property {prop} ({', '.join(tried)})"
        params = list(functions[name])
        given = [case.input for case in cases if case.property == prop]
        keys = list(dict.fromkeys(key for inputs in given for key in inputs))
        if any(set(inputs) != set(keys) for inputs in given):
            return f"the cases of {prop} do not all give the same inputs"
        flat = _fields(keys, given)
        arguments = _arguments(params, keys, flat, unnamed=unnamed)
        constants: tuple[str, ...] = ()
        missing = len(params) - len(keys)
        tail = (fixed or {}).get(name, ())
        if arguments is None and 0 < missing <= len(tail):
            # Only where the inputs fit no other way: a record's fields may be its last ones.
            constants = tuple(tail[len(tail) - missing :])
            arguments = _arguments(params[: len(keys)], keys, keys, unnamed=False)
        if arguments is None:
            return f"{name} takes {len(params)} arguments where {prop} gives {len(keys)}"
        chosen[prop] = Chosen(name, tuple(arguments), constants)
    return chosen


def _arguments(
    params: Sequence[str], keys: Sequence[str], flat: Sequence[str], *, unnamed: bool
) -> Sequence[str] | None:
    """The inputs `params` take: by name, else in order as many as there are, or as many
    once records are taken field by field (`flat`); None where they fit none of these."""
    if set(params) == set(keys):
        return params
    if len(params) == len(keys) or (unnamed and not params):
        return keys
    return flat if len(params) == len(flat) else None


def spread_cases(cases: Sequence[Case]) -> list[Case]:
    """The cases with each list input that is of one length in every case of its property
    given item by item (`sides` as `sides.0`, `sides.1`, `sides.2`): where the tests pass the
    items apart (triangle's `new Triangle(2, 2, 2)`)."""
    lengths: dict[tuple[str, str], set[int | None]] = {}
    for case in cases:
        for key, value in case.input.items():
            length = len(value) if isinstance(value, list) else None
            lengths.setdefault((case.property, key), set()).add(length)
    spread = []
    for case in cases:
        given: dict[str, object] = {}
        for key, value in case.input.items():
            if isinstance(value, list) and len(lengths[case.property, key]) == 1 and value:
                given.update((f"{key}.{k}", item) for k, item in enumerate(value))
            else:
                given[key] = value
        spread.append(replace(case, input=given))
    return spread


def most_said(said: Counter[str]) -> str | None:
    """What more than half of the track's calls say (a literal, a keyword's spelling); None
    where nothing does: the tests' own variations (parallel-letter-frequency's 1 and 3
    workers beside 4, proverb's qualifier) are outvoted, a split is no guess."""
    if not said:
        return None
    most, times = said.most_common(1)[0]
    return most if times * 2 > said.total() else None


def _fields(keys: Sequence[str], given: Sequence[Mapping[str, object]]) -> list[str]:
    """The inputs with each record (an input that is a map of the same fields in every
    case) taken field by field, in order: affine-cipher's `key: {a, b}` is `key.a, key.b`
    where the track's `encode(text, a, b)` takes them apart."""
    flat: list[str] = []
    for key in keys:
        values = [inputs[key] for inputs in given]
        fields = [tuple(v) if isinstance(v, dict) else None for v in values]
        if fields[0] and all(f == fields[0] for f in fields):
            flat.extend(f"{key}.{field}" for field in fields[0])
        else:
            flat.append(key)
    return flat


def _by_arity(
    functions: Mapping[str, Sequence[str]], given: list[Mapping[str, object]]
) -> str | None:
    """The stub's one function, or its one function of the cases' arity (Java's twelve-days
    sings `verse(n)`, `verses(start, end)` or the song: recite is `verses`)."""
    if len(functions) == 1:
        return next(iter(functions))
    arity = {len(inputs) for inputs in given}
    fitting = [name for name, params in functions.items() if {len(params)} == arity]
    return fitting[0] if len(fitting) == 1 else None


@dataclass(frozen=True)
class Use:
    """How the track's tests use one of the stub's objects: made by `owner` with `made_with`
    arguments, then its `member` called with `given` arguments (None: read as a value):
    `Scale("C").interval("MMm")`, `PhoneNumber(text).number`; or a `static` member of the
    class itself."""

    owner: str
    made_with: int
    member: str
    given: int | None
    static: bool = False
    """A member of the class itself, no object made (JavaScript's `House.verses(1, 2)`)."""
    kinds: tuple[str | None, ...] = field(default=(), compare=False)
    """The kind of each literal the tests pass it, made with and given in turn (`kinds`)."""

    @property
    def arity(self) -> int:
        """How many inputs the use takes in all."""
        return self.made_with + (self.given or 0)

    def spelled(self, inputs: Sequence[str], maker: str = "") -> str:
        """The use as a call template: the object made (`maker`: JavaScript's `new `) with
        the first inputs, its member given the rest, or read; a static member of the class
        given them all."""
        if self.static:
            given = "" if self.given is None else f"({', '.join(inputs)})"
            return f"{self.owner}.{self.member}{given}"
        made = f"{maker}{self.owner}({', '.join(inputs[: self.made_with])})"
        given = "" if self.given is None else f"({', '.join(inputs[self.made_with :])})"
        return f"{made}.{self.member}{given}"


def choose_uses(
    cases: Sequence[Case], uses: Iterable[Use], names: Callable[[str], Sequence[str]]
) -> dict[str, Use] | str:
    """Per property, the one way the tests use an object for it that takes as many inputs
    as the property gives: a member of one of its `names` (the track's spelling, a getter's
    `get_`) or of its words (`naming.same_words`), or, for a kata of one property, the one
    member the tests use so, or use more often than any other so (`uses` holds each once per
    use where the pack counts them: phone-number's tests read `.number` most, `.area_code`
    and `.pretty()` a test or two); for the one property of several that no member is named
    for, the one member of the same objects that no other property takes.
    A reason where there is none, or more than one."""
    properties = list(dict.fromkeys(case.property for case in cases))
    counted = Counter(uses)
    chosen: dict[str, Use] = {}
    unnamed: dict[str, set[Use]] = {}
    for prop in properties:
        inputs = {len(case.input) for case in cases if case.property == prop}
        if len(inputs) != 1:
            return f"the cases of {prop} do not all give the same inputs"
        count = inputs.pop()
        fitting = {use for use in counted if use.arity == count}
        named = {use for use in fitting if use.member in names(prop)} or {
            use for use in fitting if same_words(prop, use.member)
        }
        found = named or (_most_used(fitting, counted) if len(properties) == 1 else set())
        if not found and len(properties) > 1:
            unnamed[prop] = fitting
            continue
        if len(found) != 1:
            how = "no" if not found else "more than one"
            return f"the track's tests use {how} object's member for the property {prop}"
        chosen[prop] = found.pop()
    if len(unnamed) == 1 and chosen:
        # The one property no member is named for (allergies' `list`): the one member left
        # of the objects the others use, that takes as many inputs (`get_allergies()`).
        ((prop, fitting),) = unnamed.items()
        owners = {use.owner for use in chosen.values()}
        taken = {use.member for use in chosen.values()}
        left = {use for use in fitting if use.owner in owners and use.member not in taken}
        if len(left) == 1:
            chosen[prop] = left.pop()
            return {prop: chosen[prop] for prop in properties}
    if unnamed:
        return f"the track's tests use no object's member for the property {next(iter(unnamed))}"
    return chosen


def _most_used(fitting: set[Use], counted: Counter[Use]) -> set[Use]:
    """The one use of `fitting` made more often than any other, else them all."""
    ranked = sorted(fitting, key=lambda use: counted[use], reverse=True)
    if len(ranked) > 1 and counted[ranked[0]] > counted[ranked[1]]:
        return {ranked[0]}
    return fitting


@dataclass(frozen=True)
class Source:
    """Tests as `code` (literals and comments blanked by the pack's reader, lengths kept)
    beside their `text`."""

    code: str
    text: str


def arguments_at(source: Source, start: int) -> tuple[int | None, int]:
    """How many arguments the call whose `(` ends before `start` passes (a literal, blank in
    the code, counts: the text shows it), and where the call ends; None where it does not
    end, or spreads a list of unknown length (`...`)."""
    depth, commas = 1, 0
    for at in range(start, len(source.code)):
        char = source.code[at]
        depth += (char in "([{") - (char in ")]}")
        if depth == 0:
            if "..." in source.code[start:at]:
                return None, at + 1
            return (commas + 1 if source.text[start:at].strip() else 0), at + 1
        commas += char == "," and depth == 1
    return None, len(source.code)


def is_rows(value: object) -> bool:
    """Whether an input is a list of strings: rows a track may take as one text of lines."""
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def by_module(chosen: Mapping[str, Chosen], modules: Mapping[str, str]) -> dict[str, list[str]]:
    """The chosen functions grouped by the module (`modules`: function -> module) a setup
    imports them from, each group sorted, the modules in order."""
    grouped: dict[str, set[str]] = {}
    for call in chosen.values():
        grouped.setdefault(modules[call.function], set()).add(call.function)
    return {module: sorted(names) for module, names in sorted(grouped.items())}


def split_parameters(text: str, brackets: str = "<([") -> list[str]:
    """A parameter list split at its commas outside the `brackets` (and their closers):
    `a: HashMap<K, V>, b: u8` -> two parameters. Blank ones are dropped."""
    closers = {"<": ">", "(": ")", "[": "]", "{": "}"}
    closing = "".join(closers[b] for b in brackets)
    parts, depth, current = [], 0, ""
    for char in text:
        depth += (char in brackets) - (char in closing)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [part for part in [*parts, current] if part.strip()]
