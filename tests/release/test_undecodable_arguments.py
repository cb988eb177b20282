"""A command-line byte that is not UTF-8 reaches the exports as a lone surrogate (Python's reading of
argv): every exported file is still written, as valid UTF-8, the byte shown as its escape. A fuzzed
release with ``--categories 'south,\\xff'`` was charged, then failed writing release.parquet."""

from __future__ import annotations

import io

import pandas as pd

from dpgui.release.batch_export import folder_name
from dpgui.release.export import table_csv, table_parquet
from dpgui.release.utf8 import escaped, utf8
from dpgui.tasks.outputs import ReleaseTable

TABLE = ReleaseTable(("category", "count"), (("south", 8742), ("\udcff", 9)), meaning="counts of \udcff")


def test_a_lone_surrogate_is_written_as_its_escape():
    assert utf8("a\udcffb") == b"a\\udcffb" and escaped("a\udcffb") == "a\\udcffb"
    assert utf8("Zürich") == "Zürich".encode()  # every other character as it is


def test_the_released_table_is_written_whole_as_csv_and_parquet():
    assert "\\udcff,9" in table_csv(TABLE).decode("utf-8")
    back = pd.read_parquet(io.BytesIO(table_parquet(TABLE)))
    assert back["category"].tolist() == ["south", "\\udcff"] and back["count"].tolist() == [8742, 9]


def test_a_plan_releases_folder_name_stays_short_whatever_its_name():
    """A 400-character release name was charged, then its folder could not be made (name too long)."""
    assert len(folder_name(3, "wage " * 80)) <= 3 + 60 and folder_name(3, "wage " * 80).startswith("03-wage-")
