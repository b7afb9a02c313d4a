"""JavaScript's objects driven by a script (`scripting`), read off the track's tests, as its
stubs declare no parameters: a class of the stub the tests make (with one number of
arguments), and the members they use on it, each called with one number of arguments or
read as a value (bank-account's `balance`). The setup's `tddScript` takes each step, a
function of the object, in turn; a group's steps run one after another `number` times
(JavaScript runs one thing at a time)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from tdd_sandbox.languages.deriving import Use
from tdd_sandbox.languages.scripting import (
    STEPS,
    Script,
    choose_script,
    is_script,
    scripted,
    step_templates,
)
from tdd_sandbox.vocabulary.cases import CallMap, Case

HELPER = """
const tddScript = (made, ...steps) =>
  steps.map((step) => {
    let answer;
    try {
      answer = step(made);
    } catch (error) {
      if (error instanceof NotPlain) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return { error: String(message), error_type: error instanceof Error ? "Error" : "throw" };
    }
    // Read at once: a later step cannot change what an earlier one said.
    return { value: plain(answer, 1) };
  });
const tddTogether = (times, ...steps) => (made) => {
  for (let run = 0; run < times; run += 1) for (const step of steps) step(made);
};
"""
_READ = -1
"""A member the tests read as a value, never call."""
_SEVERAL = -2
"""A member the tests use more than one way: no operation's."""


def derive_javascript_scripts(
    cases: Sequence[Case], imports: Mapping[str, str], uses: Iterable[Use]
) -> CallMap | None:
    """The calls that perform every case by a script on the one class of `imports` (class
    -> the line that imports it) whose members, as `uses` use them, perform every
    operation; None where no one class does."""
    if not is_script(cases):
        return None
    made: dict[str, set[int]] = defaultdict(set)
    members: dict[str, dict[str, int]] = defaultdict(dict)
    for use in uses:
        if use.static or use.owner not in imports:
            continue
        made[use.owner].add(use.made_with)
        way = _READ if use.given is None else use.given
        if members[use.owner].setdefault(use.member, way) != way:
            members[use.owner][use.member] = _SEVERAL
    found = []
    for owner, counts in sorted(made.items()):
        if len(counts) != 1:
            continue
        arities = {m: 0 if way == _READ else way for m, way in members[owner].items()}
        script = choose_script(cases, owner, arities, counts.pop(), lambda name: [name])
        if isinstance(script, Script):
            found.append(script)
    if len(found) != 1:
        return None
    script = found[0]

    def step(member: str, given: tuple[str, ...]) -> str:
        if members[script.owner][member] == _READ:
            return f"(tddMade) => tddMade.{member}"
        return f"(tddMade) => tddMade.{member}({', '.join(given)})"

    steps = step_templates(script, step, lambda times: f"tddTogether({times}, {STEPS})")
    made_with = ", ".join("${" + name + "}" for name in script.made_with)
    call = f"tddScript(new {script.owner}({made_with}), {STEPS})"
    return scripted(cases, call, steps, setup=f"{imports[script.owner]}\n{HELPER}")
