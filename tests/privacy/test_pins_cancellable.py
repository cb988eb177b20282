"""Pin found by the mutation scan (cancellable.py): every kind of draw checks the cancel flag first, not only
the batched noise vectors (mutants: `self._check()` -> `pass` in uniform01 / randbelow). The only other test
of this module is in tests/ui."""

from __future__ import annotations

import pytest

from dpgui.privacy.cancellable import CancellableRandom, DrawCancelled
from dpgui.privacy.random import SeededRandom


@pytest.mark.parametrize("draw", [lambda r: r.uniform01(3), lambda r: r.randbelow(10)])
def test_a_cancelled_run_draws_nothing_more(draw) -> None:
    rng = CancellableRandom(SeededRandom(1), lambda: True)
    with pytest.raises(DrawCancelled):
        draw(rng)
