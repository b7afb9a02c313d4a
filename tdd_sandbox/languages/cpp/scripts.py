"""C++'s objects driven by a script (`scripting`), read off the track's tests, as its stubs
declare nothing: an object of the namespace the tests make and name (`circular_buffer::
circular_buffer<int> buffer(1);`, `Bankaccount::Bankaccount account{};`) and the members
they call on that name, each with the one number of arguments they pass it. The driver's
`script` makes the object once (it may be neither copied nor moved: a mutex), then takes
each step, a lambda on it; a group's steps run at once by its `together`."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

from tdd_sandbox.languages.deriving import Source, arguments_at
from tdd_sandbox.languages.scripting import (
    STEPS,
    Script,
    choose_script,
    is_script,
    scripted,
    step_templates,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

_MADE = re.compile(
    r"(?<![\w:])(?P<space>\w+)::(?P<type>\w+)\s*(?P<arguments><[\w:\s,<>]*>)?"
    r"\s+(?P<name>\w+)\s*(?P<open>[({;])"
)
_SEVERAL = -1
"""An arity the tests pass a member with more than one of: no operation's."""


def derive_cpp_scripts(
    cases: Sequence[Case],
    source: Source,
    spaces: set[str],
    setup: str,
    names: Callable[[str], Sequence[str]],
) -> CallMap | None:
    """The calls that perform every case by a script on the one type of the `spaces` the
    tests make objects of whose members perform every operation (as `names` spells an
    operation), or of several the one they make most; None where no one type does."""
    if not is_script(cases):
        return None
    members: dict[str, dict[str, int]] = defaultdict(dict)
    made: dict[str, set[int | None]] = defaultdict(set)
    times: Counter[str] = Counter()
    for match in _MADE.finditer(source.code):
        if match["space"] not in spaces:
            continue
        arguments = re.sub(r"\s+", "", match["arguments"] or "")
        owner = f"{match['space']}::{match['type']}{arguments}"
        count = 0 if match["open"] == ";" else arguments_at(source, match.end())[0]
        made[owner].add(count)
        times[owner] += 1
        for member in re.finditer(rf"(?<![\w.]){match['name']}\s*\.\s*(\w+)\s*\(", source.code):
            given, _ = arguments_at(source, member.end())
            seen = members[owner].setdefault(member[1], _SEVERAL if given is None else given)
            if seen != given:
                members[owner][member[1]] = _SEVERAL
    found = []
    for owner, counts in sorted(made.items()):
        if len(counts) != 1 or (count := counts.pop()) is None:
            continue
        script = choose_script(cases, owner, members[owner], count, names)
        if isinstance(script, Script):
            found.append(script)
    # Of types alike but for their arguments, the one the tests make most (a buffer of `int`,
    # as the data's items are, beside one test's buffer of `std::string`).
    most = max((times[script.owner] for script in found), default=0)
    found = [script for script in found if times[script.owner] == most]
    if len(found) != 1:
        return None
    script = found[0]
    steps = step_templates(
        script,
        lambda member, given: (
            f"[](auto& tdd_made) {{ return tdd_made.{member}({', '.join(given)}); }}"
        ),
        lambda times: f"tdd_acceptance::together({times}, {STEPS})",
    )
    made_with = ", ".join("${" + name + "}" for name in script.made_with)
    maker = f"[] {{ return std::make_unique<{script.owner}>({made_with}); }}"
    call = f"tdd_acceptance::script({maker}, {STEPS})"
    return scripted(cases, call, steps, setup=setup)
