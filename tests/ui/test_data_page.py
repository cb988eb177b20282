"""The Data page: engine choice, opening in a worker with progress and cancel, scanning releases."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtWidgets import QInputDialog

from dpgui.data import NumericDomain
from dpgui.data.backends import Engine
from dpgui.data.errors import DataError
from dpgui.paths import demo_private_path
from dpgui.privacy.ledger import ReservationStatus
from dpgui.ui.main_window import SCANNED_DATA_NOTE, MainWindow
from tests.ui.test_main_window import pick_cdf, review_shown, set_total

ROWS = 4_000_000
VALUE_DOMAIN = NumericDomain(0, 1000, 1)


@pytest.fixture
def window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    return window


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four record batches of the out-of-core engine (1,048,576 rows each), so a scan can be cancelled."""
    path = tmp_path_factory.mktemp("big") / "big.csv"
    values = np.random.default_rng(3).integers(0, 1001, size=ROWS)
    pd.DataFrame({"value": values}).to_csv(path, index=False)
    return path


def open_and_wait(qtbot, window: MainWindow, path: Path, engine: Engine) -> None:
    window.data_page.select_engine(engine)
    window.open_private(window.data_page.request(str(path)))
    assert window.open_job is not None and window.data_page.progress.isVisibleTo(window.data_page)
    with qtbot.waitSignal(window.open_job.opened, timeout=20_000):
        pass


def test_the_embedded_engine_opens_in_a_worker_and_previews_only_the_first_rows(qtbot, window, tmp_path):
    frame = pd.read_csv(demo_private_path())
    parquet = tmp_path / "cps.parquet"
    frame.to_parquet(parquet, index=False)
    open_and_wait(qtbot, window, parquet, Engine.EMBEDDED)
    assert window.opened is not None and not window.opened.in_memory
    assert window.opened.aggregator.name == "embedded"
    assert window.data_page.rows_label.text() == f"{len(frame):,}"
    assert window.data_page.engine_label.text() == "embedded"
    assert window.data_page.preview_model.rowCount() == 1000  # the first rows only, not the file
    assert "first 1,000 rows" in window.data_page.preview_title.text()
    summary = window.data_page.summary
    kinds = {summary.item(r, 0).text(): summary.item(r, 1).text() for r in range(summary.rowCount())}
    assert kinds["wage"] == "numeric" and kinds["region"] == "categorical"
    assert not window.data_page.progress.isVisibleTo(window.data_page)


def test_the_in_memory_engine_summarises_every_columns_missing_cells(qtbot, window, tmp_path):
    path = tmp_path / "gaps.csv"
    pd.DataFrame({"a": [1.0, None, 3.0, None], "b": ["x", "y", None, "z"]}).to_csv(path, index=False)
    window.load_private(path, Engine.MEMORY)
    summary = window.data_page.summary
    missing = {summary.item(r, 0).text(): summary.item(r, 2).text() for r in range(summary.rowCount())}
    assert missing == {"a": "2", "b": "1"}
    assert (
        window.data_page.preview_model.rowCount() == 4
        and "every row" in window.data_page.preview_title.text()
    )


def test_a_release_on_the_embedded_engine_names_it_and_matches_the_in_memory_aggregates(qtbot, tmp_path):
    parquet = tmp_path / "cps.parquet"
    pd.read_csv(demo_private_path()).to_parquet(parquet, index=False)
    histograms = []
    for engine in (Engine.EMBEDDED, Engine.MEMORY):
        window = MainWindow()
        qtbot.addWidget(window)
        window.load_private(parquet, engine)
        set_total(window, 10.0)
        pick_cdf(window)
        window.start_release()
        job = window.current_job
        assert job is not None
        with qtbot.waitSignal(job.released, timeout=20_000):
            pass
        assert window.release is not None and window.release.aggregation_backend == engine.value
        spec = window.release.spec
        histograms.append(window.opened.aggregator.histogram("wage", spec.domain, spec.missing))
    assert np.array_equal(histograms[0], histograms[1])


def test_cancelling_an_opening_scan_leaves_no_dataset_open(qtbot, window, big_csv):
    window.data_page.select_engine(Engine.EMBEDDED)
    window.open_private(window.data_page.request(str(big_csv)))
    job = window.open_job
    assert job is not None
    job.progress.connect(lambda *_: window.data_page.cancel_button.click())
    with qtbot.waitSignal(job.cancelled, timeout=30_000):
        pass
    assert window.dataset is None and window.open_job is None
    assert "cancelled" in window.statusBar().currentMessage()


def test_cancelling_a_release_while_the_engine_scans_keeps_it_charged(qtbot, window, big_csv):
    window.load_private(big_csv, Engine.EMBEDDED)
    assert window.data_page.rows_label.text() == f"{ROWS:,}"
    set_total(window, 5.0)
    pick_cdf(window, "value", VALUE_DOMAIN, "tree-laplace")
    scanning: list[str] = []
    window.start_release()
    job = window.current_job
    assert job is not None

    def on_progress(_: float, message: str) -> None:
        # the engine scans twice: the data check (before the touch: a cancel there is refunded), then the run
        if message.startswith("scanning") and job.touched and not scanning:
            scanning.append(message)
            window.cancel_release()

    job.progress.connect(on_progress)
    with qtbot.waitSignal(job.cancelled, timeout=30_000):
        pass
    assert scanning and "big.csv" in scanning[0]
    assert window.release is None
    entries = window.ledger.entries(window.record.id)
    assert [e.status for e in entries] == [ReservationStatus.COMMITTED]  # touched: stays spent
    assert window.ledger.state(window.record.id).spent.epsilon == pytest.approx(1.0)


def test_a_spark_table_is_opened_with_the_master_url_typed_on_the_data_page(qtbot, window, monkeypatch):
    """The app's Spark wiring, without starting Spark (tests/data/test_backends_spark.py runs it for real)."""
    seen: dict[str, object] = {}

    def fake_open(path, engine, **options):
        seen.update(path=path, engine=engine, **options)
        raise DataError("no Spark here")

    monkeypatch.setattr("dpgui.jobs.open_job.open_aggregator", fake_open)
    monkeypatch.setattr(QInputDialog, "getText", lambda *args, **kwargs: ("census.people", True))
    window.data_page.select_engine(Engine.SPARK)
    assert window.data_page.spark_master.isVisibleTo(window.data_page)
    window.data_page.spark_master.setText("spark://cluster:7077")
    window._choose_spark_table()
    job = window.open_job
    assert job is not None
    with qtbot.waitSignal(job.failed, timeout=10_000):
        pass
    assert seen == {
        "path": None,
        "engine": Engine.SPARK,
        "table": "census.people",
        "spark_master": "spark://cluster:7077",
        "progress": seen["progress"],
        "cancelled": seen["cancelled"],
        "encoding": None,
    }
    box = window.error_box
    assert box is not None and "no Spark here" in box.text()
    box.close()


def test_closing_the_window_while_a_file_opens_cancels_the_scan(qtbot, window, big_csv):
    window.data_page.select_engine(Engine.EMBEDDED)
    window.open_private(window.data_page.request(str(big_csv)))
    job = window.open_job
    assert job is not None
    outcomes: list[str] = []
    job.cancelled.connect(lambda: outcomes.append("cancelled"))
    job.opened.connect(lambda _: outcomes.append("opened"))
    window.show()
    window.close()  # cancels the scan; the window closes once the job has ended
    assert window.isVisible()  # the GUI thread did not wait for the worker
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert outcomes == ["cancelled"] and window.dataset is None


def test_the_review_of_a_scanned_file_says_its_cells_are_checked_in_the_run(qtbot, window, tmp_path):
    """The sheet lists the data check's warnings for data in memory; a scanned file's pass runs in the
    worker before the first read, and the sheet says so instead of listing nothing."""
    parquet = tmp_path / "cps.parquet"
    pd.read_csv(demo_private_path()).to_parquet(parquet, index=False)
    window.load_private(parquet, Engine.EMBEDDED)
    set_total(window, 5.0)
    pick_cdf(window)
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert sheet.data_note.text() == SCANNED_DATA_NOTE and sheet.data_note.isVisibleTo(sheet)
    assert sheet.data_labels == []
    sheet.reject()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "the file is empty"),
        (b"a,b,c\n", "header but no data rows"),
        (bytes(range(256)) * 20, "not text in any encoding"),
    ],
)
def test_a_file_that_is_not_a_table_is_refused_naming_it_once(qtbot, window, tmp_path, content, reason):
    """Empty, header-only and binary files: the message read 'bad.csv: bad.csv: the file is empty'."""
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    window.open_private(window.data_page.request(str(bad)))
    with qtbot.waitSignal(window.open_job.failed, timeout=10_000):
        pass
    box = window.error_box
    assert box is not None and reason in box.text()
    assert box.text().count("bad.csv") == 1 and window.dataset is None
    box.close()
    window._load(window.load_public, bad)  # the public sample's refusal reads alike
    assert reason in window.error_box.text() and window.error_box.text().count("bad.csv") == 1
    window.error_box.close()
