"""Policies as allow-lists (#24): code may use the computing parts of the standard library and
the kata's own modules; anything else is refused by its name, aliases and dot imports resolved
first. Every attack below passed the block-list policies before them."""

from __future__ import annotations

import pytest

from tdd_sandbox.grading.policy import check_policy
from tdd_sandbox.languages.cpp.policy import check_cpp
from tdd_sandbox.languages.go.policy import check_go
from tdd_sandbox.languages.java.policy import check_java
from tdd_sandbox.languages.javascript.policy import check_javascript
from tdd_sandbox.languages.python.policy import check_python
from tdd_sandbox.languages.registry import get_language
from tdd_sandbox.languages.rust.policy import check_rust
from tdd_sandbox.vocabulary.violation import Violation


def rules(found: list[Violation]) -> set[str]:
    return {v.rule for v in found}


@pytest.mark.parametrize(
    "source",
    [
        # string.Formatter's get_field walks a field name with no braces round it.
        "import string\nf = string.Formatter().get_field('0.__globals__', [len], {})\n",
        "from string import Formatter\nv = Formatter().vformat('{0.__init__}', [1], {})\n",
        # A template built at run time: no constant holds the walk for a reader to see.
        "def f(g):\n    return ('{0.' + '__glo' + 'bals__}').format(g)\n",
        "def f(g, t):\n    return t.format(g)\n",
        "def f(g):\n    t = '{0.' + 'x}'\n    return t.format_map({'0': g})\n",
        "def f(g):\n    return str.format('{0' + '.__class__}', g)\n",
        # The same reads, spelled as a method handed on or named as data.
        "def f(g, t):\n    fmt = t.format\n    return fmt(g)\n",
        "def f(g, t):\n    fmt = str.format\n    return fmt(t, g)\n",
        "def f(g, t):\n    return getattr(t, 'format')(g)\n",
        "import string\nread = string.Formatter().get_field\nv = read('0.' + 'x', [1], {})\n",
    ],
)
def test_python_refuses_every_attribute_walk_in_a_format_field(source: str) -> None:
    found = rules(check_python("impl.py", source))
    assert any(rule.startswith(("attr:format", "format:")) for rule in found), found


def test_python_formats_with_templates_a_reader_sees() -> None:
    source = (
        "VERSE = '{count} green bottles hanging on the wall'\n\n"
        "def verse(count: int) -> str:\n    return VERSE.format(count=count)\n\n"
        "def line(n: int) -> str:\n    return '{} and {}'.format(n, n + 1) + f'{n:>3}'\n"
    )
    assert check_python("impl.py", source) == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        # The warnings+linecache reader of #24: neither module was on the block-list.
        ("import linecache\n", "import:linecache"),
        ("import warnings\n", "import:warnings"),
        ("import tokenize\n", "import:tokenize"),
        ("import os.path\n", "import:os"),
        ("from io import open as o\n", "import:io"),
        # A module of the standard library reached through an allowed one's attribute.
        (
            "import dataclasses\nf = dataclasses.inspect.currentframe()\n",
            "attr:dataclasses.inspect",
        ),
        ("import typing\nm = typing.sys.modules\n", "attr:typing.sys"),
        ("from dataclasses import inspect\n", "attr:dataclasses.inspect"),
        ("import random\nrandom._os.system('sh')\n", "attr:random._os"),
        ("import enum as e\nm = e.sys.modules\n", "attr:enum.sys"),
        # ... or through a chain of allowed ones, or a module imported by name from one.
        ("import re\nm = re.enum.sys.modules\n", "attr:re.enum.sys"),
        ("import fractions\nm = fractions.re.enum.sys\n", "attr:fractions.re.enum.sys"),
        ("from re import enum\nm = enum.sys.modules\n", "attr:re.enum.sys"),
        # Names built at run time, where no reader of the text sees them.
        ("import sys\nm = getattr(sys, 'mod' + 'ules')\n", "module:sys"),
        ("import math\nspace = vars\n", "call:vars"),
        ("def f(g):\n    return getattr(g, '__glo' + 'bals__')\n", "call:getattr"),
        ("import operator\nf = operator.attrgetter('__glo' + 'bals__')\n", "call:attrgetter"),
        ("import operator\nf = operator.attrgetter('__globals__')\n", "attr:__globals__"),
        ("def f(g):\n    return getattr(g, '__globals__')\n", "attr:__globals__"),
        ("import sys\ns = sys\n", "module:sys"),
        ("import sys\nsys.stdin.read()\n", "attr:sys.stdin"),
    ],
)
def test_python_takes_only_what_is_listed(source: str, rule: str) -> None:
    assert rule in rules(check_python("impl.py", source))


def test_python_own_modules_are_what_the_sandbox_has_nothing_else_under() -> None:
    # A RED test imports the module it asks for before the module exists.
    test = "from fizzbuzz import fizzbuzz\nfrom helpers.text import pad\nimport pytest\n"
    assert check_python("tests/test_f.py", test, is_test=True) == []
    assert check_python("impl.py", "from .helpers import text\nimport kata\n") == []
    # A file of the tree named as a package the sandbox's Python has gets that package, not
    # the file: the runner's own plug-in manager is no module of the kata's.
    shadow = check_python("impl.py", "import pluggy\n")
    assert "import:pluggy" in rules(shadow)
    assert "import:_pyrepl" in rules(check_python("impl.py", "import _pyrepl\n"))


def test_python_honest_code_is_untouched() -> None:
    source = (
        "from __future__ import annotations\n\nimport math\nimport re\nimport sys\n"
        "from collections import Counter, defaultdict\nfrom collections.abc import Iterable\n"
        "from dataclasses import dataclass, field\nfrom enum import Enum\n"
        "from fractions import Fraction\nfrom functools import reduce\n"
        "from itertools import chain\nfrom typing import NamedTuple\nimport operator\n\n"
        "sys.setrecursionlimit(5000)\nLIMIT = sys.maxsize\n"
        "add = operator.attrgetter('real')\nname = getattr(Enum, 'name', None)\n"
    )
    assert check_python("impl.py", source) == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        # An alias or a dot import of fmt printed past the old check (#24).
        ('import f "fmt"\n\nfunc F() { f.Println("--- PASS: TestX") }\n', "print"),
        ('import . "fmt"\n\nfunc F() { Println("--- PASS: TestX") }\n', "print"),
        ('import (\n\tout "fmt"\n)\n\nfunc F() { out.Printf("x") }\n', "print"),
        # The go/parser reader of #24.
        ('import "go/parser"\n', "import:go/parser"),
        ('import "log"\n', "import:log"),
        ('import x "os/exec"\n', "import:os/exec"),
        ('import "example.com/answers"\n', "import:example.com/answers"),
    ],
)
def test_go_takes_only_what_is_listed(source: str, rule: str) -> None:
    assert rule in rules(check_go("kata.go", "package kata\n\n" + source))


def test_go_own_packages_come_from_go_mod() -> None:
    tree = {"go.mod": b"module leap\n\ngo 1.22\n", "internal/years/years.go": b""}
    source = 'package leap\n\nimport (\n\t"strings"\n\t"leap/internal/years"\n)\n'
    assert check_go("leap.go", source, tree=tree) == []
    assert "import:leap/internal/years" in rules(check_go("leap.go", source))
    honest = 'package k\n\nimport (\n\t"fmt"\n\t"reflect"\n\t"sort"\n\t"strconv"\n)\n\n'
    body = "func F(a, b []int) string { return fmt.Sprint(reflect.DeepEqual(a, b)) }\n"
    assert check_go("k.go", honest + body) == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        # The macro-built path of #24: `std::fs` never appears as text.
        (
            'macro_rules! p { ($m:ident, $f:ident) => { std::$m::$f("t") }; }\n'
            "pub fn f() { let _ = p!(fs, read_to_string); }\n",
            "macro-path",
        ),
        ('use std as s;\npub fn f() { let _ = s::fs::read("t"); }\n', "alias"),
        ("use ::std as s;\n", "alias"),
        ("use std::{self as s};\n", "alias"),
        ("extern crate std as s;\n", "extern-crate"),
        ("extern crate test;\n", "extern-crate"),
        ("use std::*;\n", "use:std::*"),
        # Finding the caller (#24): Location::caller() under #[track_caller].
        ("pub fn f() -> u32 { std::panic::Location::caller().line() }\n", "use:std::panic"),
        ("pub fn f() -> u32 { core::panic::Location::caller().line() }\n", "use:core::panic"),
        ("use std::{io::Read, net};\n", "use:std::io"),
        ("use std::{io::Read, net};\n", "use:std::net"),
        ("use ::std::thread;\n", "use:std::thread"),
        ("pub fn f(p: *const u8) -> u8 { unsafe { *p } }\n", "unsafe"),
    ],
)
def test_rust_takes_only_what_is_listed(source: str, rule: str) -> None:
    assert rule in rules(check_rust("src/lib.rs", source))


def test_rust_honest_code_is_untouched() -> None:
    source = (
        "use std::collections::{BTreeMap, HashMap, HashSet};\nuse std::fmt;\n"
        "use std::{cmp::Ordering, iter};\nuse crate::helpers::pad;\nextern crate itertools;\n\n"
        "macro_rules! square { ($x:expr) => { $x * $x }; }\n\n"
        "impl fmt::Display for W { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result "
        '{ write!(f, "{}", square!(2)) } }\n'
        "pub fn f() -> Ordering { std::iter::repeat(1).take(2).count().cmp(&2) }\n"
    )
    assert check_rust("src/lib.rs", source) == []


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        # Printing by a header the block-list did not name (#24).
        ('#include <cwchar>\nvoid f() { std::wprintf(L"x"); }\n', "include:cwchar"),
        ('#include <print>\nvoid f() { std::println("x"); }\n', "include:print"),
        # Finding the caller (#24): a defaulted std::source_location.
        ("#include <source_location>\n", "include:source_location"),
        ("int line(int l = __builtin_LINE()) { return l; }\n", "reserved"),
        # The mmap reader's headers.
        ("#include <fcntl.h>\n#include <sys/mman.h>\n", "include:sys"),
        ("#include <fcntl.h>\n", "include:fcntl.h"),
        # Reopening the runner's namespace past `testing::` (#24).
        ("namespace testing { namespace internal { int x; } }\n", "namespace"),
        ("namespace std { int x; }\n", "namespace"),
        ("int f() { return __LINE__; }\n", "reserved"),
    ],
)
def test_cpp_takes_only_what_is_listed(source: str, rule: str) -> None:
    assert rule in rules(check_cpp("kata.hpp", source))


def test_cpp_honest_code_is_untouched() -> None:
    source = (
        "#pragma once\n#include <algorithm>\n#include <cstdint>\n#include <map>\n"
        "#include <sstream>\n#include <stdexcept>\n#include <string>\n#include <vector>\n"
        '#include "helpers.hpp"\n#ifndef _KATA_H_\n#define _KATA_H_\n#endif\n\n'
        "using namespace std;\n\nnamespace kata {\ninline std::string f(std::int64_t n) "
        "{\n  std::ostringstream out;\n  out << n;\n  return out.str();\n}\n}  // namespace kata\n"
    )
    assert check_cpp("kata.hpp", source, tree={"kata.hpp": b"", "helpers.hpp": b""}) == []
    # A quoted name the tree does not hold is the system's header; an angle one the tree
    # holds is the kata's file standing in for the library's (the build has -I.).
    assert "include:fcntl.h" in rules(check_cpp("kata.hpp", '#include "fcntl.h"\n'))
    shadow = check_cpp("kata.hpp", "#include <cstdint>\n", tree={"cstdint": b"#include <cstdio>"})
    assert "include:cstdint" in rules(shadow)


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        # The file-URL reader of #24.
        ("import java.net.URI;\nclass K {}", "import:java.net"),
        ('class K { Object f() throws Exception { return new java.io.PrintStream("/dev/stdout"); '
         "} }", "import:java.io"),
        ("import java.util.concurrent.CompletableFuture;\nclass K {}",
         "import:java.util.concurrent"),
        ("import java.io.*;\nclass K {}", "import:java.io"),
        # A method reference ends the JVM where no `System.exit(` is written (#24).
        ("import java.util.function.IntConsumer;\nclass K { void f() { IntConsumer e = "
         "System::exit; e.accept(0); } }", "lang:System"),
        # Finding the caller (#24).
        ("class K { int f() { return new Throwable().getStackTrace()[1].getLineNumber(); } }",
         "caller"),
        ("class K { Object f() { return StackWalker.getInstance(); } }", "lang:StackWalker"),
        ('class K { Object f() { return getClass().getResourceAsStream("K.java"); } }', "caller"),
        ("class K { void f() { ProcessHandle.current(); } }", "lang:ProcessHandle"),
    ],
)  # fmt: skip
def test_java_takes_only_what_is_listed(source: str, rule: str) -> None:
    assert rule in rules(check_java("src/Kata.java", source))


def test_java_honest_code_is_untouched() -> None:
    source = (
        "import java.math.BigInteger;\nimport java.util.*;\nimport java.util.function.Function;\n"
        "import java.util.stream.Collectors;\nimport kata.helpers.Pad;\n\n"
        "class Kata {\n  String f(List<Integer> xs) {\n    StringBuilder b = new StringBuilder();\n"
        '    if (xs.isEmpty()) throw new IllegalArgumentException("empty");\n'
        '    return xs.stream().map(String::valueOf).collect(Collectors.joining(","))\n'
        '        + Math.max(1, Integer.parseInt("2")) + BigInteger.ONE;\n  }\n}\n'
    )
    tree = {"src/main/java/kata/helpers/Pad.java": b"package kata.helpers;\nclass Pad {}\n"}
    assert check_java("src/main/java/Kata.java", source, tree=tree) == []
    assert "import:kata.helpers" in rules(check_java("src/main/java/Kata.java", source))


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        # The Function constructor reached by property access (#24).
        ('export const p = "".constructor.constructor("return pro" + "cess")();\n', "constructor"),
        ('export const p = (() => 1)["constructor"]("return 1");\n', "constructor"),
        ('export const p = (() => 1)[`constructor`]("return 1");\n', "constructor"),
    ],
)
def test_javascript_takes_only_what_is_listed(source: str, rule: str) -> None:
    assert rule in rules(check_javascript("kata.js", source))


def test_javascript_classes_keep_their_constructors() -> None:
    source = (
        "export class Clock {\n  constructor(h) {\n    this.h = h;\n  }\n"
        "  static of(h) {\n    return new Clock(h);\n  }\n}\n"
    )
    assert check_javascript("clock.js", source) == []


def test_a_kata_widens_the_list_by_name() -> None:
    python = get_language("python")
    files = {"impl.py": b"import threading\nimport os.path\n"}
    assert rules(check_policy(python, files)) == {"import:threading", "import:os"}
    assert check_policy(python, files, allow=frozenset({"import:threading", "import:os"})) == []
