"""The rust pack. Rust: cargo fmt, clippy, build and test; results read from libtest's output.

`plugin.py` is what the tool asks of the language, `reader.py` how its compiler reads source,
`policy.py` what model code may not use, `driver.py` (with its sandbox-side source) how a hidden
suite is performed, and `image/` the sandbox it all runs in.
"""
