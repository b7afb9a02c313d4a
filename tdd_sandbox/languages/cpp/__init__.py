"""The cpp pack. C++: clang-format, a warnings-as-errors GCC 14 build and GoogleTest (or Catch2,
for tests written for it); results from the runner's XML report, checked against its console
lines.

`plugin.py` is what the tool asks of the language, `catch2.py` how it runs Catch2's tests,
`reader.py` how its compiler reads source,
`policy.py` what model code may not use, `driver.py` (with its sandbox-side source) how a hidden
suite is performed, and `image/` the sandbox it all runs in.
"""
