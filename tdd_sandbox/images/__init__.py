"""Sandbox images: each language pack's Dockerfile (the project's `images/<name>/`), built on a
Debian base and tagged by content hash."""
