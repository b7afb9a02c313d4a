"""Talking to models: OpenAI-compatible endpoints, structured edit plans, record and replay."""
