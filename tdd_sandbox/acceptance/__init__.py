"""Hidden acceptance suites: loaded from a kata's folder, performed in the sandbox by the
language pack's driver (or run as the track's own test files), and judged on the host by
`tdd_sandbox.grading.acceptance`."""
