"""Members named by an input's value: where a track's tests ask an object a different member
for each value of a text input (C++'s space-age: `age.on_earth()`, `age.on_mercury()` for
the data's planet "Earth", "Mercury"), the call names the member from the case's value
(`${planet|name}`: the value as a name, in lower case, words apart by `_`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from tdd_sandbox.languages.deriving import Use
from tdd_sandbox.vocabulary.cases import Case

_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def as_name(value: object) -> str | None:
    """A text as a member's name: lower case, its words apart by `_` (`"Earth"` -> `earth`,
    `"New York"` -> `new_york`); None where it makes no name (anything but letters, digits,
    spaces and `-`, or a digit first)."""
    if not isinstance(value, str):
        return None
    named = re.sub(r"[\s-]+", "_", value.strip()).lower()
    return named if _NAME.fullmatch(named) else None


def valued_uses(cases: Sequence[Case], uses: Iterable[Use]) -> dict[str, Use] | None:
    """For a kata of one property: the use whose member is named by one text input's value
    in every case (the same words before and after it), made with the other inputs and
    given none; its member spelled with `${input|name}`. None where no input names the
    members so, or two do."""
    properties = {case.property for case in cases}
    if len(properties) != 1:
        return None
    prop = properties.pop()
    keys = list(cases[0].input)
    found: set[Use] = set()
    for key in keys:
        values = [case.input.get(key) for case in cases]
        named = [as_name(v) for v in values]
        if None in named:
            continue
        names = [str(name) for name in named]
        others = len(keys) - 1
        for use in {u for u in uses if u.given == 0 and u.made_with == others}:
            if names[0] not in use.member:
                continue
            before, _, after = use.member.partition(names[0])
            members = {u.member for u in uses if u.owner == use.owner and u.given == 0}
            if all(f"{before}{name}{after}" in members for name in names):
                spelled = f"{before}${{{key}|name}}{after}"
                found.add(Use(use.owner, others, spelled, 0, kinds=use.kinds))
    if len(found) != 1:
        return None
    return {prop: found.pop()}
