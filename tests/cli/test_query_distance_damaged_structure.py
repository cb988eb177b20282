"""`dpgui query distance` on a damaged or foreign structure file: exit 2 with a message naming the file and
what is wrong, never a crash while answering (CLI fuzz, session 36)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpgui.algorithms.distance.cdf_route import (
    STRUCTURE_FILE,
    DistanceStructure,
    PrivacyBudget,
    support_points,
)
from dpgui.cli.main import main
from tests.algorithms.distance.test_cdf_route import structure


@pytest.fixture
def released(tmp_path):
    points = np.random.default_rng(1).random((200, 2))
    good = structure(points, [support_points(None, 16)] * 2, PrivacyBudget(1.0))
    (tmp_path / STRUCTURE_FILE).write_bytes(good.to_bytes())
    return tmp_path


def damage(folder, change) -> None:
    path = folder / STRUCTURE_FILE
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_the_undamaged_structure_answers(released, capsys):
    assert main(["query", "distance", "--release", str(released), "--point", "0.5,0.5"]) == 0
    assert capsys.readouterr().out.startswith("c0,c1,distance")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.pop("knots"), "no 'knots' entry"),
        (lambda d: d.__setitem__("columns", 7), "damaged"),
        (lambda d: d.__setitem__("lower", [0.0]), "one lower and one upper bound per column"),
        (lambda d: d.__setitem__("upper", [0.0, 1.0]), "lower < upper"),
        (lambda d: d.__setitem__("metric", "cosine"), "damaged"),
        (lambda d: d["knots"].pop(), "do not match the embedding"),
        (lambda d: d["values"][0].pop(), "as many knots as values"),
        (lambda d: d["knots"][0].reverse(), "increasing knots"),
        (lambda d: d["embedding"].__setitem__("dims", 3), "do not match the embedding"),
        (lambda d: d.__setitem__("embedding", []), "damaged"),
        (lambda d: d.__setitem__("version", 2), "version-1"),
        (lambda d: d.clear(), "not a dpgui distance structure"),
    ],
)
def test_a_damaged_structure_is_refused_with_its_reason(released, capsys, change, said):
    damage(released, change)
    assert main(["query", "distance", "--release", str(released), "--point", "0.5,0.5"]) == 2
    err = capsys.readouterr().err
    assert said in err and STRUCTURE_FILE in err and "unexpected" not in err


@pytest.mark.parametrize("content", [b"\xff\xfe not utf-8", b"{not json", b"[1, 2]"])
def test_a_file_that_is_not_a_structure_is_refused(tmp_path, capsys, content):
    (tmp_path / STRUCTURE_FILE).write_bytes(content)
    assert main(["query", "distance", "--release", str(tmp_path), "--point", "0.5,0.5"]) == 2
    assert "not a dpgui distance structure" in capsys.readouterr().err


def test_loading_checks_the_curves_directly():
    points = np.random.default_rng(2).random((50, 1))
    good = structure(points, [support_points(None, 8)], PrivacyBudget(1.0))
    data = good.to_json()
    data["values"][0][0] = float("nan")
    with pytest.raises(ValueError, match="finite values"):
        DistanceStructure.from_json(data)
