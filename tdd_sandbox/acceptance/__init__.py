"""Hidden acceptance suites as data, performed by tool-owned drivers in the sandbox and
judged on the host by `tdd_sandbox.grading.acceptance`."""
