"""Runs the module's pytest tests for ctest (`ctest -R python`); exit status 77 (skipped) when
pytest or numpy is missing. Usage: run_tests.py TESTS_DIR [pytest options]"""

import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as missing:
    print("skipped: " + str(missing) + " (Debian: python3-pytest python3-numpy)")
    sys.exit(77)

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider"] + sys.argv[1:]))
