"""The README's app test ("Testing your app") runs as written."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readmes_app_test_passes() -> None:
    section = README.read_text().split("## Testing your app", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: Dict[str, Any] = {"__name__": "readme_example"}
    exec(compile(code, f"{README}:Testing your app", "exec"), namespace)
    tests = [f for name, f in namespace.items() if name.startswith("test_")]
    assert len(tests) == 2
    for t in tests:
        t()
