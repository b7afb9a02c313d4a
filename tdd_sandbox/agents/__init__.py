"""The three roles: their prompts, the context they see, and how they are asked."""
