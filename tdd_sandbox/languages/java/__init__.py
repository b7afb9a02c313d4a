"""The java pack. Java: javac's lint (warnings are errors), a build, and JUnit 5 through its
console launcher;
results from its XML report, checked against its console lines.

`plugin.py` is what the tool asks of the language, `reader.py` how its compiler reads source,
`policy.py` what model code may not use, `driver.py` (with its sandbox-side source) how a hidden
suite is performed, and `image/` the sandbox it all runs in.
"""
