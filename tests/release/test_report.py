"""report.html states the release's public facts in plain words, escapes every string, holds no private
value and is fingerprinted in the manifest; tables of several rows are also exported as Parquet."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math

import pandas as pd

from dpgui.release.export import export_release
from dpgui.release.report import MAX_REPORT_ROWS, build_report
from dpgui.tasks.outputs import ReleaseTable
from tests.conftest import holds_canary
from tests.release.test_manifest import released

EVIL = '<script>alert("x")</script>'
PNG = b"\x89PNG\r\n\x1a\nnot-really-a-png"


def test_the_report_states_the_required_facts(wages_csv, tmp_path):
    release, _, _ = released(wages_csv)
    text = build_report(release, {"Released value": PNG}).decode("utf-8")
    for fact in (
        "Private median of wage",
        "pure ε-differential privacy with ε = 1",
        "replace one record; row count public",
        "odds about any one person change by at most ×e^ε",
        f"×{math.e:.3g}",
        "wages.csv",
        release.dataset.fingerprint,
        release.algorithm.paper,
        release.algorithm.section,
        "[0, 20000] in steps of 1",
        "missing values",
        "ε = 3",  # the total before and after
    ):
        assert fact in text, fact
    assert "data:image/png;base64," in text


def test_the_report_says_what_the_released_values_mean_as_release_csv_does(wages_csv):
    release, _, _ = released(wages_csv)
    meaning = "cdf = share of wage at or below value; the last row counts up to the bound 20000"
    text = build_report(
        dataclasses.replace(release, table=dataclasses.replace(release.table, meaning=meaning))
    )
    assert f"<p>{meaning}</p>" in text.decode("utf-8")
    silent = dataclasses.replace(release, table=dataclasses.replace(release.table, meaning=""))
    assert "<h2>Released values</h2><p>About" in build_report(silent).decode("utf-8")  # no meaning, no line


def test_a_malicious_column_name_is_escaped(wages_csv):
    release, _, _ = released(wages_csv)
    evil = dataclasses.replace(
        release,
        spec=dataclasses.replace(release.spec, columns=(EVIL,)),
        table=ReleaseTable((EVIL, "value"), (("a", 1),), notes=(EVIL,)),
    )
    text = build_report(evil, {EVIL: PNG}).decode("utf-8")
    assert "<script>" not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
    control = text.replace("&lt;script&gt;", "<script>")
    assert "<script>" in control  # the check above can fail


def test_the_report_holds_no_raw_private_value(wages_csv, tmp_path):
    release, _, _ = released(wages_csv)
    export_release(release, tmp_path)
    report = (tmp_path / "report.html").read_bytes()
    assert not holds_canary(report)
    assert holds_canary(wages_csv.read_bytes())  # control: the canary is in the private file


def test_the_reports_sha256_is_in_the_manifest(wages_csv, tmp_path):
    release, _, _ = released(wages_csv)
    export_release(release, tmp_path, {"plot": PNG})
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    digests = {entry["file"]: entry["sha256"] for entry in manifest["outputs"]}
    assert digests["report.html"] == hashlib.sha256((tmp_path / "report.html").read_bytes()).hexdigest()
    assert "release.parquet" not in digests  # a one-row table is exported as CSV only


def test_a_long_table_is_cut_in_the_report_and_exported_as_parquet(wages_csv, tmp_path):
    release, _, _ = released(wages_csv)
    rows = tuple((float(i), i / 1000) for i in range(1000))
    long = dataclasses.replace(release, table=ReleaseTable(("value", "cdf"), rows))
    exported = export_release(long, tmp_path)
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert f"first {MAX_REPORT_ROWS:,} of 1,000 rows" in text
    assert "<td>199</td>" in text and "<td>200</td>" not in text  # values read with about 4 digits
    frame = pd.read_parquet(tmp_path / "release.parquet")
    assert frame.shape == (1000, 2) and frame["cdf"].iloc[-1] == rows[-1][1]
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    digests = {entry["file"]: entry["sha256"] for entry in manifest["outputs"]}
    assert (
        digests["release.parquet"] == hashlib.sha256((tmp_path / "release.parquet").read_bytes()).hexdigest()
    )
    assert tmp_path / "release.parquet" in exported.files
