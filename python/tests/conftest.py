"""Test setup: a private data directory for the whole run, set before npuzzle's first question
(the module functions read the environment once, at their first use), so the tests never read
or write the user's ~/.cache/npuzzle. Removed at exit."""

import atexit
import os
import shutil
import tempfile

_DATA_DIR = tempfile.mkdtemp(prefix="npuzzle-pytest-")
os.environ["NPUZZLE_DATA_DIR"] = _DATA_DIR
atexit.register(shutil.rmtree, _DATA_DIR, ignore_errors=True)
