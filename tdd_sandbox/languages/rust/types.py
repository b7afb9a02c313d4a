"""The crate's own types, read off the stub for a data suite, and how the driver reads or
passes them as data: an enumeration of unit variants is a string, its variant's name in
lower case, words apart (`Bucket::One` is "one", `NotPossible` "not possible"); a struct
of public fields is a record of them, in order (two-bucket's `BucketStats`). A type the
driver cannot read this way (a generic one, a private field, a variant with data) is left
out, and a call that returns it fails to build: the track's tests judge instead."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tdd_sandbox.languages.deriving import split_parameters
from tdd_sandbox.languages.lexing import block_end

_ENUM = re.compile(r"^pub\s+enum\s+(\w+)\s*\{([^{}]*)\}", re.MULTILINE)
_STRUCT = re.compile(r"^pub\s+struct\s+(\w+)\s*\{([^{}]*)\}", re.MULTILINE)
_ATTRIBUTES = re.compile(r"#\[[^\]]*\]")
_VARIANT = re.compile(r"([A-Z]\w*)(?:\s*=\s*[-\w]+)?")
_FIELD = re.compile(r"pub\s+(\w+)\s*:\s*(.+)", re.DOTALL)
_WORD = re.compile(r"\b[A-Z]\w*")
_SPELLING = re.compile(r"[A-Za-z][A-Za-z0-9 _-]{0,63}")


@dataclass(frozen=True)
class OwnTypes:
    """The stub's readable types: each enumeration's variants, each struct's fields, and
    the strings of the cases, which say how the data spells a variant."""

    enums: dict[str, list[str]] = field(default_factory=dict)
    structs: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    words: frozenset[str] = frozenset()

    def spelled(self, variant: str) -> str:
        """A variant as the data spells it: the cases' string of the same letters, case and
        separators aside (`NotPossible` is "not_possible" where the data says so), else in
        lower case, words apart (`One` -> "one", `NotPossible` -> "not possible")."""
        key = variant.lower()
        same = sorted(w for w in self.words if re.sub(r"[\W_]", "", w).lower() == key)
        return same[0] if same else re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", variant).lower()

    def readers(self, crate: str, returned: Iterable[str]) -> str:
        """`Plain` for each own type the `returned` types reach (a struct's fields reach
        theirs), for the driver's setup; only these, so one the driver cannot read
        breaks no call that never returns it."""
        wanted, seen = [name for text in returned for name in _WORD.findall(text)], set()
        blocks = []
        while wanted:
            name = wanted.pop()
            if name in seen:
                continue
            seen.add(name)
            if name in self.enums:
                arms = "".join(
                    f'            {crate}::{name}::{v} => quote("{self.spelled(v)}", out),\n'
                    for v in self.enums[name]
                )
                body = (
                    f"        #[allow(unreachable_patterns)]\n        match self {{\n{arms}"
                    '            _ => out.push_str("null"),\n        }\n'
                )
            elif name in self.structs:
                fields = self.structs[name]
                wanted.extend(n for _, kind in fields for n in _WORD.findall(kind))
                parts = "        out.push(',');\n".join(
                    f"        self.{f}.plain(out);\n" for f, _ in fields
                )
                body = f"        out.push('[');\n{parts}        out.push(']');\n"
            else:
                continue
            blocks.append(
                f"impl Plain for {crate}::{name} {{\n"
                f"    fn plain(&self, out: &mut String) {{\n{body}    }}\n}}\n"
            )
        return "".join(sorted(blocks))

    def argument(self, placeholder: str, kind: str, crate: str) -> str | None:
        """The string `placeholder` as the variant of the enumeration `kind` names (borrowed
        where it is `&Kind`), or None where `kind` is none of the stub's enumerations."""
        name = kind.replace(" ", "").removeprefix("&")
        if name not in self.enums:
            return None
        arms = "".join(f'"{self.spelled(v)}" => {crate}::{name}::{v}, ' for v in self.enums[name])
        chosen = f'(match {placeholder} {{ {arms}_ => panic!("no such {name}") }})'
        return "&" + chosen if kind.strip().startswith("&") else chosen


def read_types(code: str, values: Iterable[object]) -> OwnTypes:
    """The stub's enumerations of unit variants and structs of public fields (`code`: its
    source with comments and literals blanked), spelt as the cases' `values` spell them."""
    types = OwnTypes(words=frozenset(_strings(values)))
    for match in _ENUM.finditer(code):
        items = [_ATTRIBUTES.sub("", v).strip() for v in match[2].split(",")]
        items = [v for v in items if v]
        if items and all(_VARIANT.fullmatch(v) for v in items):
            types.enums[match[1]] = [v.split("=")[0].strip() for v in items]
    for match in _STRUCT.finditer(code):
        found = [
            _FIELD.fullmatch(_ATTRIBUTES.sub("", f).strip()) for f in split_parameters(match[2])
        ]
        if found and all(found):
            types.structs[match[1]] = [(f[1], f[2].strip()) for f in found if f]
    return types


def _strings(values: Iterable[object]) -> Iterable[str]:
    for value in values:
        if isinstance(value, str) and _SPELLING.fullmatch(value):  # safe in a Rust string
            yield value
        elif isinstance(value, list | dict):
            yield from _strings(value.values() if isinstance(value, dict) else value)


_DATETIME_USE = re.compile(r"\buse\s+time::PrimitiveDateTime(?:\s+as\s+(\w+))?\s*;")
DATETIME_SETUP = """\
fn tdd_datetime(text: &str) -> time::PrimitiveDateTime {
    let parts: Vec<u32> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().expect("a number"))
        .collect();
    let at = |k: usize| parts.get(k).copied().unwrap_or(0);
    let month = time::Month::try_from(at(1) as u8).expect("a month");
    let day = time::Date::from_calendar_date(at(0) as i32, month, at(2) as u8).expect("a date");
    let clock = time::Time::from_hms(at(3) as u8, at(4) as u8, at(5) as u8).expect("a time");
    time::PrimitiveDateTime::new(day, clock)
}
impl Plain for time::PrimitiveDateTime {
    fn plain(&self, out: &mut String) {
        let (month, day) = (u8::from(self.month()), self.day());
        let (hour, minute, second) = (self.hour(), self.minute(), self.second());
        let text = format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year(), month, day, hour, minute, second
        );
        quote(&text, out)
    }
}
"""
"""The driver's making (`tdd_datetime`) and reading of a `PrimitiveDateTime`."""


def datetime_names(code: str) -> set[str]:
    """The names the stub gives the `time` crate's `PrimitiveDateTime` (gigasecond's
    `use time::PrimitiveDateTime as DateTime;`): a parameter of one takes the data's ISO
    text, and an answer of one reads as it (`2043-01-01T01:46:40`)."""
    names = set()
    for match in _DATETIME_USE.finditer(code):
        names.add(match[1] or "PrimitiveDateTime")
    if "time::PrimitiveDateTime" in code:
        names.add("time::PrimitiveDateTime")
    return names


_ALIAS = re.compile(r"^pub\s+type\s+(\w+)\s*=\s*([^;]+);", re.MULTILINE)
_IMPL = re.compile(r"^impl(?:\s*<[^>{]*>)?\s+(\w+)\s*(<[^>{]*>)?\s*\{", re.MULTILINE)
_METHOD = re.compile(r"\bpub\s+fn\s+(\w+)\s*(?:<[^>]*>)?\s*\(([^)]*)\)\s*(?:->\s*([^{;]+))?")


@dataclass(frozen=True)
class Impl:
    """An inherent `impl` block at the top level of the crate, as scripts and folds build
    on it: its type, whether that is generic (`impl<T> Buffer<T>`), the parameter types of
    its `new` (None where it has none) and, per method of `&self` or `&mut self`, its
    parameter types after `self` and what it returns."""

    owner: str
    generic: bool
    made: list[str] | None
    methods: dict[str, tuple[list[str], str]]
    makers: dict[str, tuple[list[tuple[str, str]], str]]
    """Per function of no `self` that returns the type (`Self`, or a `Result` or `Option`
    of it: `Scale::chromatic(tonic: &str) -> Result<Scale, Error>`), its parameters as
    name and type, and what it returns."""


def return_types(code: str) -> Callable[[str], str]:
    """How the crate's code reads a type it returns: the type a crate's alias names, as
    what it stands for (forth's `pub type Result = std::result::Result<(), Error>` is a
    `Result<(), Error>`), any other as written."""
    aliases = {match[1]: match[2].strip() for match in _ALIAS.finditer(code)}

    def read(kind: str) -> str:
        kind = aliases.get(kind.strip(), kind.strip())
        return kind.removeprefix("std::result::")

    return read


def read_impls(code: str) -> list[Impl]:
    """Each inherent `impl` block of `code` (literals and comments blank), in order, the
    types its methods return read as `return_types` reads them."""
    returned = return_types(code)
    found = []
    for match in _IMPL.finditer(code):
        at = block_end(code, match.end())
        made: list[str] | None = None
        methods: dict[str, tuple[list[str], str]] = {}
        makers: dict[str, tuple[list[tuple[str, str]], str]] = {}
        for method in _METHOD.finditer(code[match.end() : at - 1]):
            params = split_parameters(method[2])
            kinds = [p.partition(":")[2].strip() for p in params]
            answer = returned(method[3] or "")
            if params and "self" in params[0]:
                methods[method[1]] = (kinds[1:], answer)
                continue
            if method[1] == "new":
                made = kinds
            if re.search(rf"^(?:Result<|Option<)?\s*(?:Self|{match[1]})\b", answer):
                named = [(p.partition(":")[0].replace("mut ", "").strip(), k)
                         for p, k in zip(params, kinds, strict=True)]  # fmt: skip
                makers[method[1]] = (named, answer)
        found.append(Impl(match[1], match[2] is not None, made, methods, makers))
    return found
