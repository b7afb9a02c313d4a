"""The judge's pure half: what decides a score, from plain data only.

Nothing here touches Docker, git, a model or the disk, so every rule is table-tested in
milliseconds, and nothing a model wrote can run in the process that applies them.
"""
