"""``--positive`` copied from the file names the label however its number is written: 1.0 as well as 1.

Observed: a CSV whose label column reads 1.0/0.0 is parsed as floats, and its cells compare as "1" and "0"
(whole floats written as integers); ``--positive 1.0``, the text the custodian sees in the file, matched
no cell, so every row counted as negative: a warning was printed, and the release charged and published a
threshold learnt from all-negative labels.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.data.domain import NumericDomain
from dpgui.data.missing import MissingPolicy
from dpgui.data.validation import binary_labels, positive_texts
from tests.data.checking import check_frames

DOMAIN = (NumericDomain(0.0, 10.0, 1.0),)


@pytest.mark.parametrize("positive", ["1.0", "1", " 1.00 ", "1e0"])
def test_a_float_label_column_reads_its_positive_value_however_written(tmp_path, positive):
    path = tmp_path / "f.csv"
    path.write_text("x,y\n1,1.0\n2,0.0\n3,1.0\n")
    frame = pd.read_csv(path)
    assert binary_labels(frame, "y", positive, file_name="f.csv").tolist() == [True, False, True]
    check = check_frames("f.csv", [(0, frame)], ("x",), DOMAIN, MissingPolicy(), label="y", positive=positive)
    assert not check.warnings and check.columns[-1].positives == 2


def test_text_labels_are_compared_as_typed():
    assert positive_texts(" yes ") == {"yes"}
    assert positive_texts("2.5") == {"2.5"}
    assert positive_texts("nan") == {"nan"}
    frame = pd.DataFrame({"y": ["A", "a", "1.5", np.nan]})
    assert binary_labels(frame, "y", "a", file_name="f.csv").tolist() == [False, True, False, False]
    assert binary_labels(frame, "y", "1.5", file_name="f.csv").tolist() == [False, False, True, False]
