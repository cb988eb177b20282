"""The main window: a page flow Data -> Task -> Budget -> Run -> Review & export over one private dataset.

The private data is shown only on the Data page (custodian-only preview). Domains come from declarations or a
public sample; the ledger is charged (in the GUI thread) before a released value is shown.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QListWidget,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from dpgui import APP_NAME, __version__
from dpgui.data import SUPPORTED_SUFFIXES, ColumnKind, ColumnSummary, DataError, Dataset, summarize_columns
from dpgui.data.backends import Engine, OpenedData, ScanMonitor
from dpgui.data.checks import DataCheck, DataRefused
from dpgui.data.dataset import DatasetHandle
from dpgui.data.public import PublicSample
from dpgui.jobs.background import LatestCall
from dpgui.jobs.open_job import OpenJob, OpenRequest, open_private
from dpgui.jobs.plan_job import PlanJob
from dpgui.jobs.release_job import ReleaseJob, checked_in_memory
from dpgui.numbers import readable
from dpgui.paths import dpgui_home
from dpgui.planner.batch import BatchPlan
from dpgui.planner.plan import plan
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import (
    Account,
    BudgetNotSet,
    BudgetState,
    ChainHead,
    DatasetRecord,
    Ledger,
    LedgerError,
)
from dpgui.release.batch_export import NamedRelease
from dpgui.release.export import ExportedFiles
from dpgui.release.kept import forget, kept_folder, kept_root
from dpgui.release.project import (
    PROJECT_SUFFIX,
    FileRef,
    Project,
    ProjectError,
    ReleaseRecord,
    load_project,
    save_project,
)
from dpgui.release.release import Release
from dpgui.release.staging import EarlierRelease, OutFolderError, files_left, refuse_near_private_files
from dpgui.tasks.ledger_review import plan_reviews, release_review
from dpgui.tasks.preflight import check_parameters, preflight
from dpgui.tasks.review import ReleaseReview
from dpgui.tasks.runner import PreconditionFailed, PreparedRun, prepare
from dpgui.tasks.spec import TaskSpec
from dpgui.ui.accessible import first_field
from dpgui.ui.budget_page import BudgetPage
from dpgui.ui.budget_panel import format_cost
from dpgui.ui.custodian_layers import CustodianSource
from dpgui.ui.data_page import DataPage
from dpgui.ui.declared_domains import DeclaredDomains
from dpgui.ui.export_dialogs import ExportedOffer, choose_export_folder
from dpgui.ui.export_requests import ExportRequest, PlanExport, ReleaseExport
from dpgui.ui.garbage import collect_garbage_in_the_gui_thread
from dpgui.ui.help_dialogs import GlossaryDialog, UserGuideDialog
from dpgui.ui.icon import app_icon
from dpgui.ui.number_box import read_number
from dpgui.ui.review_page import ReviewPage
from dpgui.ui.review_sheet import ReviewSheet
from dpgui.ui.run_page import RunPage
from dpgui.ui.task_page import TaskPage

SCANNED_DATA_NOTE = (
    "This file is scanned rather than held in memory: its cells are checked in the run's first pass, "
    "before the algorithm reads them, and a refusal there is refunded."
)

PUBLIC_UNIT_NOTES = {
    ("cps1985.csv", "wage"): "cps1985 wage is hourly (the cps1988 demo wage is weekly): scale before use.",
    ("cps1985.csv", "region"): "cps1985 region is south/other (cps1988 has northeast, midwest, south, west): "
    "type the categories.",
    ("cps1985.csv", "ethnicity"): "cps1985 ethnicity is cauc/hispanic/other (cps1988 has afam, cauc).",
}
"""Known unit or category differences between a public sample's column and the demo's private one."""

PAGES = ("Data", "Task", "Budget", "Run", "Review & export")
DATA, TASK, BUDGET, RUN, REVIEW = range(len(PAGES))

MAX_RECENT = 8
_RECENT_KEY = "recent_files"
SETTINGS_FILE = "settings.ini"
SCREEN_FRACTION = 0.8
"""A first start opens the window at this fraction of the screen's width and height (later: as left)."""
_LOAD_HINT = (
    "Check that the file is a data table with a header row (CSV, Parquet, Excel, …) and that you may read "
    "it, or choose another file."
)
_TWIN_HINT = "Choose a file of public data as the public sample (the private file is open already)."
_REFUSALS = (LedgerError, PreconditionFailed, ValueError)  # DataError is a ValueError


class PublicTwinError(DataError):
    """A public sample with the private data's bytes (its own hint: the file reads fine)."""


class PreparedReview(NamedTuple):
    """A review before a charge as the thread pool prepared it, with what it was prepared for."""

    spec: TaskSpec
    """The task as the custodian built it (``prepared.spec`` has auto resolved and its files pinned)."""
    prepared: PreparedRun
    review: ReleaseReview
    data_check: DataCheck | None
    ledger_head: ChainHead
    """The ledger as the review read it: a review of an older ledger is prepared again."""


REVIEW_PRIORITY = 1
"""A review the custodian waits for runs before queued previews (planner, curves, simulations: 0)."""


def _prepared_review(
    spec: TaskSpec, dataset: Dataset | DatasetHandle, ledger: Ledger, dataset_id: str | None
) -> PreparedReview:
    """Worker thread: price ``spec``, check the data in memory, and compose the review against the
    ledger (public information only; the data check's counts are for the custodian alone). The pre-flight
    the charge would run comes first: a task it refuses (a grid of one point, a GUI audit found, reviewed
    with a failed check to acknowledge) is refused in words, not reviewed."""
    head = ledger.head()
    prepared = prepare(spec, dataset.n_rows)
    preflight(spec.with_algorithm(prepared.algorithm.name), dataset.n_rows)
    review = release_review(prepared, ledger, dataset_id)
    return PreparedReview(spec, prepared, review, checked_in_memory(spec, dataset), head)


def _refusal_text(error: BaseException) -> str:
    """A refusal with every problem it found: a data check's further ones under its first (``DataRefused``;
    a GUI audit read "(and 1 more problem)" and never learnt which)."""
    further = error.further if isinstance(error, DataRefused) else ()
    return str(error) + "".join(f"\n\nAlso: {problem}" for problem in further)


def _named(name: str, error: BaseException) -> str:
    """The error about file ``name``, led by the name once (the readers' errors mostly start with it)."""
    text = str(error)
    return text if text.startswith(f"{name}:") else f"{name}: {text}"


def _file_filter() -> str:
    patterns = " ".join(f"*{suffix}" for suffix in sorted(SUPPORTED_SUFFIXES))
    return f"Data files ({patterns});;All files (*)"


def settings() -> QSettings:
    """The app's settings (recent files, window state) in ``settings.ini`` under the user data folder, beside
    the ledger (``DPGUI_HOME`` moves both)."""
    return QSettings(str(dpgui_home() / SETTINGS_FILE), QSettings.Format.IniFormat)


def _numeric_columns(columns: list[ColumnSummary]) -> list[str]:
    return [column.name for column in columns if column.kind is ColumnKind.NUMERIC]


def _dropped_file(event: QDragEnterEvent | QDropEvent) -> Path | None:
    """The one local data file being dragged, if that is what it is."""
    urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
    if len(urls) != 1 or not urls[0].isLocalFile():
        return None
    path = Path(urls[0].toLocalFile())
    return path if path.suffix.lower() in SUPPORTED_SUFFIXES or path.is_dir() else None


def _unexported_question(release_ids: list[str]) -> str:
    """The close question's text: how many releases were never exported, and whether dpgui kept their
    files (``release.kept``) or closing loses their values (a copy that could not be written)."""
    count = len(release_ids)
    lost = sum(1 for release_id in release_ids if not kept_folder(release_id).is_dir())
    said = f"{count} release(s) of this session were not exported; their cost is spent in the ledger."
    if lost:
        return f"{said} {lost} of them could not be kept on disk: closing drops their values. Close anyway?"
    return (
        f"{said} dpgui keeps their files in {kept_root()} until you export them (the Budget page's ledger "
        "says where). Close anyway?"
    )


class MainWindow(QMainWindow):
    """One private dataset, an optional public sample, the page flow and the dataset's budget."""

    def __init__(self, ledger: Ledger | None = None) -> None:
        super().__init__()
        collect_garbage_in_the_gui_thread()
        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)
        self.ledger = ledger if ledger is not None else Ledger()
        self.record: DatasetRecord | None = None
        self.public: PublicSample | None = None
        self.current_job: ReleaseJob | PlanJob | None = None
        self.review_sheet: ReviewSheet | None = None
        self._reviewed: tuple[TaskSpec, Dataset | DatasetHandle, DataCheck] | None = None
        """The spec, dataset and data check of the last review of data in memory (reused by its charge)."""
        self.help_dialog: QDialog | None = None
        self.release: Release | None = None
        """The release shown on the Review page, which Export writes."""
        self.releases: list[ReleaseRecord] = []
        self.session_releases: dict[str, Release] = {}
        """This session's releases by id, so the Review page's list can show and export any of them."""
        """The session's releases (public facts only), saved in the project file."""
        self.error_box: QMessageBox | None = None
        self._release_data: dict[str, Path] = {}
        """The private file each of this session's releases read, so Export never writes into its folder."""
        self._running_data: Path | None = None
        """The private file the running job reads (another may be opened while it runs)."""
        self._run_shown_for: TaskSpec | None = None
        """The Task page's spec when the run whose plot and log the Run page shows started."""

        self.declared = DeclaredDomains()
        """The declared domains, shared by the Data and Task pages."""
        self.data_page = DataPage(self.declared)
        self.opened: OpenedData | None = None
        """The private input's facts and the aggregator (in memory, out of core or Spark) that reads it."""
        self.open_job: OpenJob | None = None
        self._closing = False
        """The custodian closed the window while a job ran: close once it has settled."""
        self._dropping_unexported = False
        """The custodian agreed to close although some releases were never exported."""
        self.close_question: QMessageBox | None = None
        """The open "cancel the running release and close?" question, if any."""
        self.exported_offer: ExportedOffer | None = None
        self._last_export_parent: Path | None = None
        self.scan_monitor = ScanMonitor()
        """Reports a scanning engine's progress to the job using it (opening, then each release)."""
        self.task_page = TaskPage(self.declared)
        self.budget_page = BudgetPage()
        self.budget_panel = self.budget_page.panel
        self.run_page = RunPage()
        self.review_page = ReviewPage()
        self.reviewer = LatestCall(self, priority=REVIEW_PRIORITY)
        """Prepares the review before a charge in the thread pool: auto's simulations take up to about two
        seconds on a fine grid when the planner has not cached them yet."""
        self.reviewer.done.connect(self._show_review)
        self.reviewer.failed.connect(self._review_failed)
        self.plan_reviewer = LatestCall(self, priority=REVIEW_PRIORITY)
        """Composes a release plan's reviews in the thread pool (the ledger's answer for the whole plan)."""
        self.plan_reviewer.done.connect(self._show_plan_review)
        self.plan_reviewer.failed.connect(self._review_failed)
        self.planner = LatestCall(self)
        """Runs the planner for the latest spec in the thread pool; older results are dropped."""
        self.planner.done.connect(self.budget_page.show_plan)
        self.planner.failed.connect(lambda error: self.budget_page.show_plan(None, f"No plan: {error}"))
        self.public_reader = LatestCall(self)
        """Reads a public sample chosen in the app in the thread pool (a large file held the GUI thread)."""
        self.public_reader.done.connect(self._public_read)
        self.public_reader.failed.connect(self._public_failed)
        self._public_path: Path | None = None
        """The public sample being read."""
        self.exporter = LatestCall(self)
        """Writes an export's files in the thread pool (:mod:`dpgui.ui.export_requests`), one at a time."""
        self.exporter.done.connect(self._on_exported)
        self.exporter.failed.connect(self._on_export_failed)
        self._export_request: ExportRequest | None = None
        """The export the exporter is writing."""
        self._waiting_exports: list[ExportRequest] = []
        """Exports asked for while another was written (a plan that ends meanwhile), in order."""
        self.setCentralWidget(self._build_central())
        self._build_actions()

        self.task_page.changed.connect(self._spec_changed)
        self.task_page.error.connect(self._show_error)
        self.budget_page.epsilon.valueChanged.connect(self._spec_changed)
        self.budget_page.delta.editingFinished.connect(self._spec_changed)
        self.budget_panel.set_total_requested.connect(self._ask_total_budget)
        self.budget_page.plan_view.run_requested.connect(self.review_plan)
        self.run_page.run_button.clicked.connect(self.review_release)
        self.run_page.cancel_button.clicked.connect(self.cancel_release)
        self.run_page.finish_button.clicked.connect(self.finish_release)
        self.review_page.export_requested.connect(self.export)
        self.review_page.release_chosen.connect(self.choose_release)
        self.data_page.cancel_requested.connect(self.cancel_opening)
        self.statusBar().showMessage(
            "Open a private dataset to begin (File > Open private dataset…, or drop it)."
        )
        stored = settings()
        if not self.restoreGeometry(stored.value("geometry", b"")):
            self.fit_to_screen()
        self.restoreState(stored.value("window_state", b""))

    def fit_to_screen(self, fraction: float = SCREEN_FRACTION) -> None:
        """Size the window to ``fraction`` of its screen's available area, centred (the first start)."""
        area = self.screen().availableGeometry()
        width, height = int(area.width() * fraction), int(area.height() * fraction)
        left, top = area.x() + (area.width() - width) // 2, area.y() + (area.height() - height) // 2
        self.setGeometry(left, top, width, height)

    @property
    def dataset(self) -> Dataset | DatasetHandle | None:
        """The open private input's public facts (its rows stay behind the aggregator)."""
        return None if self.opened is None else self.opened.dataset

    # -- building ------------------------------------------------------------------------------------------

    def _build_central(self) -> QWidget:
        self.sidebar = QListWidget()
        self.sidebar.addItems([f"{number}. {title}" for number, title in enumerate(PAGES, start=1)])
        self.sidebar.setSpacing(3)
        self.sidebar.setAccessibleName("Pages")
        self.sidebar.setFixedWidth(self.sidebar.fontMetrics().horizontalAdvance("5. Review & export") + 40)
        self.pages = QStackedWidget()
        for page in (
            self.data_page,
            self.task_page,
            self.budget_page,
            self.run_page,
            self.review_page,
        ):
            self.pages.addWidget(page)
        self.back_button = QPushButton("← Back")
        self.next_button = QPushButton("Next →")
        self.back_button.clicked.connect(lambda: self.go_to(self.pages.currentIndex() - 1))
        self.next_button.clicked.connect(lambda: self.go_to(self.pages.currentIndex() + 1))
        self.sidebar.currentRowChanged.connect(lambda row: self.go_to(row, focus=False))  # arrows go on

        navigation = QHBoxLayout()
        navigation.addStretch(1)
        navigation.addWidget(self.back_button)
        navigation.addWidget(self.next_button)
        right = QVBoxLayout()
        right.addWidget(self.pages, 1)
        right.addLayout(navigation)
        central = QWidget()
        layout = QHBoxLayout(central)
        layout.addWidget(self.sidebar)
        layout.addLayout(right, 1)
        self.go_to(DATA)
        return central

    def _build_actions(self) -> None:
        self.open_private_action = self._action("&Open private dataset…", self._choose_private, "Ctrl+O")
        self.open_public_action = self._action("Open &public sample…", self._choose_public, "Ctrl+Shift+O")
        self.open_table_action = self._action("Open Spark &table…", self._choose_spark_table)
        self.run_action = self._action("&Run release", self._run_from_anywhere, "Ctrl+R")
        self.cancel_action = self._action("&Cancel run", self.cancel_release, "Ctrl+.")
        self.export_action = self._action("&Export release…", self.export, "Ctrl+E")
        self.save_project_action = self._action("&Save project…", self._choose_project_to_save, "Ctrl+S")
        self.open_project_action = self._action("Open pro&ject…", self._choose_project_to_open)
        self.recent_menu = QMenu("Open &Recent", self)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        back = self._action("&Back", lambda: self.go_to(self.pages.currentIndex() - 1), "Alt+Left")
        forward = self._action("&Next", lambda: self.go_to(self.pages.currentIndex() + 1), "Alt+Right")
        self.page_actions = [self._page_action(page) for page in range(len(PAGES))]

        file_menu = self.menuBar().addMenu("&File")
        self._add(file_menu, self.open_private_action, self.open_public_action, self.open_table_action)
        file_menu.addMenu(self.recent_menu)
        self._add(
            file_menu,
            None,
            self.open_project_action,
            self.save_project_action,
            None,
            self.export_action,
            None,
        )
        self._add(file_menu, self._action("&Quit", self.close, QKeySequence.StandardKey.Quit))
        self._add(self.menuBar().addMenu("&Release"), self.run_action, self.cancel_action)
        self._add(self.menuBar().addMenu("&Go"), back, forward, None, *self.page_actions)
        self.user_guide_action = self._action(
            "&User guide",
            lambda: self._show_help(UserGuideDialog(self)),
            QKeySequence.StandardKey.HelpContents,
        )
        self.glossary_action = self._action("&Glossary", lambda: self._show_help(GlossaryDialog(self)))
        self._add(
            self.menuBar().addMenu("&Help"),
            self.user_guide_action,
            self.glossary_action,
            None,
            self._action("&About dpgui", self._about),
        )

        toolbar = QToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        toolbar.setIconSize(QSize(16, 16))
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for action in (
            self.open_private_action,
            self.open_public_action,
            self.run_action,
            self.export_action,
        ):
            toolbar.addAction(action)
        self.addToolBar(toolbar)
        self.export_action.setEnabled(False)
        self.cancel_action.setEnabled(False)

    def _action(
        self, text: str, slot: Callable[[], object], shortcut: str | QKeySequence.StandardKey | None = None
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            action.setToolTip(f"{text.replace('&', '').rstrip('…')} ({QKeySequence(shortcut).toString()})")
        action.triggered.connect(slot)
        self.addAction(action)  # shortcuts work whichever page has the focus
        return action

    def _page_action(self, page: int) -> QAction:
        """Go > "1 Data" … "5 Review & export": Ctrl+1 … Ctrl+5 show the page (the sidebar's numbers)."""
        number = page + 1

        def show() -> None:
            self.go_to(page)

        return self._action(f"&{number} {PAGES[page].replace('&', '&&')}", show, f"Ctrl+{number}")

    @staticmethod
    def _add(menu: QMenu, *actions: QAction | None) -> None:
        for action in actions:
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)

    # -- navigation ----------------------------------------------------------------------------------------

    def go_to(self, page: int, *, focus: bool = True) -> None:
        """Show page ``page`` (clamped to the flow) with the focus on its first field (``focus``: not when
        the sidebar's arrows chose it); entering Task or Budget refreshes what they show."""
        page = max(DATA, min(REVIEW, page))
        self.pages.setCurrentIndex(page)
        self.sidebar.blockSignals(True)
        self.sidebar.setCurrentRow(page)
        self.sidebar.blockSignals(False)
        self.back_button.setEnabled(page > DATA)
        self.next_button.setEnabled(page < REVIEW)
        field = first_field(self.pages.currentWidget()) if focus else None
        if field is not None:
            field.setFocus(Qt.FocusReason.OtherFocusReason)
        if page in (TASK, BUDGET, RUN):
            self._spec_changed()

    # -- files ---------------------------------------------------------------------------------------------

    def load_private(self, path: Path, engine: Engine | None = None) -> None:
        """Open the private dataset in this thread (raises DataError) with ``engine`` (default: the Data
        page's choice) and register it in the ledger. The GUI's own opens go through :meth:`open_private`."""
        request = self.data_page.request(str(path))
        if engine is not None:
            request = dataclasses.replace(request, engine=engine)
        opened = open_private(request, self.scan_monitor)
        refusal = self._public_twin(opened.dataset.sha256, opened.dataset.name)
        if refusal:
            raise DataError(refusal)
        self._show_private(opened)

    def open_private(self, request: OpenRequest) -> None:
        """Open the private data in a worker (progress and Cancel on the Data page), then show it."""
        if self.open_job is not None or self.current_job is not None:
            return
        job = OpenJob(request, self.scan_monitor, self.ledger, parent=self)
        job.progress.connect(self.data_page.show_progress)
        job.opened.connect(self._show_opened)
        job.failed.connect(lambda error: self._open_failed(job, error))
        job.cancelled.connect(lambda: self._open_ended(f"Opening {request.name} was cancelled."))
        self.open_job = job
        self.data_page.set_opening(request.name)
        self.go_to(DATA)
        job.start()

    def cancel_opening(self) -> None:
        if self.open_job is not None:
            self.open_job.cancel()

    def _open_failed(self, job: OpenJob, error: Exception) -> None:
        self._open_ended(f"Could not open {job.request.name}.")
        self.show_failure(
            "Cannot open the file", _named(job.request.name, error), _LOAD_HINT, details=job.details
        )

    def _open_ended(self, status: str) -> None:
        self.open_job = None
        self.data_page.set_opening(None)
        self.statusBar().showMessage(status)
        self._close_if_asked()

    def _public_twin(self, sha256: str, name: str) -> str:
        """The refusal of a private file with the public sample's bytes ('' if it has other bytes): the
        domains suggested from that sample would come from the private data."""
        if self.public is None or self.public.sha256 != sha256:
            return ""
        return (
            f"{name} has the same bytes as the public sample {self.public.path.name}, so it is not private "
            "data, or the public sample is not public: open another public sample first, then this file"
        )

    def _show_opened(self, opened: OpenedData) -> None:
        """Show the data a worker opened, unless it is the public sample's twin (:meth:`_public_twin`)."""
        refusal = self._public_twin(opened.dataset.sha256, opened.dataset.name)
        if not refusal:
            self._show_private(opened)
            return
        self._open_ended(f"Did not open {opened.dataset.name}.")
        self.show_failure(
            "Cannot open the file", refusal, "Choose the private file and the public sample again."
        )

    def _show_private(self, opened: OpenedData) -> None:
        """Register the opened data in the ledger and show its facts, columns and preview."""
        dataset = opened.dataset
        self.record = self.ledger.open_dataset(dataset.path, dataset.sha256)
        self.opened = opened
        custodian = CustodianSource(dataset.sha256, opened.aggregator) if opened.in_memory else None
        self.review_page.set_custodian_source(custodian)
        self.declared.clear()  # a new private file: its domains are declared afresh
        columns = self.data_page.show_opened(opened)
        self.remember_recent(dataset.path)
        self.task_page.set_columns(_numeric_columns(columns), [str(c) for c in dataset.header.columns])
        self.refresh_budget()
        changed = " (its bytes changed since last time; the budget continues)" if self.record.changed else ""
        self._open_ended(
            f"Opened {dataset.name} ({opened.aggregator.name} engine){changed}{self._kept_note()}."
        )

    def _kept_note(self) -> str:
        """'; N releases ... not exported' when the open dataset has charged releases whose files the app
        still keeps (an earlier session closed, or crashed, before their Export), else ''."""
        assert self.record is not None
        lefts = [files_left(entry.files) for entry in self.ledger.entries(self.record.id)]
        kept = sum(1 for left in lefts if left is not None and left.kept_by_app)
        if not kept:
            return ""
        return (
            f"; {kept} charged release{'s were' if kept > 1 else ' was'} never exported (the Budget page's "
            "ledger says where the app keeps the files)"
        )

    def load_public(self, path: Path) -> None:
        """Open a public sample now (at start-up, with a project): it may suggest domains and feed
        public-data algorithms (raises DataError). The File menu's choice is read off the GUI thread
        (:meth:`read_public`); one still being read is dropped, so it cannot replace this one later."""
        self.public_reader.drop()
        self.show_public(PublicSample.from_file(Path(path), self.data_page.selected_encoding()))

    def read_public(self, path: Path) -> None:
        """Read a public sample in the thread pool, then show it (or say why it cannot be used)."""
        path, encoding = Path(path), self.data_page.selected_encoding()
        self._public_path = path
        self.statusBar().showMessage(f"Reading the public sample {path.name}…")
        self.public_reader.submit(lambda: PublicSample.from_file(path, encoding))

    def _public_read(self, sample: PublicSample) -> None:
        self._load(lambda _path: self.show_public(sample), sample.path)

    def _public_failed(self, error: Exception) -> None:
        name = self._public_path.name if self._public_path is not None else "the public sample"
        self.statusBar().showMessage(f"Could not read {name}.")
        self.show_failure("Cannot open the file", _named(name, error), _LOAD_HINT, error)

    def show_public(self, sample: PublicSample) -> None:
        """Use a read public sample, unless it is the private data's twin (raises DataError)."""
        path = sample.path
        if self.dataset is not None and self.dataset.sha256 == sample.sha256:
            raise PublicTwinError(
                f"it has the same bytes as the private data {self.dataset.name}: a public sample must be "
                "public data (the domains it suggests would come from the private data); choose another file"
            )
        notes = {column: note for (name, column), note in PUBLIC_UNIT_NOTES.items() if name == path.name}
        self.public = sample
        self.task_page.set_public(sample, _numeric_columns(summarize_columns(sample.frame)), notes)
        self.data_page.set_public(sample, notes)
        self.data_page.public_label.setText(f"{path.name} ({sample.n_rows:,} rows, public)")
        self.statusBar().showMessage(f"Public sample {path.name} loaded.")

    def _choose_private(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open private dataset", "", _file_filter())
        if name:
            self.open_private(self.data_page.request(name))

    def _choose_spark_table(self) -> None:
        """Open a table of the Spark catalog as the private data (the Spark engine, never loaded here)."""
        name, ok = QInputDialog.getText(self, "Open Spark table", "Table name in the Spark catalog:")
        if ok and name.strip():
            self.open_private(self.data_page.request(name.strip(), table=True))

    def _choose_public(self) -> None:
        self._choose_file("Open public sample", self.read_public)

    def _choose_file(self, title: str, load: Callable[[Path], None]) -> None:
        name, _ = QFileDialog.getOpenFileName(self, title, "", _file_filter())
        if name:
            self._load(load, Path(name))

    def _load(self, load: Callable[[Path], None], path: Path) -> None:
        try:
            load(path)
        except (DataError, ProjectError, OSError) as error:
            name = Path(path).name
            self.statusBar().showMessage(f"Did not open {name}.")  # not "Reading …" left behind
            hint = _TWIN_HINT if isinstance(error, PublicTwinError) else _LOAD_HINT
            self.show_failure("Cannot open the file", _named(name, error), hint, error)

    # -- recent files and projects -------------------------------------------------------------------------

    def recent_files(self) -> list[str]:
        """Recently opened private datasets and projects, newest first (at most MAX_RECENT)."""
        value = settings().value(_RECENT_KEY, [], type=list)
        return [str(item) for item in value][:MAX_RECENT]

    def remember_recent(self, path: Path) -> None:
        name = str(Path(path).resolve())
        recent = [name, *(item for item in self.recent_files() if item != name)][:MAX_RECENT]
        settings().setValue(_RECENT_KEY, recent)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for name in self.recent_files():
            action = self.recent_menu.addAction(name)
            action.triggered.connect(lambda _=False, name=name: self.open_recent(Path(name)))
        self.recent_menu.setEnabled(self.current_job is None and bool(self.recent_files()))

    def open_recent(self, path: Path) -> None:
        """Reopen a recent entry: a project file as a project, anything else as the private dataset."""
        if path.name.endswith(PROJECT_SUFFIX):
            self._load(self.open_project, path)
        else:
            self.open_private(self.data_page.request(str(path)))

    def project(self) -> Project:
        """The session as a project: files by path and keyed fingerprint, the task's spec, the releases."""
        try:
            spec = self.current_spec()
        except ValueError:
            spec = None
        dataset, public_sample = self.dataset, self.public
        private = None if dataset is None else FileRef.of(dataset.path, dataset.sha256, dataset.encoding)
        public = (
            None
            if public_sample is None
            else FileRef.of(public_sample.path, public_sample.sha256, public_sample.encoding)
        )
        return Project(private, public, spec, tuple(self.releases))

    def save_project(self, path: Path) -> None:
        save_project(self.project(), path)
        self.remember_recent(path)
        self.statusBar().showMessage(f"Saved the project to {path}.")

    def open_project(self, path: Path) -> None:
        """Restore a saved session: reopen both files (warning when their bytes changed), the task, the list
        of releases. Raises ProjectError, DataError or OSError."""
        project = load_project(path)
        changed = []
        if project.private is not None:
            self.data_page.select_encoding(project.private.encoding)
            self.load_private(project.private.path)
            if self.dataset is not None and not project.private.matches(self.dataset.sha256):
                changed.append(project.private.path.name)
        if project.public is not None:
            self.data_page.select_encoding(project.public.encoding)
            self.load_public(project.public.path)
            if self.public is not None and not project.public.matches(self.public.sha256):
                changed.append(project.public.path.name)
        if project.spec is not None:
            self.task_page.restore(project.spec)
            self.budget_page.epsilon.setValue(project.spec.epsilon)
            self.budget_page.delta.setText(f"{project.spec.delta:g}")
        listed = {record.release_id for record in project.releases}
        held = [r for r in self.releases if r.release_id in set(self.session_releases) - listed]
        self.releases = [*project.releases, *held]  # this session's releases stay choosable and exportable
        self.review_page.show_history(self.releases)
        self.remember_recent(path)
        self._spec_changed()
        self.statusBar().showMessage(f"Opened the project {Path(path).name}.")
        if changed:
            QMessageBox.warning(
                self,
                "A file changed",
                f"The bytes of {', '.join(changed)} changed since the project was saved (their SHA-256 "
                "differs). The budget continues on the file as it is now; check it is the file you mean.",
            )

    def _choose_project_to_save(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, "Save project", f"project{PROJECT_SUFFIX}", f"dpgui projects (*{PROJECT_SUFFIX})"
        )
        if not name:
            return
        try:
            self.save_project(Path(name))
        except OSError as error:
            self.show_failure(
                "Cannot save the project", str(error), "Choose a folder you can write to.", error
            )

    def _choose_project_to_open(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, "Open project", "", f"dpgui projects (*{PROJECT_SUFFIX});;All files (*)"
        )
        if name:
            self._load(self.open_project, Path(name))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _dropped_file(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """A dropped data file is opened as the PRIVATE dataset."""
        path = _dropped_file(event)
        if path is not None:
            event.acceptProposedAction()
            self.open_private(self.data_page.request(str(path)))

    # -- the spec and the planner --------------------------------------------------------------------------

    def current_spec(self) -> TaskSpec:
        """The Task page's spec at the Budget page's (ε, δ); raises ValueError naming what is wrong."""
        cost = self.budget_page.cost()
        return self.task_page.spec(cost.epsilon, cost.delta)

    def _spec_changed(self) -> None:
        """Re-plan for the spec and the public n, and show this release's share of the budget."""
        try:
            spec = self.current_spec()
            check_parameters(spec)  # a quantile of 1.5 or a one-point grid: not "ready" (a GUI audit)
        except ValueError as problem:
            self.planner.drop()
            self.budget_page.show_plan(None, f"No plan yet: {problem}")
            self.budget_page.show_spec(None, None if self.dataset is None else self.dataset.n_rows)
            self.task_page.show_preconditions(None, None)
            self._show_next_run(None, f"Not ready to run: {problem}")
            self._show_release_share()
            return
        n = self.dataset.n_rows if self.dataset is not None else None
        self.task_page.show_preconditions(spec, n)
        if n is None:
            self.planner.drop()
            self.budget_page.show_plan(
                None, "No plan yet: open a private dataset (its row count n is public)."
            )
        else:
            self.budget_page.show_plan(None, "Planning…")
            self.planner.submit(lambda: plan(spec, n))  # off the GUI thread: a bound can take 0.1 s
        self.budget_page.show_spec(spec, n)
        self._show_next_run(
            spec,
            f"{spec.kind.title} of {', '.join(spec.columns)} with {spec.algorithm} at "
            f"{format_cost(PrivacyCost(spec.epsilon, spec.delta))}",
        )
        self._show_release_share()

    def _show_next_run(self, spec: TaskSpec | None, summary: str) -> None:
        """The Run page between runs names the run the Task page describes (or why none can start). The last
        run's progress, plot and log stay while the task is the one it ran, and go once it changes: under
        another task's name they passed for its run. A running job's own summary (with its data warnings)
        stays."""
        if self.current_job is not None:
            return
        if spec is not None and spec == self._run_shown_for:
            self.run_page.summary.setText(summary)
            return
        self._run_shown_for = None
        self.run_page.prepare(summary, () if spec is None else spec.domains)

    def _current_spec_or_none(self) -> TaskSpec | None:
        try:
            return self.current_spec()
        except _REFUSALS:
            return None

    # -- releases ------------------------------------------------------------------------------------------

    def _run_from_anywhere(self) -> None:
        self.go_to(RUN)
        self.review_release()

    def _ready_to_release(self) -> bool:
        """No release is running, no file is being opened (it would replace the data under the run) and a
        dataset is open (else say so)."""
        if self.current_job is not None:
            return False
        if self.open_job is not None:
            self._show_error("A file is being opened", "Wait until it is open (or cancel it), then run.")
            return False
        if self.dataset is None:
            self._show_error("No dataset", "Open a private dataset first.")
            return False
        return True

    def review_release(self) -> None:
        """Prepare the review (public information only) off the GUI thread, then show it as a sheet whose
        "Charge and run" calls start_release."""
        if not self._ready_to_release():
            return
        try:
            spec = self.current_spec()
        except _REFUSALS as refusal:
            self._show_error("Release refused", str(refusal))
            return
        dataset, ledger = self.dataset, self.ledger
        dataset_id = None if self.record is None else self.record.id
        self.statusBar().showMessage("Preparing the review…")
        self.reviewer.submit(lambda: _prepared_review(spec, dataset, ledger, dataset_id))

    def _review_failed(self, error: Exception) -> None:
        self.statusBar().clearMessage()
        self._show_error("Release refused", _refusal_text(error))

    def _show_review(self, outcome: PreparedReview) -> None:
        """The sheet for a prepared review, with the custodian-only data check's warnings, unless the task,
        the data or the ledger changed meanwhile (then it is prepared again)."""
        spec, prepared, review, data_check, head = outcome
        self.statusBar().clearMessage()
        if not self._ready_to_release():
            return
        try:
            if self.current_spec() != spec or self.dataset.n_rows != prepared.n or self.ledger.head() != head:
                self.review_release()
                return
        except _REFUSALS as refusal:  # the task became invalid while the review was prepared
            self._show_error("Release refused", str(refusal))
            return
        self._reviewed = None if data_check is None else (spec, self.dataset, data_check)
        if data_check is None:
            self.review_sheet = ReviewSheet(review, self, data_note=SCANNED_DATA_NOTE)
        else:
            self.review_sheet = ReviewSheet(review, self, data_warnings=data_check.warnings)
        self.review_sheet.accepted.connect(lambda: self.start_release(prepared))
        self.review_sheet.open()

    def start_release(self, reviewed: PreparedRun | None = None) -> None:
        """Reserve the budget and start the run in the worker; refusals are shown, nothing runs. After a
        review (``reviewed``: the run it priced), the job charges that run: its reservation refuses a queries
        file changed since (``runner.prepared_again``, ``runner.reserve``), rather than pricing it again."""
        if not self._ready_to_release():
            return
        try:
            spec = self.current_spec()
            job = ReleaseJob(
                spec,
                self.dataset,
                self.ledger,
                parent=self,
                aggregator=None if self.opened is None else self.opened.aggregator,
                monitor=self.scan_monitor,
                engine_choice=None if self.opened is None else self.opened.engine_choice,
                reviewed=self._reviewed_check(spec),
                priced=reviewed,
            )
        except _REFUSALS as refusal:
            hint = (
                "\n\nUse “Set total budget…” on the Budget page." if isinstance(refusal, BudgetNotSet) else ""
            )
            self._show_error("Release refused", f"{_refusal_text(refusal)}{hint}")
            return
        job.progress.connect(self._show_progress)
        job.partial.connect(self.run_page.show_partial)
        job.released.connect(self._on_released)
        job.failed.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        self.current_job = job
        self._running_data = Path(self.dataset.path)
        summary = f"Running {job.prepared.algorithm.title} on {', '.join(spec.columns)}…"
        if job.data_check is not None and job.data_check.warnings:
            summary += "\nData (custodian only): " + "; ".join(job.data_check.warnings)
        self.run_page.prepare(summary, spec.domains)
        self._run_shown_for = spec
        self._set_running(True, finishable=job.prepared.algorithm.finishes_on_request)
        self.refresh_budget()
        job.start()

    def _reviewed_check(self, spec: TaskSpec) -> DataCheck | None:
        """The data check of the review this charge follows, when it was of this spec and dataset."""
        if self._reviewed is None:
            return None
        reviewed_spec, dataset, check = self._reviewed
        return check if reviewed_spec == spec and dataset is self.dataset else None

    def finish_release(self) -> None:
        """Ask the running AIM to make its next round the last and release (nothing more is charged)."""
        if self.current_job is not None:
            self.current_job.finish_now()
            self.run_page.finish_button.setEnabled(False)
            self.statusBar().showMessage("Finishing: the next round is the last…")

    def cancel_release(self) -> None:
        """Ask the running job to stop (the budget stays charged once it has read the data)."""
        if self.current_job is not None:
            self.current_job.cancel()
            self.run_page.cancel_button.setEnabled(False)  # asked once; a second click changes nothing
            self.run_page.finish_button.setEnabled(False)
            self.statusBar().showMessage("Cancelling…")  # a model fit stops too (GraphicalModel.fit)

    def _set_running(self, running: bool, finishable: bool = False) -> None:
        """The window while a run (``finishable``: one that can end early with its result) runs or not."""
        self.run_page.set_running(running, finishable)
        self.run_action.setEnabled(not running)
        self.cancel_action.setEnabled(running)
        self.task_page.setEnabled(not running)
        self.budget_page.setEnabled(not running)
        self.open_private_action.setEnabled(not running)
        self.open_table_action.setEnabled(not running)
        self.open_project_action.setEnabled(not running)  # a project (or a recent file) opens data too
        self.recent_menu.setEnabled(not running and bool(self.recent_files()))

    def _show_progress(self, fraction: float, message: str) -> None:
        self.run_page.show_progress(fraction, message)
        self.statusBar().showMessage(message)

    def _on_released(self, release: Release) -> None:
        self._keep(release)
        self._job_ended("Released; the cost is committed in the ledger.")
        self.go_to(REVIEW)

    def _keep(self, release: Release) -> None:
        """A committed release joins the session: shown on the Review page, listed, exportable."""
        self.release = release
        self.session_releases[release.release_id] = release
        if self._running_data is not None:
            self._release_data[release.release_id] = self._running_data
        self.releases.append(ReleaseRecord.of(release))
        self.review_page.show_release(release)
        self.review_page.show_history(self.releases)
        self._enable_export()

    # -- release plans -------------------------------------------------------------------------------------

    def review_plan(self, batch: BatchPlan) -> None:
        """Compose the reviews of every release of a split plan off the GUI thread, then show them as one
        sheet whose "Charge and run" calls start_plan."""
        if not self._ready_to_release():
            return
        ledger, dataset_id = self.ledger, None if self.record is None else self.record.id
        releases = [(release.name, release.prepared) for release in batch.releases]
        self.statusBar().showMessage("Preparing the plan's review…")
        self.plan_reviewer.submit(lambda: (batch, plan_reviews(releases, ledger, dataset_id)))

    def _show_plan_review(self, outcome: tuple[BatchPlan, list[tuple[str, ReleaseReview]]]) -> None:
        batch, reviews = outcome
        self.statusBar().clearMessage()
        if not self._ready_to_release():
            return
        self.review_sheet = ReviewSheet(reviews, self)
        self.review_sheet.accepted.connect(lambda: self.start_plan(batch))
        self.review_sheet.open()

    def start_plan(self, batch: BatchPlan) -> None:
        """Reserve the whole plan and run its releases one by one in the worker; refusals are shown."""
        if not self._ready_to_release():
            return
        try:
            job = PlanJob(
                batch,
                self.dataset,
                self.ledger,
                parent=self,
                aggregator=None if self.opened is None else self.opened.aggregator,
                monitor=self.scan_monitor,
                engine_choice=None if self.opened is None else self.opened.engine_choice,
            )
        except _REFUSALS as refusal:
            self._show_error("Plan refused", str(refusal))
            return
        count = len(batch.releases)
        job.progress.connect(self._show_progress)
        job.release_started.connect(lambda i: self._on_plan_release_started(batch, i))
        job.released.connect(lambda i, release: self._keep(release))
        job.finished.connect(self._on_plan_finished)
        job.failed.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        self.current_job = job
        self._running_data = Path(self.dataset.path)
        self.run_page.prepare(f"Running a plan of {count} releases, reserved together…", ())
        self._run_shown_for = self._current_spec_or_none()
        self._set_running(True)
        self.refresh_budget()
        self.go_to(RUN)
        job.start()

    def _on_plan_release_started(self, batch: BatchPlan, index: int) -> None:
        """A plan's release starts: its name in the log, and Finish now while it is one that can end early."""
        release = batch.releases[index]
        self.run_page.log.appendPlainText(f"— {release.name} ({index + 1} of {len(batch.releases)})")
        self._set_running(True, finishable=release.prepared.algorithm.finishes_on_request)

    def _on_plan_finished(self, releases: list[Release]) -> None:
        assert isinstance(self.current_job, PlanJob)
        batch = self.current_job.batch
        named = [
            NamedRelease(split.name, release, f"{readable(split.predicted_error)} {split.error_unit}")
            for split, release in zip(batch.releases, releases, strict=True)
        ]
        self._job_ended(f"Plan released: {len(releases)} releases, each committed in the ledger.")
        self.export_plan(named)
        self.go_to(REVIEW)

    def export_plan(self, named: list[NamedRelease]) -> None:
        """Write a plan's releases into one chosen folder (a new subfolder if it is not empty): one folder
        per release and one report.html and plan.json for the whole plan, in the thread pool."""
        chosen = QFileDialog.getExistingDirectory(self, "Export the plan's releases into a folder")
        if not chosen:
            self.statusBar().showMessage(
                "The plan was not exported; each release can be exported from the Review page."
            )
            return
        folder = Path(chosen)
        if any(folder.iterdir()):
            folder = folder / f"release-plan-{named[0].release.created:%Y%m%d-%H%M%S}"
        try:
            for item in named:
                refuse_near_private_files(folder, self._release_data.get(item.release.release_id))
        except (OSError, OutFolderError) as error:
            self._show_error("Export failed", str(error))
            return
        self._start_export(PlanExport(named, folder))

    def _plan_exported(self, request: PlanExport, exported: list[ExportedFiles]) -> None:
        folders = request.folders(exported)
        for release_id in folders:
            forget(release_id)
        self._list_export_folders(folders)
        self.statusBar().showMessage(
            f"Exported the plan to {request.folder} (report.html, plan.json, one folder each)."
        )

    def _list_export_folders(self, folders: dict[str, Path]) -> None:
        """The Review page's list names where each of these releases was exported; the Budget page's ledger
        no longer calls them "not exported" (the app's copies are gone)."""
        self.releases = [
            ReleaseRecord.of(self.session_releases[r.release_id], folders[r.release_id])
            if r.release_id in folders
            else r
            for r in self.releases
        ]
        self.review_page.show_history(self.releases)
        self.refresh_budget()

    def choose_release(self, release_id: str) -> None:
        """Show (and let Export write) a release picked in the Review page's list."""
        release = self.session_releases.get(release_id)
        if release is None:
            record = next((r for r in self.releases if r.release_id == release_id), None)
            folder = record.export_folder if record is not None and record.export_folder else None
            copy, where = kept_folder(release_id), ""
            if folder:
                where = f"; its exported files are in {folder}"
            elif copy.is_dir():
                where = f"; it was not exported, and its files are kept in {copy}"
            self.statusBar().showMessage(
                f"Release {release_id[:8]} was made in an earlier session and is not held in memory{where}."
            )
            return
        self.release = release
        self.review_page.show_release(release)
        self._enable_export()

    def _on_failed(self, message: str) -> None:
        details = self.current_job.error_details if self.current_job is not None else ""
        touched = self.current_job is not None and self.current_job.touched
        self._job_ended("The run failed.")
        spent = (
            "It had read the data, so its cost stays spent (see the ledger)."
            if touched
            else "It had not read the data: its cost was refunded."
        )
        self.show_failure(
            "Release failed",
            f"The run stopped with an error: {message}",
            f"{spent} Earlier releases are kept. Check the task's settings and run again; if it fails "
            "again, report the details below.",
            details=details,
        )

    def _on_cancelled(self) -> None:
        job = self.current_job
        touched = job is not None and job.touched
        status = (
            "Cancelled after reading the data: the cost stays spent."
            if touched
            else "Cancelled before reading the data: the cost was refunded."
        )
        if isinstance(job, PlanJob):
            status += (
                f" {len(job.releases)} of the plan's {len(job.runs)} releases were committed before; the "
                "releases not started were refunded."
            )
        self._job_ended(status)

    def _job_ended(self, status: str) -> None:
        self.current_job = None
        self._set_running(False)
        self.run_page.log.appendPlainText(f"— {status}")  # stays with the run's plot and log (a GUI audit:
        # a cancelled run's page kept its bar and plot, and the summary's word was replaced at once)
        self.refresh_budget()
        self.run_page.summary.setText(status)
        self.statusBar().showMessage(status)
        self._close_if_asked()

    def _ask_cancel_on_close(self) -> None:
        """Ask whether to cancel the running release and close (the default keeps it running); the answer
        arrives in :meth:`_on_close_answer`."""
        self._ask_before_closing(
            "A release is running",
            "Cancel the running release and close dpgui? If it has read the private data, its cost stays "
            "spent in the ledger.",
            self._on_close_answer,
        )

    def _ask_before_closing(self, title: str, question: str, on_answer: Callable[[int], None]) -> None:
        """A Yes/No question defaulting to No, shown without blocking the GUI thread (``close_question``
        until ``on_answer`` receives the button)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            title,
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.finished.connect(on_answer)
        self.close_question = box
        box.open()

    def _unexported(self) -> list[str]:
        """The ids of this session's releases that no Export has written yet (an opened project replaces
        the listed records, so a release missing from them counts as not exported)."""
        exported = {r.release_id for r in self.releases if r.export_folder}
        return [release_id for release_id in self.session_releases if release_id not in exported]

    def _ask_drop_unexported(self) -> None:
        """Ask whether to close although charged releases were never exported (the default keeps the
        window); the answer arrives in :meth:`_on_drop_answer`."""
        self._ask_before_closing(
            "Releases not exported", _unexported_question(self._unexported()), self._on_drop_answer
        )

    def _on_drop_answer(self, answer: int) -> None:
        self.close_question = None
        if answer == QMessageBox.StandardButton.Yes:
            self._dropping_unexported = True
            QTimer.singleShot(0, self, self.close)

    def _on_close_answer(self, answer: int) -> None:
        self.close_question = None
        if answer == QMessageBox.StandardButton.Yes:
            self._cancel_and_close()

    def _cancel_and_close(self) -> None:
        """Cancel whatever runs; the window closes itself once it has settled (:meth:`_close_if_asked`)."""
        self._closing = True
        for job in (self.current_job, self.open_job):
            if job is not None:
                job.cancel()
        self.statusBar().showMessage("Cancelling, then closing…")
        self._close_if_asked()

    def _close_if_asked(self) -> None:
        """After a job's or an export's end: close the window if the custodian asked to while it ran."""
        if self._closing and self.current_job is None and self.open_job is None and not self.exporter.busy:
            QTimer.singleShot(0, self, self.close)

    def export(self) -> None:
        """Write the shown release (release.csv/.parquet, attachments, report.html with the plot and
        manifest.json) into a chosen folder, in the thread pool: staged beside it, then moved in; an
        earlier release there is replaced only when the user agrees."""
        if self.release is None:
            self._show_error("Nothing to export", "Run a release first.")
            return
        if self.exporter.busy:
            self.statusBar().showMessage("An export is being written; export this one when it is done.")
            return
        folder = choose_export_folder(self, self._export_suggestion())
        if folder is None:
            return
        plots = self.review_page.plots()
        self._start_export(ReleaseExport(self.release, folder, plots, self._private_in(folder)))

    def _start_export(self, request: ExportRequest) -> None:
        """Hand ``request`` to the exporter (after the export it is writing, if any); Export waits until it
        reports back."""
        if self.exporter.busy:  # a newer call would drop the running one's outcome: it waits its turn
            self._waiting_exports.append(request)
            return
        self._export_request = request
        self.exporter.submit(request.run)
        self._enable_export()
        self.statusBar().showMessage(f"Exporting to {request.folder}…")

    def _enable_export(self) -> None:
        """Export is offered (menu, toolbar and the Review page's button) while a release is shown and no
        export is being written."""
        offered = self.release is not None and not self.exporter.busy
        self.export_action.setEnabled(offered)
        self.review_page.export_button.setEnabled(offered)

    def _export_settled(self) -> ExportRequest | None:
        request, self._export_request = self._export_request, None
        self._enable_export()
        return request

    def _on_exported(self, exported: ExportedFiles | list[ExportedFiles]) -> None:
        request = self._export_settled()
        if isinstance(request, PlanExport):
            assert isinstance(exported, list)
            self._plan_exported(request, exported)
        elif isinstance(request, ReleaseExport):
            assert isinstance(exported, ExportedFiles)
            self._release_exported(request.release, exported)
        self._next_export()

    def _on_export_failed(self, error: Exception) -> None:
        request = self._export_settled()
        if isinstance(error, EarlierRelease) and isinstance(request, ReleaseExport) and not self._closing:
            if self._confirm_replace(str(error)):
                self._start_export(request.replacing())
                return
        elif isinstance(error, (OSError, OutFolderError)):
            self._show_error("Export failed", str(error))
        else:  # a writer's own error: the staged files were discarded, nothing half-written is left
            self._show_error("Export failed", f"{type(error).__name__}: {error}")
        self._next_export()

    def _next_export(self) -> None:
        """After an export: start the next one waiting, else close the window if that was asked for."""
        if self._waiting_exports:
            self._start_export(self._waiting_exports.pop(0))
        else:
            self._close_if_asked()

    def _release_exported(self, release: Release, exported: ExportedFiles) -> None:
        forget(release.release_id)
        self._list_export_folders({release.release_id: exported.folder})
        names = ", ".join(path.name for path in exported.files)
        self.statusBar().showMessage(f"Exported {names} to {exported.folder}.")
        self._last_export_parent = exported.folder.parent
        report = next((path for path in exported.files if path.name == "report.html"), None)
        if not self._closing:
            self.exported_offer = ExportedOffer(self, exported.folder, report)
            self.exported_offer.open()

    def _private_in(self, folder: Path) -> Path | None:
        """The private file the export must keep out of ``folder``: the shown release's own data if it lies
        there (another file may have been opened since), else the one open now."""
        assert self.release is not None
        own = self._release_data.get(self.release.release_id)
        if own is not None and own.exists() and own.resolve().is_relative_to(folder.absolute().resolve()):
            return own
        return None if self.dataset is None else Path(self.dataset.path)

    def _export_suggestion(self) -> Path:
        """A new folder named after the data and the task, beside the last export (else the home folder)."""
        assert self.release is not None
        stem = Path(self.dataset.path).stem if self.dataset is not None else "release"
        name = f"{stem}-{self.release.spec.kind.value}-{self.release.release_id[:8]}"
        return (self._last_export_parent or Path.home()) / name

    def _confirm_replace(self, message: str) -> bool:
        answer = QMessageBox.question(
            self, "Replace the earlier release?", f"{message}\n\nReplace it with this release?"
        )
        return answer == QMessageBox.StandardButton.Yes

    # -- budget --------------------------------------------------------------------------------------------

    def refresh_budget(self) -> None:
        """Re-read the open dataset's budget and ledger; the bar shows this release's share."""
        state = self._show_release_share()
        if self.record is None or state is None:
            self.budget_page.show_ledger([])
            return
        self.budget_page.show_ledger(
            self.ledger.entries(self.record.id),
            state.total,
            self.ledger.state(self.record.id, Account.LABELS_ONLY),
            self.ledger.budget_events(self.record.id),
        )

    def _show_release_share(self) -> BudgetState | None:
        """The budget bar: the dataset's spent and remaining budget (re-read) and this release's share. A
        change of the spec needs only this, not the ledger's table (its entries and their folders)."""
        if self.record is None:
            self.budget_panel.show_state(None)
            return None
        try:
            release = self.budget_page.cost() if self.current_job is None else None
        except ValueError:
            release = None
        state = self.ledger.state(self.record.id)
        self.budget_panel.show_state(state, release)
        return state

    def _ask_total_budget(self) -> None:
        if self.record is None:
            return
        state = self.ledger.state(self.record.id)
        current = state.total
        if current is None and not self.ledger.entries(self.record.id) and self._linked_to_a_look_alike():
            return
        total = self._typed_total(current)
        if total is None:
            return
        raising = current is not None and (total.epsilon > current.epsilon or total.delta > current.delta)
        if raising and not self._confirm_raise(current, total):
            return
        spent = state.spent  # as the dialog opened: the app's own runs are disabled meanwhile
        if (total.epsilon < spent.epsilon or total.delta < spent.delta) and not self._confirm_below_spent(
            spent, total
        ):
            return
        self.ledger.set_total(self.record.id, total, note="set in the GUI")
        self.refresh_budget()

    def _typed_total(self, current: PrivacyCost | None) -> PrivacyCost | None:
        """The total ε and δ the custodian types (as written: 0.5, 1e-3), or None when cancelled or refused
        in words. A number box would have read '1e-5' as 15 (a GUI audit) and took ε = 0 as a total."""
        labels = ("Total ε for this dataset (above 0):", "Total δ (0 for pure DP only):")
        defaults = (current.epsilon, current.delta) if current else (1.0, 0.0)
        texts = []
        for label, value in zip(labels, defaults, strict=True):
            text, ok = QInputDialog.getText(self, "Total budget", label, text=f"{value:g}")
            if not ok:
                return None
            texts.append(text)
        epsilon, delta = (read_number(text) for text in texts)
        if epsilon is None or epsilon <= 0:
            problem = f"The total ε must be a number above 0, such as 1, 0.5 or 1e-3; got {texts[0]!r}."
        elif delta is None:
            problem = f"The total δ must be a number from 0 to below 1, such as 0 or 1e-6; got {texts[1]!r}."
        else:
            try:
                return PrivacyCost(epsilon, delta)
            except ValueError as error:
                problem = str(error)
        self._show_error("Invalid budget", problem)
        return None

    def _linked_to_a_look_alike(self) -> bool:
        """Before a new dataset's first total: when a known dataset's file names the same columns
        (``look_alikes``), ask whether this file holds the same people; if so, link it to that dataset
        (``Ledger.link``) so that it spends that budget. True when the question ended the request (linked, or
        cancelled); False to go on and set a total of its own."""
        from dpgui.privacy.look_alikes import look_alikes

        dataset = self.dataset
        assert dataset is not None and self.record is not None
        alikes = look_alikes(self.ledger, dataset.path, [str(name) for name in dataset.header.columns])
        if not alikes:
            return False
        alike = alikes[0]
        others = f" (and {len(alikes) - 1} more known file(s) with these columns)" if len(alikes) > 1 else ""
        answer = QMessageBox.question(
            self,
            "The same people as a known dataset?",
            f"{dataset.name} is new to the ledger, but it names the same columns as {alike.describe()}"
            f"{others}.\n\nIf it holds the same people (a copy in another format or place), their budget is "
            f"the one already spent from.\n\nYes: it is {alike.record.name} — continue that budget.\n"
            "No: it holds other people — set a total of its own.",
            QMessageBox.StandardButton.Yes
            | QMessageBox.StandardButton.No
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.No:
            return False
        if answer == QMessageBox.StandardButton.Yes:
            self.record = self.ledger.link(dataset.path, dataset.sha256, alike.record.id)
            self.refresh_budget()
            self.statusBar().showMessage(f"{dataset.name} now spends the budget of {alike.record.name}.")
        return True

    def _confirm_raise(self, current: PrivacyCost, total: PrivacyCost) -> bool:
        answer = QMessageBox.question(
            self,
            "Raise the total budget?",
            f"Raise the total from {format_cost(current)} to {format_cost(total)}?\n\n"
            "A larger total weakens the privacy promise made to the people in this dataset. "
            "The change is recorded in the ledger.",
        )
        return answer == QMessageBox.StandardButton.Yes

    def _confirm_below_spent(self, spent: PrivacyCost, total: PrivacyCost) -> bool:
        """A total below what is spent closes the dataset to releases (a GUI audit: ε = 2 after 6.5 spent
        was set without a word, and the bar read "spent 325%")."""
        answer = QMessageBox.question(
            self,
            "Set a total below what is spent?",
            f"{format_cost(spent)} is already spent, more than the new total {format_cost(total)}.\n\n"
            "What is spent stays spent: no further release will fit until the total is raised again. Set "
            "it anyway?",
        )
        return answer == QMessageBox.StandardButton.Yes

    # -- misc ----------------------------------------------------------------------------------------------

    def _show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self, title, message)

    def show_failure(
        self, title: str, what: str, todo: str, error: BaseException | None = None, details: str = ""
    ) -> QMessageBox:
        """A non-blocking error dialog: what went wrong, what to do, the traceback under "Show Details…"."""
        box = QMessageBox(QMessageBox.Icon.Critical, title, what, QMessageBox.StandardButton.Ok, self)
        box.setInformativeText(todo)
        if error is not None and not details:
            details = "".join(traceback.format_exception(error))
        if details:
            box.setDetailedText(details)
        self.error_box = box
        box.open()
        return box

    def _show_help(self, dialog: QDialog) -> None:
        """Show a help dialog (non-modal: the user guide can stay open beside the window)."""
        self.help_dialog = dialog
        dialog.show()

    def _about(self) -> None:
        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<b>{APP_NAME} {__version__}</b><p>Differentially private releases of a sensitive dataset, "
            "with a tamper-evident budget ledger.</p><p>The private data is shown only to you, the "
            "custodian; only DP releases leave the app.</p>",
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        """With a release running, ask whether to cancel it; cancel it (or an opening) and close once it has
        settled in the ledger. The GUI thread never waits for a worker: the window closes itself when the
        job reports its end (:meth:`_close_if_asked`)."""
        if self.current_job is not None or self.open_job is not None:
            event.ignore()
            if self._closing or self.close_question is not None:
                return
            if self.current_job is None:
                self._cancel_and_close()
            else:
                self._ask_cancel_on_close()
            return
        if self.exporter.busy:  # closes itself once the files are in place (:meth:`_close_if_asked`)
            event.ignore()
            self._closing = True
            self.statusBar().showMessage("Closing once the export is written…")
            return
        if self._unexported() and not self._dropping_unexported:
            event.ignore()
            self._closing = False  # the question decides now: a later job's end must not close the window
            if self.close_question is None:
                self._ask_drop_unexported()
            return
        stored = settings()
        stored.setValue("geometry", self.saveGeometry())
        stored.setValue("window_state", self.saveState())
        super().closeEvent(event)
