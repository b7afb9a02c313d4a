"""Running a repository's gates: the checkers that run them (Docker, or a fake that runs no
code), and the gate steps."""
