"""What a release is, mid-sentence: the Review page's headline and the quantiles' plot title read
'Released quantiles of wage', not 'Released Private quantiles of wage' (a title put mid-sentence)."""

from __future__ import annotations

import pytest

from dpgui.data import NumericDomain
from dpgui.tasks.spec import LABELLED_KINDS, TaskKind, TaskSpec

YEARS = NumericDomain(0, 60, 1, unit="years")


def spec_of(kind: TaskKind, columns: tuple[str, ...] = ("education",)) -> TaskSpec:
    label = "smsa" if kind in LABELLED_KINDS else None
    return TaskSpec(kind, columns, (YEARS,) * len(columns), 1.0, label=label)


@pytest.mark.parametrize("kind", list(TaskKind), ids=lambda kind: kind.value)
def test_every_tasks_subject_reads_mid_sentence(kind: TaskKind):
    subject = spec_of(kind).subject
    first = subject.split()[0]
    assert first == "CDF" or first.islower(), subject  # lower case but for an acronym
    assert kind.title not in subject and "release" not in subject  # no 'Released Distance release of'
    assert "education" in subject


@pytest.mark.parametrize(
    ("kind", "columns", "subject"),
    [
        (TaskKind.QUANTILES, ("education",), "quantiles of education"),
        (TaskKind.CDF, ("education",), "CDF of education"),
        (TaskKind.THRESHOLD, ("education",), "threshold on education for smsa"),
        (TaskKind.RECTANGLE, ("education", "experience"), "rectangle on education, experience for smsa"),
        (TaskKind.DISTANCE, ("education", "experience"), "distances over education, experience"),
        (TaskKind.TABLE, ("education", "experience"), "synthetic table of education, experience"),
    ],
)
def test_a_subject_names_the_columns_and_a_learners_label(kind, columns, subject):
    assert spec_of(kind, columns).subject == subject
