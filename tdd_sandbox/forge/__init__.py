"""Pull requests on a forge: a run's green branch, pushed and proposed."""
