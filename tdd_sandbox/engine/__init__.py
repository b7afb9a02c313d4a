"""The TDD engine: phases, attempts and races, landing green states, and a run's records."""
