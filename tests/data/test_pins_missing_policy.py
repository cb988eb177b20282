"""Pins from a mutation scan of dpgui/data/missing.py: what the manifest says about missing values must be
what happens to each released column, and n stays fixed.

Rule (missing.py): "describe_columns: ``policy.describe`` for every released column: one sentence when they
agree, else column by column (a table mixes numeric columns, whose missing cells are imputed, with
categorical ones, 'other')"; every sentence ends by saying the row count is unchanged."""

from __future__ import annotations

from dpgui.data import CategoricalDomain, NumericDomain
from dpgui.data.missing import MissingPolicy, describe_columns


def test_columns_that_handle_missing_cells_differently_are_described_one_by_one() -> None:
    text = describe_columns(
        MissingPolicy(), ["age", "sex"], [NumericDomain(0, 100, 1), CategoricalDomain(("f", "m"), other=True)]
    )
    assert text == (
        "age: missing values replaced by 0 (the declared lower bound); "
        "sex: missing values counted as 'other'; row count unchanged"
    )


def test_columns_that_agree_get_one_sentence() -> None:
    text = describe_columns(MissingPolicy(), ["a", "b"], [NumericDomain(0, 100, 1), NumericDomain(0, 50, 1)])
    assert text == "missing values replaced by 0 (the declared lower bound); row count unchanged"
