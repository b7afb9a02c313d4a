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
const tddFold = (made, step, items, spread, replayed = false) => {
  const last = replayed ? items.length - 1 : -1;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    let answer;
    try {
      // One call for every step, the one the case asks too: no stack tells them apart.
      answer = spread ? made[step](...item) : made[step](item);
    } catch (error) {
      if (index === last) throw error;
      // A step that throws fails the case, never passes one that expects an error: the
      // object answers whatever it is asked with what failed.
      const said = `${step}(${JSON.stringify(item)}) threw ${error}`;
      return new Proxy({}, { get: () => () => said });
    }
    if (index === last) return answer;
  }
  return made;
};
"""


def derive_javascript_folds(
    cases: Sequence[Case], imports: Mapping[str, str], uses: Iterable[Use]
) -> CallMap | None:
    """The calls of `folding.choose_folds` on the classes of `imports` (class -> the line
    that imports it) that `uses` make without arguments; None where none is built so."""
    arities: dict[str, dict[str, set[int]]] = {}
    made_bare = {use.owner for use in uses if use.made_with == 0 and not use.static}
    for use in uses:
        if use.owner in made_bare and use.owner in imports and use.given is not None:
            arities.setdefault(use.owner, {}).setdefault(use.member, set()).add(use.given)
    classes = {
        owner: {member: counts.pop() for member, counts in members.items() if len(counts) == 1}
        for owner, members in arities.items()
    }
    chosen = choose_folds(cases, classes, lambda prop: [prop])
    if isinstance(chosen, str):
        return None
    calls = {}
    for prop, fold in chosen.items():
        spread = "true" if fold.spread else "false"
        given = ", ".join("${" + name + "}" for name in fold.given)
        if fold.replayed:
            last = f"[{given}]" if fold.spread else given
            replay = f"[...${{{fold.items}}}, {last}], {spread}, true"
            calls[prop] = f'tddFold(new {fold.owner}(), "{fold.step}", {replay})'
            continue
        built = f'tddFold(new {fold.owner}(), "{fold.step}", ${{{fold.items}}}, {spread})'
        calls[prop] = f"{built}.{fold.member}({given})"
    owner = next(iter(chosen.values())).owner
    return CallMap(setup=f"{imports[owner]}\n{HELPER}", calls=calls)
