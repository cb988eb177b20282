"""MissingPolicy keeps the row count: it imputes a declared value or refuses, and says so in the manifest."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.data import CategoricalDomain, DataError, MissingKind, MissingPolicy, NumericDomain, apply_missing

DOMAIN = NumericDomain(0.0, 100.0, 0.5)
VALUES = pd.Series([3.0, np.nan, 7.5, np.nan], name="wage")


def test_impute_without_fill_value_uses_the_lower_bound_and_keeps_n() -> None:
    filled = apply_missing(VALUES, MissingPolicy(), DOMAIN, file_name="f.csv")
    assert filled.tolist() == [3.0, 0.0, 7.5, 0.0]
    assert filled.dtype == np.float64


def test_impute_with_fill_value_uses_it() -> None:
    policy = MissingPolicy(MissingKind.IMPUTE, 42.0)
    assert apply_missing(VALUES, policy, DOMAIN, file_name="f.csv").tolist() == [3.0, 42.0, 7.5, 42.0]


def test_apply_missing_does_not_modify_the_column() -> None:
    column = VALUES.copy()
    apply_missing(column, MissingPolicy(), DOMAIN, file_name="f.csv")
    pd.testing.assert_series_equal(column, VALUES)


def test_fail_names_file_column_and_first_missing_row() -> None:
    with pytest.raises(DataError, match=r"f\.csv, row 2, column 'wage': the value is missing"):
        apply_missing(VALUES, MissingPolicy(MissingKind.FAIL), DOMAIN, file_name="f.csv")


def test_fail_passes_a_complete_column_through() -> None:
    complete = pd.Series([1.0, 2.0], name="wage")
    assert apply_missing(complete, MissingPolicy(MissingKind.FAIL), DOMAIN, file_name="f").tolist() == [1, 2]


@pytest.mark.parametrize(
    ("policy", "domain", "text"),
    [
        (
            MissingPolicy(),
            DOMAIN,
            "missing values replaced by 0 (the declared lower bound); row count unchanged",
        ),
        (
            MissingPolicy(MissingKind.IMPUTE, 2.5),
            DOMAIN,
            "missing values replaced by 2.5; row count unchanged",
        ),
        (MissingPolicy(MissingKind.FAIL), DOMAIN, "a missing value stops the release; row count unchanged"),
        (
            MissingPolicy(MissingKind.KEEP),
            DOMAIN,
            "missing values kept: counted in a 'missing' cell and left blank; row count unchanged",
        ),
        (
            MissingPolicy(),
            CategoricalDomain(("a",), other=True),
            "missing values counted as 'other'; row count unchanged",
        ),
        (  # an export audit: "counted as 'other'" was stated for categories without one
            MissingPolicy(),
            CategoricalDomain(("a",), other=False),
            "a missing value stops the release (no 'other' category declared); row count unchanged",
        ),
    ],
)
def test_describe_states_the_policy_and_that_n_is_unchanged(
    policy: MissingPolicy, domain: NumericDomain | CategoricalDomain, text: str
) -> None:
    assert policy.describe(domain) == text


@pytest.mark.parametrize(
    ("kind", "fill_value"),
    [(MissingKind.FAIL, 1.0), (MissingKind.KEEP, 1.0), (MissingKind.IMPUTE, float("nan"))],
)
def test_inconsistent_policies_are_refused(kind: MissingKind, fill_value: float) -> None:
    with pytest.raises(DataError):
        MissingPolicy(kind, fill_value)


def test_keep_adds_one_cell_and_has_no_value_to_impute() -> None:
    """KEEP is for a synthetic table's marginals (``aggregate.cell_indices``); a one-column task has no cell
    to keep a missing value in, so imputing under KEEP is refused rather than guessed."""
    assert MissingPolicy(MissingKind.KEEP).extra_cells == 1
    assert MissingPolicy().extra_cells == 0 and MissingPolicy(MissingKind.FAIL).extra_cells == 0
    with pytest.raises(DataError, match="synthetic table only"):
        apply_missing(VALUES, MissingPolicy(MissingKind.KEEP), DOMAIN, file_name="f.csv")
