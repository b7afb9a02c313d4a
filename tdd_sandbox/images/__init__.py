"""Sandbox images: each language pack's Dockerfile (`languages/<name>/image/`), built on a
Debian base and tagged by content hash."""
