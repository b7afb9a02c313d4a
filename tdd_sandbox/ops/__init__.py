"""Operating the tool: the set-up check, cleaning up, reading a run's status."""
