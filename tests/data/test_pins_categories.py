"""Pins from a mutation scan of dpgui/data/domain.py (CategoricalDomain): undeclared categories go to
'other' when it is declared, and are refused otherwise; a category list is declared text.

Rule (module docs): "A cell outside the list goes to the other index ...; without ``other`` it raises
``DataError``"."""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.data import CategoricalDomain, DataError


def test_an_undeclared_value_is_refused_without_other() -> None:
    """Without 'other' an undeclared value has no cell: a DataError, never a negative index (which would
    count it in the last category)."""
    domain = CategoricalDomain(("a", "b"))
    assert domain.to_indices(pd.Series(["a", "b"]), file_name="f.csv").tolist() == [0, 1]
    with pytest.raises(DataError):
        domain.to_indices(pd.Series(["a", "c"]), file_name="f.csv")


def test_an_undeclared_value_goes_to_other_when_declared() -> None:
    domain = CategoricalDomain(("a", "b"), other=True)
    assert domain.to_indices(pd.Series(["c"]), file_name="f.csv").tolist() == [2] == [domain.size - 1]


@pytest.mark.parametrize("categories", [(1, 2), ("a", 3), ("a", None)])
def test_categories_that_are_not_text_are_refused(categories) -> None:
    """Cells are compared as text, so a declared category that is not a string could never match any cell
    and every value would silently count as 'other': refused ('categories must be strings')."""
    with pytest.raises(DataError, match="categories must be strings"):
        CategoricalDomain(categories)


def test_only_true_and_false_match_cells_in_any_case() -> None:
    """CategoricalDomain: cells are compared as stripped text; only a declared true/false also matches a
    boolean cell's "true"/"false" in any case. Any other category is case-sensitive: "male" is not the
    declared "Male" and counts as 'other'."""
    import pandas as pd

    domain = CategoricalDomain(("Male", "Female", "TRUE"), other=True)
    assert not domain.declares("male")
    assert domain.declares("true")
    indices = domain.to_indices(pd.Series(["Male", "male", "FEMALE", "true"], name="sex"), file_name="f.csv")
    assert indices.tolist() == [0, 3, 3, 2]
