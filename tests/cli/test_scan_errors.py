"""A file whose damage shows only part-way through a scan is refused in words naming it, uncharged (a
Parquet file with a damaged data page); a text file with a byte that is not UTF-8 past its sniffed
beginning is not damaged: that byte reads as Windows-1252 in its own cell, on both engines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.privacy.ledger import Ledger


def _release(path, engine, out):
    assert main(["budget", "set", "--data", str(path), "--epsilon", "5"]) == 0
    return main(
        ["release", "median", "--data", str(path), "--column", "x", "--bounds", "0", "100", "--epsilon", "1",
         "--engine", engine, "--out", str(out)]
    )  # fmt: skip


def _uncharged() -> bool:
    ledger = Ledger()
    return all(not ledger.entries(record.id) for record in ledger.datasets())


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_a_latin1_byte_after_the_sniffed_utf8_beginning_is_read_in_its_own_cell(tmp_path, capsys, engine):
    """Refused before session 31 ("not UTF-8 text throughout"); a refusal was safe, but the reading it
    replaced (a code page guessed for the whole file) was not: now every cell reads on its own."""
    rows = 20_000  # well over the 64 KiB the encoding is sniffed from
    frame = pd.DataFrame({"x": np.arange(rows) % 100, "name": ["plain"] * rows})
    path = tmp_path / "joined.csv"
    path.write_bytes(frame.to_csv(index=False).encode() + b"5,caf\xe9\n")
    code = _release(path, engine, tmp_path / "o")
    assert code == 0, capsys.readouterr().err
    assert not _uncharged()


def test_a_damaged_parquet_page_is_named_by_the_out_of_core_engine(tmp_path, capsys):
    frame = pd.DataFrame({"x": np.random.default_rng(0).integers(0, 100, 300)})
    whole = tmp_path / "whole.parquet"
    frame.to_parquet(whole, compression="snappy")
    raw = whole.read_bytes()
    path = tmp_path / "damaged.parquet"
    path.write_bytes(raw[:200] + bytes(300) + raw[500:])  # the footer intact, a data page zeroed
    code = _release(path, "embedded", tmp_path / "o")
    err = capsys.readouterr().err
    assert code == 2 and "damaged.parquet: could not be read" in err, err
    assert _uncharged()
