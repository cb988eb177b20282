"""The Budget page's simulation preview: the distribution of the algorithm's errors on non-private data.

``dpgui.tasks.simulation`` runs the spec's algorithm (auto resolved by the planner, from n alone) on the
public sample, resampled to n rows (``SmoothedPopulation``), or on synthetic data over the declared domain,
in a pool thread. It reads nothing private and spends no budget.
"""

from __future__ import annotations

import functools

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSpinBox

from dpgui.jobs.background import LatestCall
from dpgui.tasks.runner import PreconditionFailed, choose_auto
from dpgui.tasks.simulation import ERROR_MEASURES, Simulation, simulate
from dpgui.tasks.spec import AUTO, TaskSpec
from dpgui.ui.lazy_plot import LazyPlotView
from dpgui.ui.theme import label_style
from dpgui.ui.wrapping_label import WrappingLabel

SEED = 0
BINS = 20
QUANTILES = (0.5, 0.95)
_BARS_PEN = pg.mkPen("#1f77b4", width=1.5)
_BARS_BRUSH = pg.mkBrush(31, 119, 180, 90)
NO_SPEC = "No simulation yet: choose a task with its columns' bounds and open a dataset."
QUANTILE_COLOUR = "#d62728"
_QUANTILE_PEN = pg.mkPen(QUANTILE_COLOUR, width=1.5, style=Qt.PenStyle.DashLine)


def check_simulated(spec: TaskSpec) -> None:
    """Raise ValueError saying why the spec's task has no simulation (cheap: on the GUI thread)."""
    if spec.kind not in ERROR_MEASURES:
        supported = ", ".join(kind.value for kind in ERROR_MEASURES)
        raise ValueError(f"No simulation for the {spec.kind.value} task yet (available for: {supported}).")


def simulated_spec(spec: TaskSpec, n: int) -> TaskSpec:
    """The spec to simulate (auto replaced by the planner's pick); raises ValueError saying why not.

    Resolving auto runs its simulations (seconds for a fine CDF grid): call it in the pool, not on the GUI
    thread (``SimulationView.start``)."""
    check_simulated(spec)
    if spec.algorithm != AUTO:
        return spec
    try:
        return spec.with_algorithm(choose_auto(spec, n)[0].name)
    except PreconditionFailed as failed:
        raise ValueError(f"No algorithm to simulate: {failed}") from None


def histogram(errors: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Counts and bin edges: BINS bins over the errors' range, or one narrow bin when they are all equal."""
    low, high = min(errors), max(errors)
    if high > low:
        return np.histogram(errors, bins=BINS)
    return np.array([len(errors)]), np.array([low, low + max(abs(low) * 0.1, 1e-3)])


def caption(simulation: Simulation, n: int) -> str:
    """Which data, how many trials, the quantiles, and that nothing private was used."""
    low, high = (simulation.quantile(q) for q in QUANTILES)
    return (
        f"{len(simulation.errors)} simulated releases of {simulation.algorithm} on the {simulation.source} "
        f"({n:,} rows each, seed {SEED}): no budget spent; not the private data. Error ({simulation.unit}): "
        f"median {low:.3g}, 95% quantile {high:.3g}."
    )


def _who(spec: TaskSpec) -> str:
    """The algorithm a simulation runs, in words: its name, or auto's pick before auto has chosen."""
    return "auto's pick (the Planner table's ✓)" if spec.algorithm == AUTO else spec.algorithm


def _simulate_resolved(spec: TaskSpec, n: int, trials: int) -> Simulation:
    """In the pool: auto resolved (``simulated_spec``; its refusal becomes the caption), then ``trials``
    seeded releases."""
    return simulate(simulated_spec(spec, n), n, trials, SEED)


class SimulationView(LazyPlotView):
    """A Simulate button, the number of trials, a histogram of the errors and its caption."""

    subject = "Histogram of the simulated releases' errors"

    def __init__(self) -> None:
        super().__init__()
        self.trials = QSpinBox()
        self.trials.setRange(5, 1000)
        self.trials.setValue(50)
        self.trials.setSuffix(" trials")
        self.trials.setAccessibleName("Number of simulated releases")
        self.button = QPushButton("Simulate")
        self.button.setToolTip("Run the algorithm on the public sample or synthetic data; spends no budget.")
        self.caption = WrappingLabel()  # in a tab: a plain wrapped QLabel can lose its last line
        self.bars = pg.PlotDataItem(
            [0.0, 1.0], [0.0], stepMode="center", fillLevel=0, pen=_BARS_PEN, brush=_BARS_BRUSH
        )
        self.quantile_lines = [
            pg.InfiniteLine(
                angle=90,
                pen=_QUANTILE_PEN,
                label=f"{q:.0%}",
                labelOpts=label_style(position, QUANTILE_COLOUR),
            )
            for q, position in zip(QUANTILES, (0.92, 0.75), strict=True)
        ]
        self.simulation: Simulation | None = None
        self._spec: TaskSpec | None = None
        self._n = 0
        self._call = LatestCall(self)
        self._call.done.connect(self._show)
        self._call.failed.connect(self._failed)
        self.button.clicked.connect(self.start)
        controls = QHBoxLayout()
        controls.addWidget(self.button)
        controls.addWidget(self.trials)
        controls.addStretch(1)
        self.layout_.addLayout(controls)
        self.layout_.addWidget(self.caption)
        self.show_spec(None, None)

    @property
    def running(self) -> bool:
        """Whether the latest simulation is still running."""
        return self._call.busy

    def show_spec(self, spec: TaskSpec | None, n: int | None) -> None:
        """A new spec clears a simulation made for another one; the caption says why the button is off."""
        resolved, reason = None, NO_SPEC
        if spec is not None and n is not None:
            try:  # auto is resolved when Simulate runs, in the pool: it froze the window for seconds here
                check_simulated(spec)
                resolved = spec
            except ValueError as problem:
                reason = str(problem)
        if resolved is not None and (resolved, n) == (self._spec, self._n):
            return  # the same spec: its simulation stays
        self._spec, self._n = resolved, n or 0
        self._call.drop()
        self._settle(None)
        self.button.setEnabled(resolved is not None)
        self.caption.setText(
            reason
            if resolved is None
            else f"Simulate runs {_who(resolved)} on the public sample if one is loaded, else on "
            "synthetic data over the declared domain: no budget spent; not the private data."
        )

    def start(self) -> None:
        """Run the simulation in the pool (seeded); the histogram comes when it ends."""
        if self._spec is None:
            return
        self._settle(None)
        self.button.setEnabled(False)
        self.button.setText("Simulating…")
        self.caption.setText(f"Simulating {self.trials.value()} releases of {_who(self._spec)}…")
        self._call.submit(functools.partial(_simulate_resolved, self._spec, self._n, self.trials.value()))

    def render(self, plot: pg.PlotWidget) -> None:
        """The histogram of the simulated errors with its quantiles, or an empty plot."""
        plot.clear()
        plot.setLabel("left", "releases")
        simulation = self.simulation
        if simulation is None:
            plot.setLabel("bottom", "error")
            return
        counts, edges = histogram(simulation.errors)
        self.bars.setData(edges, counts)
        plot.addItem(self.bars)
        for q, line in zip(QUANTILES, self.quantile_lines, strict=True):
            line.setValue(simulation.quantile(q))
            line.label.setFormat(f"{q:.0%}: {simulation.quantile(q):.3g}")
            plot.addItem(line)
        plot.setLabel("bottom", f"error ({simulation.unit})")

    def _show(self, simulation: Simulation) -> None:
        self._settle(simulation)
        self.caption.setText(caption(simulation, self._n))

    def _failed(self, error: Exception) -> None:
        self._settle(None)
        self.caption.setText(f"The simulation failed: {error}")

    def _settle(self, simulation: Simulation | None) -> None:
        """Show ``simulation`` (or none) with the button ready for another run."""
        self.simulation = simulation
        self.button.setEnabled(True)
        self.button.setText("Simulate")
        self.refresh()
