"""Render every page of the main window offscreen into docs/screenshots/<page>.png.

Run: ``python docs/screenshots/make_screenshots.py``. The demo (cps1988 private, cps1985 public) is opened
with a throw-away ledger (DPGUI_HOME in a temporary folder), and one real CDF release of wage is made so the
Run and Review pages show a release. main-window.png is what ``dpgui --demo --screenshot`` renders.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGE_FILES = ("data", "task", "budget", "run", "review")


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["DPGUI_HOME"] = tempfile.mkdtemp(prefix="dpgui-screenshots-")

    from PySide6.QtCore import QCoreApplication, QThreadPool

    from dpgui.data import NumericDomain
    from dpgui.paths import demo_private_path, demo_public_path
    from dpgui.tasks.spec import TaskKind
    from dpgui.ui.app import SCREENSHOT_SIZE, application, prepare_demo, run_gui
    from dpgui.ui.main_window import RUN, MainWindow

    if run_gui(demo_private_path(), demo_public_path(), HERE / "main-window.png", demo=True) != 0:
        return 1
    app = application()
    window = MainWindow()
    window.load_private(demo_private_path())
    window.load_public(demo_public_path())
    prepare_demo(window)
    window.task_page.select_task(TaskKind.CDF)
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", NumericDomain(0, 20000, 20))
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    window.go_to(RUN)
    window.start_release()
    while window.current_job is not None:  # the worker reports through queued signals
        QThreadPool.globalInstance().waitForDone(50)
        QCoreApplication.processEvents()
    if window.release is None:
        print("the demo release did not complete", file=sys.stderr)
        return 1
    for page, name in enumerate(PAGE_FILES):
        window.go_to(page)
        app.processEvents()
        target = HERE / f"{name}.png"
        if not window.grab().save(str(target), "PNG"):
            return 1
        print(f"wrote {target}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
