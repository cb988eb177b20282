"""The planted-error list (tools/planted_errors.py) still applies to the code: cheap enough for CI.

The full run (every mutation followed by the privacy tests) is on demand; its latest output is committed as
tools/planted_errors.md.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_planted_errors() -> ModuleType:
    spec = importlib.util.spec_from_file_location("planted_errors", ROOT / "tools" / "planted_errors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_every_mutation_finds_its_old_text_exactly_once():
    planted = load_planted_errors()
    assert planted.problems(ROOT) == []
    assert len(planted.MUTATIONS) >= 20


def test_the_committed_run_lists_every_mutation_as_caught():
    planted = load_planted_errors()
    table = (ROOT / "tools" / "planted_errors.md").read_text(encoding="utf-8")
    for mutation in planted.MUTATIONS:
        assert mutation.path.startswith(("dpgui/privacy/", "dpgui/algorithms/", "dpgui/tasks/", "dpgui/data/",
                                         "dpgui/release/", "dpgui/planner/", "dpgui/jobs/", "dpgui/cli/",
                                         "dpgui/numbers.py", "dpgui/paths.py", "dpgui/ui/"))  # fmt: skip
        assert f"`{mutation.name}`" in table, f"{mutation.name} missing from tools/planted_errors.md: rerun"
    assert "| survived |" not in table and "| timeout |" not in table


def test_a_partial_run_rewrites_its_own_rows_and_keeps_the_others():
    planted = load_planted_errors()
    first, second, third = planted.MUTATIONS[:3]
    earlier = planted.earlier_results(planted.markdown([(first, "caught", 5.0), (second, "survived", 7.0)]))
    assert earlier == [(first, "caught", 5.0), (second, "survived", 7.0)]
    latest = [(third, "caught", 2.0), (second, "caught", 9.0)]
    expected = [(first, "caught", 5.0), (second, "caught", 9.0), (third, "caught", 2.0)]
    assert planted.merged(earlier, latest) == expected
