"""The typescript pack: TypeScript run by Node.js 24 itself (it strips the types, and
transforms what is more than a type), checked by `tsc --strict`, on JavaScript's runner,
guard, driver and image (`javascript/flavour.py` says what differs).

`plugin.py` is what the tool asks of the language; the rest is JavaScript's.
"""
