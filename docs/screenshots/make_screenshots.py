"""Render every page of the main window offscreen into docs/screenshots/<name>.png.

Run: ``python docs/screenshots/make_screenshots.py [FOLDER]`` (default: this folder). The demo (cps1988
private, cps1985 public) is opened with a throw-away ledger (DPGUI_HOME in a temporary folder), and real
releases are made through the worker so the Run, Review and Budget pages show what a custodian sees: a CDF
(with and without the custodian-only true CDF), threshold learning, a categorical histogram, the distance
explorer, an online distance session and a sanitized table (AIM's rounds live, then the synthetic rows'
1-way bars and a 2-way heatmap). budget-plan is the release plan editor with three releases added
from the Task page. review-sheet is the review shown before a charge, with a failed
check (PAP on weekly wages with the hourly public sample). The last shot is the Review page in a dark
palette.
main-window.png is what ``dpgui --demo --screenshot`` renders.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHOTS = (
    "main-window",
    "data",
    "task",
    "review-sheet",
    "budget",
    "budget-error-curve",
    "budget-simulation",
    "budget-plan",
    "budget-timeline",
    "run",
    "review",
    "review-true-cdf",
    "review-threshold",
    "task-histogram",
    "review-histogram",
    "review-distance",
    "run-online",
    "task-table",
    "run-table",
    "review-table",
    "review-dark",
)
ONLINE_QUERIES = 150


def main(folder: Path = HERE) -> int:
    """Render every shot into ``folder`` with a throwaway ledger home, removed afterwards."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="dpgui-screenshots-") as scratch:
        os.environ["DPGUI_HOME"] = scratch
        return render(folder, Path(scratch))


def render(folder: Path, scratch: Path) -> int:
    """Every shot of ``SHOTS`` into ``folder``; ``scratch`` holds the run's query file."""
    import pandas as pd
    from PySide6.QtCore import QCoreApplication, QThreadPool
    from PySide6.QtGui import QPalette

    from dpgui.data import CategoricalDomain, NumericDomain
    from dpgui.paths import demo_private_path, demo_public_path
    from dpgui.privacy.cost import PrivacyCost
    from dpgui.tasks.spec import TaskKind
    from dpgui.ui.app import SCREENSHOT_SIZE, application, prepare_demo, run_gui
    from dpgui.ui.main_window import BUDGET, DATA, REVIEW, RUN, TASK, MainWindow
    from dpgui.ui.plan_view import WEIGHT
    from dpgui.ui.theme import dark_palette

    folder.mkdir(parents=True, exist_ok=True)
    if run_gui(demo_private_path(), demo_public_path(), folder / "main-window.png", demo=True) != 0:
        return 1
    app = application()
    window = MainWindow()
    window.load_private(demo_private_path())
    window.load_public(demo_public_path())
    prepare_demo(window)
    window.ledger.set_total(window.record.id, PrivacyCost(10.0, 1e-5), note="screenshots: two δ > 0 runs")
    window.refresh_budget()
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    task = window.task_page

    def settle(until: Callable[[], bool] = lambda: True, seconds: float = 40) -> None:
        """Let queued signals (worker results, planner rows) arrive until ``until()`` holds."""
        for _ in range(int(seconds * 50)):
            QThreadPool.globalInstance().waitForDone(20)
            QCoreApplication.processEvents()
            if until() and QThreadPool.globalInstance().activeThreadCount() == 0:
                return
        raise RuntimeError("the app did not settle")

    def shot(name: str, page: int | None = None) -> None:
        if page is not None:
            window.go_to(page)
        settle()
        target = folder / f"{name}.png"
        if not window.grab().save(str(target), "PNG"):
            raise OSError(f"could not write {target}")
        print(f"wrote {target}")

    def release(seconds: float = 40) -> None:
        window.go_to(RUN)
        window.start_release()
        settle(lambda: window.current_job is None, seconds)
        if window.current_job is not None or window.release is None:
            raise RuntimeError("the demo release did not complete")

    shot("data", DATA)
    task.select_task(TaskKind.CDF)
    task.select_columns(["wage"])
    task.declare("wage", NumericDomain(0, 4000, 20, unit="USD per week"))
    shot("task", TASK)

    task.declare("wage", NumericDomain(0, 20000, 20, unit="USD per week"))  # the public sample: hourly
    task.select_algorithm("pap")
    window.run_action.trigger()
    settle(lambda: window.review_sheet is not None)  # the review is prepared in a worker
    sheet = window.review_sheet
    if sheet is None or not sheet.review.failures:
        raise RuntimeError("the review sheet did not show the failed check")
    width = SCREENSHOT_SIZE[0] * 5 // 6
    layout = sheet.layout()
    height = layout.totalHeightForWidth(width) if layout is not None else -1
    sheet.resize(width, height if height > 0 else sheet.sizeHint().height())
    settle()
    target = folder / "review-sheet.png"
    if not sheet.grab().save(str(target), "PNG"):
        raise OSError(f"could not write {target}")
    print(f"wrote {target}")
    sheet.reject()
    task.declare("wage", NumericDomain(0, 4000, 20, unit="USD per week"))
    task.select_algorithm("auto")
    release()
    shot("run", RUN)
    shot("review", REVIEW)
    window.review_page.custodian_box.setChecked(True)
    shot("review-true-cdf")
    window.review_page.custodian_box.setChecked(False)

    budget = window.budget_page
    shot("budget", BUDGET)
    budget.planner_tabs.setCurrentWidget(budget.curve)
    settle(lambda: bool(budget.curve.curves))
    shot("budget-error-curve")
    budget.planner_tabs.setCurrentWidget(budget.simulation)
    budget.simulation.button.click()
    settle(lambda: budget.simulation.simulation is not None)
    shot("budget-simulation")

    plan = budget.plan_view  # a release plan edited from the Task page: the CDF, a median, quartiles
    plan.add_current()
    task.select_task(TaskKind.MEDIAN)
    plan.add_current()
    task.select_task(TaskKind.QUANTILES)
    plan.add_current()
    plan.epsilon.setValue(2.0)
    plan.table.item(1, WEIGHT).setText("2")  # the median's weight
    budget.planner_tabs.setCurrentWidget(plan)
    sizes = budget.splitter.sizes()
    budget.splitter.setSizes([sum(sizes) * 3 // 4, sum(sizes) // 4])  # the plan's rows in view
    settle(lambda: plan.batch is not None)
    shot("budget-plan", BUDGET)
    budget.splitter.setSizes(sizes)

    task.select_task(TaskKind.THRESHOLD)
    task.select_columns(["experience"])
    task.declare("experience", NumericDomain(0, 60, 1, unit="years"))
    task.label.setCurrentText("parttime")
    task.positive.setText("yes")
    release()
    window.review_page.custodian_box.setChecked(True)
    shot("review-threshold")

    task.select_task(TaskKind.HISTOGRAM)
    task.select_columns(["region"])
    task.declare("region", CategoricalDomain(("northeast", "midwest", "south", "west")))
    shot("task-histogram", TASK)
    release()
    shot("review-histogram")

    task.select_task(TaskKind.DISTANCE)
    task.select_columns(["education", "experience", "wage"])
    task.declare("education", NumericDomain(0, 20, 1, unit="years"))
    task.declare("experience", NumericDomain(-5, 70, 1, unit="years"))
    task.declare("wage", NumericDomain(0, 4000, 20, unit="USD per week"))
    task.select_algorithm("cdf-route")
    release()
    explorer = window.review_page.distance_explorer
    explorer.x_axis.setCurrentIndex(0)  # wage across, education up: answers in dollars plus years
    explorer.y_axis.setCurrentIndex(1)
    explorer.x_axis.activated.emit(0)
    for point in ((400.0, 10.0), (1500.0, 16.0)):
        explorer.pick(point)
    explorer.coordinates["experience"].setValue(10)
    explorer.pick((800.0, 12.0))
    shot("review-distance")

    queries = scratch / "queries.csv"
    public = pd.read_csv(demo_public_path())[["education", "experience"]]
    public.sample(ONLINE_QUERIES, random_state=0).to_csv(queries, index=False)  # public data only
    task.select_columns(["education", "experience"])
    task.select_algorithm("huang-roth-online")
    task.parameters.set_values((("queries", str(queries)),))
    budget.delta.setText("1e-6")
    budget.delta.editingFinished.emit()
    release()
    shot("run-online", RUN)

    task.select_task(TaskKind.TABLE)  # a sanitized table of five columns, δ = 1e-6 as above
    task.select_columns(["wage", "education", "experience", "region", "parttime"])
    task.declare("wage", NumericDomain(0, 3000, 100, unit="USD per week"))
    task.declare("education", NumericDomain(0, 18, 1, unit="years"))
    task.declare("experience", NumericDomain(-5, 65, 1, unit="years"))
    task.declare("region", CategoricalDomain(("midwest", "northeast", "south", "west")))
    task.declare("parttime", CategoricalDomain(("no", "yes")))
    task.select_algorithm("aim")
    shot("task-table", TASK)
    release(seconds=300)
    shot("run-table", RUN)
    synthetic = window.review_page.synthetic_view
    synthetic.column.setCurrentText("wage")
    synthetic.first.setCurrentText("experience")
    synthetic.second.setCurrentText("wage")
    shot("review-table", REVIEW)

    budget.ledger_tabs.setCurrentWidget(budget.timeline)
    window.go_to(BUDGET)
    settle(budget.timeline.composing.isHidden)  # composed off the GUI thread
    bar = budget.scroll.verticalScrollBar()
    bar.setValue(bar.maximum())  # the ledger sits at the page's foot, as a custodian scrolls to it
    shot("budget-timeline")
    bar.setValue(0)

    task.select_task(TaskKind.CDF)
    task.select_columns(["wage"])
    task.declare("wage", NumericDomain(0, 4000, 20, unit="USD per week"))
    budget.delta.setText("0")
    budget.delta.editingFinished.emit()
    release()
    original = QPalette(app.palette())
    app.setPalette(dark_palette())
    shot("review-dark", REVIEW)
    app.setPalette(original)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE))
