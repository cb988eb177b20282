"""The generated parameter form: one editor per ParameterSpec, of its kind's widget, with its range."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QLabel, QLineEdit, QSpinBox, QToolTip

from dpgui.cli.algorithm_flags import flag_of
from dpgui.tasks.registry import ParameterSpec, algorithms
from dpgui.tasks.spec import TaskKind
from dpgui.ui.help_mark import HELP_LINK
from dpgui.ui.parameter_form import ParameterForm

SPECS = (
    ParameterSpec("beta", float, 0.05, "failure probability", 1e-9, 0.5),
    ParameterSpec("branching", int, 0, "tree branching", 0, 64),
    ParameterSpec("q", str, "0.25,0.5,0.75", "quantiles"),
    ParameterSpec("normalise", bool, False, "also fractions"),
)


@pytest.fixture
def form(qtbot) -> ParameterForm:
    form = ParameterForm()
    qtbot.addWidget(form)
    form.set_parameters(SPECS)
    return form


def test_one_editor_per_parameter_spec_of_the_kinds_widget(form: ParameterForm):
    assert list(form.editors) == ["beta", "branching", "q", "normalise"]
    kinds = (QDoubleSpinBox, QSpinBox, QLineEdit, QCheckBox)
    assert all(isinstance(form.editors[name], kind) for name, kind in zip(form.editors, kinds, strict=True))
    assert "failure probability" in form.editors["beta"].toolTip()


def test_editors_carry_the_declared_bounds_and_clamp_to_them(form: ParameterForm):
    beta, branching = form.editors["beta"], form.editors["branching"]
    assert isinstance(beta, QDoubleSpinBox) and isinstance(branching, QSpinBox)
    assert (beta.minimum(), beta.maximum()) == (pytest.approx(1e-9), 0.5)
    assert (branching.minimum(), branching.maximum()) == (0, 64)
    branching.setValue(1000)
    beta.setValue(0.9)
    assert dict(form.values())["branching"] == 64 and dict(form.values())["beta"] == 0.5


def test_values_start_at_the_defaults_and_follow_edits(form: ParameterForm):
    assert form.values() == (("beta", 0.05), ("branching", 0), ("q", "0.25,0.5,0.75"), ("normalise", False))
    form.editors["q"].setText(" 0.1,0.9 ")
    form.editors["normalise"].setChecked(True)
    assert dict(form.values())["q"] == "0.1,0.9" and dict(form.values())["normalise"] is True


def test_rebuilding_replaces_the_editors(form: ParameterForm):
    form.set_parameters(())
    assert form.editors == {} and form.values() == ()
    (tree,) = [info for info in algorithms(TaskKind.CDF) if info.name == "tree-laplace"]
    form.set_parameters(tree.parameters)
    assert list(form.editors) == [p.name for p in tree.parameters]


def test_a_parameter_with_choices_is_a_drop_down_of_exactly_those(form: ParameterForm):
    from PySide6.QtWidgets import QComboBox

    from dpgui.tasks.distance import METRIC
    from dpgui.tasks.learning import DIRECTION

    form.set_parameters((DIRECTION, METRIC))
    for spec in (DIRECTION, METRIC):
        editor = form.editors[spec.name]
        assert isinstance(editor, QComboBox)
        assert [editor.itemText(i) for i in range(editor.count())] == list(spec.choices)
        assert editor.currentText() == spec.default
    form.set_values([("direction", "le"), ("metric", "l2")])
    assert dict(form.values()) == {"direction": "le", "metric": "l2"}


def test_every_enumerated_parameter_offers_its_choices_in_the_cli_too():
    """A parameter with choices is a drop-down here and a flag with the same choices there; the flag's
    value defaults to None, which stands for the spec's default (named in its help)."""
    from dpgui.cli.main import build_parser

    parser = build_parser()
    release = next(a for a in parser._actions if a.dest == "command").choices["release"]
    tasks = next(a for a in release._actions if a.choices and "threshold" in a.choices).choices
    enumerated = [
        (kind, spec)
        for kind in TaskKind
        for info in algorithms(kind)
        for spec in info.parameters
        if spec.choices
    ]
    assert {spec.name for _, spec in enumerated} >= {"direction", "metric"}
    for kind, spec in enumerated:
        flag = flag_of(spec.name)
        action = next(a for a in tasks[kind.value]._actions if flag in a.option_strings)
        assert tuple(action.choices) == spec.choices and action.default is None
        assert f"default {spec.default}" in action.help


def test_advanced_parameters_start_collapsed_and_still_give_their_values(qtbot):
    """Issue 15: parameters other than epsilon, delta and the domain's behind "Advanced" (tuning knobs)."""
    form = ParameterForm()
    qtbot.addWidget(form)
    form.set_parameters(
        (
            ParameterSpec("q", str, "0.5", "quantiles"),
            ParameterSpec("branching", int, 0, "tree branching", 0, 64, advanced=True),
        )
    )
    form.show()
    assert form.editors["q"].isVisible() and not form.editors["branching"].isVisible()
    assert form.advanced_button.isVisible()
    form.advanced_button.click()
    assert form.editors["branching"].isVisible()
    assert form.values() == (("q", "0.5"), ("branching", 0))
    form.set_parameters((ParameterSpec("q", str, "0.5", "quantiles"),))
    assert not form.advanced_button.isVisible()  # nothing advanced: no button


def test_the_registry_keeps_tuning_knobs_advanced_and_the_task_defining_ones_visible():
    every = {spec.name: spec for kind in TaskKind for info in algorithms(kind) for spec in info.parameters}
    assert every["branching"].advanced and every["beta"].advanced and every["embedding_seed"].advanced
    assert not any(every[name].advanced for name in ("q", "rows", "metric", "direction", "queries"))


def test_every_label_has_a_question_mark_that_shows_the_parameters_help(qtbot, form: ParameterForm):
    marked = {
        label.text().split(":")[0]: label for label in form.findChildren(QLabel) if ">?<" in label.text()
    }
    assert {name: label.toolTip() for name, label in marked.items()} == {
        spec.name: spec.help for spec in SPECS
    }
    marked["beta"].linkActivated.emit(HELP_LINK)
    qtbot.waitUntil(lambda: QToolTip.isVisible() and QToolTip.text() == SPECS[0].help, timeout=2000)


def test_naming_the_queries_file_leaves_out_the_query_count_it_sets(qtbot, form: ParameterForm):
    """The file's rows set the count (the core refuses both): while a file is named the count's editor is
    off and the form does not send it."""
    (baseline,) = [info for info in algorithms(TaskKind.DISTANCE) if info.name == "laplace-per-query"]
    form.set_parameters(baseline.parameters)
    count, queries = form.editors["query_count"], form.editors["queries"]
    assert isinstance(queries, QLineEdit)
    assert count.isEnabled() and dict(form.values())["query_count"] == 1000
    queries.setText("queries.csv")
    assert not count.isEnabled()
    assert "query_count" not in dict(form.values()) and dict(form.values())["queries"] == "queries.csv"
    queries.setText(" ")
    assert count.isEnabled() and dict(form.values())["query_count"] == 1000
