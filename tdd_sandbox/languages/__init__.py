"""The language packs (a folder each: `python/`, `rust/`, ...), what every pack shares, and
their one registry (`registry`).

Importing this package imports no pack: a pack's own modules are imported with its package
alone, not with every other pack, so none of them sits on an import cycle through here.
"""
