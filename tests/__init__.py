"""The test suite (its layout mirrors the package)."""

import sys

# The suite keeps its compiled modules whatever PYTHONDONTWRITEBYTECODE says: without them
# every run (and every parallel worker) compiles the package and rewrites the test modules
# again, seconds of each run's thirty. Set here: the package is imported before conftest.
sys.dont_write_bytecode = False
