"""Running a repository's gates: the runtimes (backends) that run them, and the gate steps."""
