"""A fast static policy on what models write, checked before anything runs.

The model's code runs in the same process as the test runner, so it could patch the runner,
rewrite the results after the run, walk up to the test's frame, or hand back a value that
equals anything. None of that is needed to solve a kata. Each language pack's policy
(`languages/<language>/policy.py`) refuses the means: a handful of modules, builtins and
attributes in Python; process, environment, FFI and link-time hooks in Rust; and so on. What
code may import is an allow-list per pack (the computing parts of the standard library and the
kata's own modules), since every standard library has unlisted routes to a forbidden
capability (#24); a kata widens it by rule name (`allow:` in its front matter). The rejection
goes back to the model as feedback and is recorded as tamper (`policy`).

There is no registry to look the policy up in: it is a part of the language pack the caller
holds, and a pack without one cannot be made, so no language runs model code unchecked.

It is one layer of several (sentinels and independent result channels are the others): a
determined obfuscation may slip past a static check, and the hidden acceptance suite, judged
outside the model's process, is what a score rests on.
"""

from __future__ import annotations

from collections.abc import Mapping

from tdd_sandbox.languages.base import Language
from tdd_sandbox.vocabulary.violation import Violation


def check_policy(
    language: Language,
    files: Mapping[str, bytes],
    *,
    tree: Mapping[str, bytes] | None = None,
    allow: frozenset[str] = frozenset(),
) -> list[Violation]:
    """Violations in `files` (the ones a model changed) of the language's code, each read as
    its compiler reads it, minus the rules the kata allows. `tree` is the whole repository the
    files are part of (`files` alone when None): a pack's allow-list takes the kata's own
    modules from it."""
    whole = files if tree is None else tree
    found = []
    for path, data in sorted(files.items()):
        if path.endswith(language.source_suffixes):
            text = language.read_source(data)
            is_test = language.is_test_path(path)
            found.extend(language.check_source(path, text, is_test=is_test, tree=whole))
    return [v for v in found if v.rule not in allow and v.rule.split(":")[0] not in allow]


def worst(found: list[Violation]) -> Violation:
    """The violation a refusal is named by: a means of forging a verdict before text the judge
    merely could not read. `found` is not empty."""
    return next((v for v in found if not v.unreadable), found[0])
