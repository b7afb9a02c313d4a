"""JavaScript's objects built step by step (`folding`): the classes the track's tests make
without arguments, their methods as the tests call them, and a call that replays a list
input on one, then asks the property. The stubs declare no parameters: the tests' calls
say how many each method takes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tdd_sandbox.languages.deriving import Use
from tdd_sandbox.languages.folding import choose_folds
from tdd_sandbox.vocabulary.cases import CallMap, Case

HELPER = """
const tddSaid = (error) => {
  // The error's text is the code's own, and may throw: read inside the step.
  try {
    return String(error instanceof Error ? error.message : error);
  } catch {
    return "an error whose text cannot be read";
  }
};
const tddFold = async (made, step, items, spread, last = "fails") => {
  const final = last === "fails" ? -1 : items.length - 1;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    try {
      // One call for every step, the one the case asks too: no stack tells them apart. A
      // thenable it answers settles here, inside the step, and the asked step's answer is
      // read as plain data here too: nothing of a step's outcome is decided after it.
      const answer = await (spread ? made[step](...item) : made[step](item));
      if (index === final && last === "answers") return plain(answer, 1);
    } catch (error) {
      if (index === final) throw error;
      // A step that throws fails the case, never passes one that expects an error: the
      // object answers whatever it is asked with what failed.
      const said = `${step}(${JSON.stringify(item)}) threw ${tddSaid(error)}`;
      return { made: new Proxy({}, { get: () => () => said }) };
    }
  }
  // Boxed: the code's object may be a thenable, which an async return would settle.
  return { made };
};
"""


def derive_javascript_folds(
    cases: Sequence[Case], imports: Mapping[str, str], uses: Iterable[Use]
) -> CallMap | None:
    """The calls of `folding.choose_folds` on the classes of `imports` (class -> the line
    that imports it) that `uses` make without arguments; None where none is built so."""
    arities: dict[str, dict[str, set[int | None]]] = {}
    made_bare = {use.owner for use in uses if use.made_with == 0 and not use.static}
    for use in uses:
        if use.owner in made_bare and use.owner in imports:
            arities.setdefault(use.owner, {}).setdefault(use.member, set()).add(use.given)
    read = {  # members the tests read as values, never call (forth's `stack`)
        (owner, member)
        for owner, members in arities.items()
        for member, counts in members.items()
        if counts == {None}
    }
    classes = {
        owner: {member: counts.pop() or 0 for member, counts in members.items() if len(counts) == 1}
        for owner, members in arities.items()
    }
    chosen = choose_folds(cases, classes, lambda prop: [prop], readers=True)
    if isinstance(chosen, str):
        return None
    calls = {}
    for prop, fold in chosen.items():
        spread = "true" if fold.spread else "false"
        given = ", ".join("${" + name + "}" for name in fold.given)
        if fold.replayed:
            last = f"[{given}]" if fold.spread else given
            replay = f'[...${{{fold.items}}}, {last}], {spread}, "answers"'
            calls[prop] = f'await tddFold(new {fold.owner}(), "{fold.step}", {replay})'
            continue
        how = ', "errs"' if fold.reads else ""
        built = f'tddFold(new {fold.owner}(), "{fold.step}", ${{{fold.items}}}, {spread}{how})'
        asked = "" if (fold.owner, fold.member) in read else f"({given})"
        calls[prop] = f"(await {built}).made.{fold.member}{asked}"
    owner = next(iter(chosen.values())).owner
    return CallMap(setup=f"{imports[owner]}\n{HELPER}", calls=calls)
