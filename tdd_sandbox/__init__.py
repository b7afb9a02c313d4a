"""tdd-sandbox: strict test-driven development for LLM agents, with every gate in a sandbox."""

__version__ = "0.1.0"
