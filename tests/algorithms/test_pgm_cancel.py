"""A model fit given a checkpoint stops at a cancel: its caller at once, the fit within one chunk of
iterations; a checkpoint that never fires leaves the fitted model exactly as it was."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np
import pytest

from dpgui.algorithms.pgm import GraphicalModel, NoisyMarginal, _mbi
from tests.algorithms.test_pgm import SIZES

HOLD_SECONDS = 30
"""How long a held fit waits to be let go: a bound for a broken test, never reached by a passing one."""


@dataclass(frozen=True)
class HeldFit:
    """mbi's estimate held at its start (``hold_fits``) until :meth:`let_go_and_count_chunks`."""

    started: threading.Event = field(default_factory=threading.Event)
    let_go: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    chunks: list[int] = field(default_factory=list)

    def let_go_and_count_chunks(self) -> int:
        """Let the held fit go on; once it has ended, the chunks of iterations it ran."""
        self.let_go.set()
        assert self.ended.wait(HOLD_SECONDS)
        return len(self.chunks)


def hold_fits(monkeypatch: pytest.MonkeyPatch) -> HeldFit:
    """Make the next model fit wait at its start, where JAX would compile, until let go; its chunks of
    CALLBACK_EVERY iterations are counted (the calls of its callback)."""
    estimation = _mbi().estimation
    estimate = estimation.MirrorDescent.estimate
    held = HeldFit()

    def holding(self, *args, callback_fn, **kwargs):
        held.started.set()
        held.let_go.wait(HOLD_SECONDS)

        def counted(marginals) -> None:
            held.chunks.append(1)
            if callback_fn is not None:  # the fit's own check between chunks
                callback_fn(marginals)

        try:
            return estimate(self, *args, callback_fn=counted, **kwargs)
        finally:
            held.ended.set()

    monkeypatch.setattr(estimation.MirrorDescent, "estimate", holding)
    return held


class Stop(Exception):
    """The test's cancel."""


def _measurements() -> list[NoisyMarginal]:
    """Noisy counts of 100 records: every column's, and the pair (0, 1)."""
    generator = np.random.default_rng(1)
    cliques = [(j,) for j in range(len(SIZES))] + [(0, 1)]
    out = []
    for clique in cliques:
        shape = tuple(SIZES[i] for i in clique)
        out.append(NoisyMarginal(clique, 100 / np.prod(shape) + generator.normal(0, 2, shape), 2.0))
    return out


def _potentials(model: GraphicalModel) -> list[np.ndarray]:
    return [np.asarray(factor.values) for factor in model._model.potentials.tables.values()]


def test_a_checkpoint_that_never_fires_leaves_the_fitted_model_unchanged():
    """The checkpoint only watches the fit (mbi's callback between chunks): same iterations, same steps."""
    plain = GraphicalModel(SIZES).fit(_measurements(), 100.0, 200)
    watched = GraphicalModel(SIZES).fit(_measurements(), 100.0, 200, checkpoint=lambda: None)
    for ours, theirs in zip(_potentials(watched), _potentials(plain), strict=True):
        np.testing.assert_array_equal(ours, theirs)


def test_a_cancel_during_a_fit_returns_before_the_fit_ends_and_the_fit_stops_after_one_chunk(monkeypatch):
    """The fit is held where JAX would compile (a stretch nothing can interrupt): the caller's cancel lands
    while it is held, and the fit, let go, runs one chunk of CALLBACK_EVERY iterations of its 500."""
    held = hold_fits(monkeypatch)

    def checkpoint() -> None:
        if held.started.is_set():
            raise Stop

    with pytest.raises(Stop):
        GraphicalModel(SIZES).fit(_measurements(), 100.0, 10 * _mbi().estimation.CALLBACK_EVERY, checkpoint)
    assert not held.ended.is_set()  # the caller did not wait for the fit
    assert held.let_go_and_count_chunks() == 1  # of 10
