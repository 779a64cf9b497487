"""The Python examples of the README and of the guides in docs/ run as written."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "python.md"


def run_python_blocks(path):
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)
    assert blocks, f"{path.name} has no ```python block"
    for block in blocks:
        exec(compile(block, str(path), "exec"), {})


def test_the_readme_example_runs():
    run_python_blocks(README)


def test_the_python_guide_examples_run():
    run_python_blocks(GUIDE)
