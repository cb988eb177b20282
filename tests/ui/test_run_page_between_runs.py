"""Between runs the Run page names the task the next run would make, and shows the last run's progress,
plot and log only while the task is still the one that run made."""

from __future__ import annotations

from dpgui.data import NumericDomain
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import REVIEW, RUN, TASK, MainWindow
from tests.ui.test_main_window import pick_cdf, set_total


def run_cdf(qtbot, window: MainWindow) -> None:
    set_total(window, 10.0)
    pick_cdf(window, algorithm="tree-laplace")
    window.start_release()
    with qtbot.waitSignal(window.current_job.released, timeout=15_000):
        pass


def test_the_last_runs_log_stays_while_the_task_is_unchanged(qtbot, demo_window: MainWindow):
    window = demo_window
    run_cdf(qtbot, window)
    log = window.run_page.log.toPlainText()
    assert log and window.run_page.progress.value() == window.run_page.progress.maximum()
    for page in (TASK, RUN, REVIEW, RUN):
        window.go_to(page)
    assert window.run_page.log.toPlainText() == log
    assert "CDF" in window.run_page.summary.text() and "tree-laplace" in window.run_page.summary.text()


def test_another_task_clears_the_last_runs_progress_plot_and_log(qtbot, demo_window: MainWindow):
    """The Run page read "Histogram of education …" above the CDF run's 100 % bar, curve and log."""
    window = demo_window
    run_cdf(qtbot, window)
    window.go_to(TASK)
    window.task_page.select_task(TaskKind.HISTOGRAM)
    window.task_page.select_columns(["education"])
    window.task_page.declare("education", NumericDomain(0, 20, 1))
    window.go_to(RUN)
    page = window.run_page
    assert page.summary.text().startswith("Histogram") and "education" in page.summary.text()
    assert page.log.toPlainText() == "" and page.progress.value() == 0
    assert not page.plot.isVisibleTo(page)


def test_an_incomplete_task_is_named_as_not_ready_not_as_the_last_valid_one(qtbot, demo_window: MainWindow):
    window = demo_window
    run_cdf(qtbot, window)
    window.task_page.domain_rows["wage"].upper.setText("")
    window.go_to(RUN)
    assert window.run_page.summary.text().startswith("Not ready to run:")
    assert "wage" in window.run_page.summary.text() and window.run_page.log.toPlainText() == ""


def test_a_running_jobs_summary_stays_when_its_page_is_shown_again(qtbot, demo_window: MainWindow):
    window = demo_window
    set_total(window, 10.0)
    pick_cdf(window, algorithm="tree-laplace")
    window.start_release()
    job = window.current_job
    summary = window.run_page.summary.text()
    assert summary.startswith("Running")
    window.go_to(TASK)
    window.go_to(RUN)
    assert window.run_page.summary.text() == summary
    with qtbot.waitSignal(job.released, timeout=15_000):
        pass


def test_parameters_the_charge_would_refuse_are_named_as_not_ready(demo_window: MainWindow):
    """GUI audit (session 39): quantiles at q = 1.5 read "Private quantiles of wage with auto at ε = 1" on
    the Run page, the refusal came only from Run, in a dialog."""
    window = demo_window
    window.task_page.select_task(TaskKind.QUANTILES)
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", NumericDomain(0, 20000, 1))
    window.task_page.parameters.set_values((("q", "0.5,1.5"),))
    window.go_to(RUN)
    summary = window.run_page.summary.text()
    assert summary.startswith("Not ready to run:") and "1.5" in summary
