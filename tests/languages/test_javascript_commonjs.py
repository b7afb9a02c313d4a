"""A track's CommonJS reference read as the ES module the kata's package is."""

from __future__ import annotations

import pytest

from tdd_sandbox.languages.javascript.commonjs import as_es_module


def test_the_forms_of_commonjs_become_their_es_forms() -> None:
    # word-search's `.meta/proof.ci.js` ends `module.exports = WordSearch;` where its spec
    # imports the default: "does not provide an export named 'default'", not proved.
    text = (
        "const fs = require('fs');\n"
        'const { resolve: resolvePath, relative } = require("path");\n'
        "// module.exports = Nothing;\n"
        "class WordSearch {}\n"
        "exports.helper = () => 'require(x)';\n"
        "module.exports = WordSearch;\n"
    )
    assert as_es_module(text) == (
        'import fs from "fs";\n'
        'import { resolve as resolvePath, relative } from "path";\n'
        "// module.exports = Nothing;\n"
        "class WordSearch {}\n"
        "export const helper = () => 'require(x)';\n"
        "export default WordSearch;\n"
    )
    assert as_es_module("const a = 1, b = 2;\nmodule.exports = { a, c: b };\n") == (
        "const a = 1, b = 2;\nexport { a, b as c };\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "export default class A {}\n",  # an ES module already
        "class A {}\n",  # no module system at all
        "if (main) {\n  module.exports.f = f;\n}\n",  # an export inside a branch
        "const f = require('x').f;\nmodule.exports = f;\n",  # require in an expression
        "module.exports = { a: { b } };\n",  # a nested pattern
    ],
)
def test_anything_else_stays_as_it_is(text: str) -> None:
    assert as_es_module(text) is None
