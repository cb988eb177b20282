"""``dpgui release table``: a synthetic version of the demo table, through the ledger and the export."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.paths import demo_private_path

DOMAINS = {
    "wage": {"lower": 0, "upper": 3000, "bins": 30},
    "education": {"lower": 0, "upper": 18, "granularity": 1},
    "experience": {"lower": -5, "upper": 65, "granularity": 1},
    "ethnicity": {"categories": ["afam", "cauc"]},
    "smsa": {"categories": ["no", "yes"]},
    "region": {"categories": ["midwest", "northeast", "south"]},
    "parttime": {"categories": ["no", "yes"]},
}


@pytest.fixture
def demo() -> Path:
    path = demo_private_path()
    assert main(["budget", "set", "--data", str(path), "--epsilon", "20", "--delta", "1e-4"]) == 0
    return path


def _domains(tmp_path: Path, columns: list[str], **changes: dict) -> Path:
    path = tmp_path / "domains.json"
    path.write_text(json.dumps({c: changes.get(c, DOMAINS[c]) for c in columns}), encoding="utf-8")
    return path


def _release(data: Path, domains: Path, out: Path, *extra: str) -> int:
    common = ["--data", str(data), "--domains", str(domains), "--epsilon", "1", "--out", str(out)]
    return main(["release", "table", *common, *extra])


def test_independent_writes_every_column_in_order_inside_its_domain(demo, tmp_path, capsys):
    columns = list(DOMAINS)[::-1]  # the JSON's order, not the file's
    assert _release(demo, _domains(tmp_path, columns), tmp_path / "o") == 0
    assert "released by independent" in capsys.readouterr().out  # auto with δ = 0
    out = tmp_path / "o"
    table = pd.read_parquet(out / "synthetic.parquet")
    assert list(table.columns) == columns and len(table) == 28155  # --rows defaults to n (public)
    # Under --missing keep a column's "missing" cell is measured like any other, so now and then its noise
    # passes the catch-all threshold and a few blanks appear: the CSV then reads them as NaN in a float
    # column where the Parquet file keeps a nullable integer. The values must agree all the same.
    pd.testing.assert_frame_equal(pd.read_csv(out / "synthetic.csv"), table, check_dtype=False)
    wage, experience = table["wage"].dropna(), table["experience"].dropna()
    assert wage.between(0, 3000).all() and (wage % 100 == 50).all()  # 30 bins, each at its middle
    assert experience.between(-5, 65).all() and table["experience"].dtype.kind == "i"
    assert set(table["region"].dropna()) <= {"midwest", "northeast", "south", "other"}  # west: undeclared
    assert set(table["ethnicity"].dropna()) <= {"afam", "cauc", "other"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["epsilon"] == 1 and manifest["delta"] == 0
    assert sum(note.startswith("measured ") for note in manifest["notes"]) == 7
    assert any("replace one record" in note for note in manifest["notes"])
    files = {entry["file"] for entry in manifest["outputs"]}
    assert {"synthetic.csv", "synthetic.parquet", "release.csv", "report.html"} <= files
    measured = pd.read_csv(out / "release.csv")
    assert measured["budget share"].sum() == pytest.approx(1.0)
    assert "TV vs noisy" in (out / "report.html").read_text(encoding="utf-8")


def test_mst_and_aim_with_delta_charge_what_the_manifest_says(demo, tmp_path, capsys):
    domains = _domains(tmp_path, ["wage", "education", "region", "parttime"])
    assert (
        _release(demo, domains, tmp_path / "m", "--delta", "1e-6", "--algorithm", "mst", "--rows", "300") == 0
    )
    table = pd.read_csv(tmp_path / "m" / "synthetic.csv")
    assert len(table) == 300 and list(table.columns) == ["wage", "education", "region", "parttime"]
    measured = pd.read_csv(tmp_path / "m" / "release.csv")
    assert (measured["role"] == "selected").sum() == 3 and (measured["role"] == "measured").sum() == 7
    assert measured["budget share"].sum() == pytest.approx(1.0)

    code = _release(demo, domains, tmp_path / "a", "--delta", "1e-6", "--rows", "200", "--max-rounds", "2")
    assert code == 0 and "released by aim" in capsys.readouterr().out  # auto with δ > 0
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["algorithm"]["name"] == "aim" and manifest["delta"] == 1e-6
    before, after = manifest["budget_before"], manifest["budget_after"]
    basic = after["spent_basic_composition"]["epsilon"] - before["spent_basic_composition"]["epsilon"]
    assert basic == pytest.approx(manifest["epsilon"])  # the cost booked is the manifest's
    spent = after["spent"]["epsilon"] - before["spent"]["epsilon"]
    assert spent < 0.95 * manifest["epsilon"]  # MST's and AIM's rhos compose tighter than their sum
    measured = pd.read_csv(tmp_path / "a" / "release.csv")
    assert (measured["role"] == "selected").sum() == 2
    assert measured["budget share"].sum() == pytest.approx(1.0, rel=1e-6)


def test_a_workload_too_big_for_memory_is_refused_before_any_charge(demo, tmp_path, capsys):
    huge = {"lower": 0, "upper": 3000, "granularity": 0.1}
    domains = _domains(tmp_path, ["wage", "experience", "education"], wage=huge)
    code = _release(demo, domains, tmp_path / "o", "--delta", "1e-6", "--workload", "3", "--algorithm", "aim")
    err = capsys.readouterr().err
    assert code == 2 and "wage (30001 cells)" in err and "coarsen" in err  # a usage error (README)
    assert not (tmp_path / "o").exists()
    assert main(["budget", "show", "--data", str(demo)]) == 0
    assert "spent ε=0" in capsys.readouterr().out


def test_bad_domains_are_usage_errors(demo, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"wage": {"lower": 0}}), encoding="utf-8")
    assert _release(demo, bad, tmp_path / "o") == 2
    assert 'give "lower", "upper"' in capsys.readouterr().err
    bad.write_text(json.dumps({"nope": {"categories": ["a"]}}), encoding="utf-8")
    assert _release(demo, bad, tmp_path / "p") == 2
    assert "Traceback" not in capsys.readouterr().err
    bad.write_text(json.dumps({"region": {"categories": ["other"]}}), encoding="utf-8")
    assert _release(demo, bad, tmp_path / "q") == 2
    assert 'lists no category besides "other"' in capsys.readouterr().err


@pytest.mark.parametrize("flag", [["--bins", "5"], ["--unit", "USD"], ["--bounds", "0", "9"]])
def test_a_one_column_grid_flag_is_refused_not_ignored(demo, tmp_path, capsys, flag):
    assert _release(demo, _domains(tmp_path, ["wage"]), tmp_path / "o", *flag) == 2
    assert "declares each column's bounds" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_plan_table_prints_each_marginals_predicted_error(tmp_path, capsys):
    domains = _domains(tmp_path, ["wage", "education", "region"])
    args = ["plan", "table", "--n", "28155", "--domains", str(domains), "--epsilon", "1", "--delta", "1e-6"]
    args += ["--coarse-bins", "16"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "wage × education (16 × 16 bins): " in out and "first round's σ" in out
    assert "region: " in out and "expected TV (discrete Laplace, scale 6)" in out  # independent: 2d/ε


def test_plan_table_predicts_for_the_missing_value_policy_the_release_uses(tmp_path, capsys):
    """Docs audit, session 34: plan table predicted AIM at 0.066 and the release's review 0.077: the release
    keeps missing values as a cell of each column by default, the plan imputed them, and took no --missing."""
    domains = _domains(tmp_path, ["wage", "education", "region"])
    args = ["plan", "table", "--n", "28155", "--domains", str(domains), "--epsilon", "1", "--delta", "1e-6"]

    def aim_error(*extra: str) -> float:
        assert main([*args, *extra, "--json"]) == 0
        rows = json.loads(capsys.readouterr().out)["algorithms"]
        return next(row["predicted_error"] for row in rows if row["algorithm"] == "aim")

    kept = aim_error()
    assert kept == aim_error("--missing", "keep") != aim_error("--missing", "impute")


def test_a_unit_in_domains_json_reaches_the_manifest(demo, tmp_path):
    domains = _domains(tmp_path, ["wage", "region"], wage={**DOMAINS["wage"], "unit": "USD"})
    assert _release(demo, domains, tmp_path / "o") == 0
    declared = json.loads((tmp_path / "o" / "manifest.json").read_text())["parameters"]["domains"]
    assert declared["wage"]["unit"] == "USD" and "unit" not in declared["region"]


def test_only_a_table_offers_to_keep_missing_values(demo, tmp_path, capsys):
    cdf = ["release", "cdf", "--data", str(demo), "--column", "wage", "--bounds", "0", "3000"]
    with pytest.raises(SystemExit) as exit_:
        main([*cdf, "--epsilon", "1", "--missing", "keep", "--out", str(tmp_path / "c")])
    assert exit_.value.code == 2 and "invalid choice: 'keep'" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def test_a_declared_other_names_the_catch_all_and_an_unmatched_list_is_warned(demo, tmp_path, capsys):
    """'other' in a list is the cell every table column has for undeclared values, not a second one; a list
    none of whose values the file writes (1/0 against no/yes) draws a warning before the charge."""
    region = {"categories": ["midwest", "northeast", "south", "other"]}
    smsa = {"categories": [1, 0]}
    domains = _domains(tmp_path, ["region", "smsa"], region=region, smsa=smsa)
    assert _release(demo, domains, tmp_path / "o", "--accept-warnings") == 0
    assert "100.0% of column 'smsa' is none of the declared categories" in capsys.readouterr().err
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["parameters"]["domains"]["region"] == {
        "categories": ["midwest", "northeast", "south"],
        "other": True,
    }
    table = pd.read_csv(tmp_path / "o" / "synthetic.csv")
    assert set(table["region"]) == {"midwest", "northeast", "south", "other"}  # west is "other"


def test_a_time_limit_ends_aims_rounds_at_once_and_the_manifest_says_so(demo, tmp_path):
    domains = _domains(tmp_path, ["wage", "education", "region", "parttime"])
    extra = ("--delta", "1e-6", "--algorithm", "aim", "--rows", "200", "--time-limit", "0.001")
    assert _release(demo, domains, tmp_path / "a", *extra) == 0
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["parameters"]["algorithm_parameters"]["time_limit"] == 0.001
    assert any(
        note.endswith(
            "the time limit (0.001 s) made round 1 the last, which spent what was left on 4 marginals (the "
            "Run page's rounds 1 to 4)"
        )
        for note in manifest["notes"]
    )
    measured = pd.read_csv(tmp_path / "a" / "release.csv")
    assert (measured["role"] == "selected").sum() == 4  # round 1 is already past the limit: one per column
    assert measured["budget share"].sum() == pytest.approx(1.0, rel=1e-6)  # and it spent what was left


def test_max_seconds_bounds_aims_rounds_unless_a_time_limit_is_given(demo, tmp_path):
    """A table's time cannot be predicted, so --max-seconds becomes AIM's time limit: the run ends its rounds
    in time instead of running for an hour on a wide table. An explicit --time-limit wins."""
    domains = _domains(tmp_path, ["wage", "education", "region", "parttime"])
    base = ("--delta", "1e-6", "--algorithm", "aim", "--rows", "200")
    assert _release(demo, domains, tmp_path / "a", *base, "--max-seconds", "0.001") == 0
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["parameters"]["algorithm_parameters"]["time_limit"] == 0.001
    assert any("the time limit (0.001 s) made round 1 the last" in note for note in manifest["notes"])
    given = ("--max-seconds", "0.001", "--time-limit", "3600")
    assert _release(demo, domains, tmp_path / "b", *base, *given) == 0
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["parameters"]["algorithm_parameters"]["time_limit"] == 3600
    assert not any("the time limit" in note for note in manifest["notes"])


def test_a_public_sample_is_refused_not_ignored(demo, tmp_path, capsys):
    """No table algorithm reads a public sample: --public was accepted and dropped without a word."""
    public = tmp_path / "public.csv"
    public.write_text("wage\n500\n")
    assert _release(demo, _domains(tmp_path, ["wage"]), tmp_path / "o", "--public", str(public)) == 2
    assert "no synthetic-table algorithm reads a public sample" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
    assert _release(demo, _domains(tmp_path, ["wage"]), tmp_path / "o", "--public-encoding", "cp1252") == 2
    assert "--public-encoding cp1252: no synthetic-table algorithm" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["release", "table", "--help"])
    assert "--public" not in capsys.readouterr().out  # not offered, as the grid's flags are not
