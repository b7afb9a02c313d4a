"""The javascript pack. JavaScript: Prettier, ESLint, `tsc --checkJs` and `node --test`; results
from the image's
own reporter, which runs in the runner's process, not in a test file's.

`plugin.py` is what the tool asks of the language, `reader.py` how its compiler reads source,
`policy.py` what model code may not use, `driver.py` (with its sandbox-side source) how a hidden
suite is performed, and `image/` the sandbox it all runs in.
"""
