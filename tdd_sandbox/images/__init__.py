"""Sandbox images: one Dockerfile per language under `images/`, tagged by content hash."""
