"""An algorithm that reads the public sample during its run (PAP's cut points) reads it after the private
data. Its bytes are pinned when it is chosen (``PublicSample``) and cached by content; once that copy has
left the cache (4 entries) a sample rewritten since could only be refused then, after the touch: charged
for nothing. The run now loads the pinned sample before it reads the private data, so the refusal comes
before the touch and the reservation is refunded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data import public
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.errors import DataError
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, ReservationStatus
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.runner import prepare, reserve, run_reserved
from dpgui.tasks.spec import TaskKind, TaskSpec


def write_sample(path: Path, seed: int) -> Path:
    wages = np.round(np.random.default_rng(seed).lognormal(6.2, 0.6, 400), 2)
    pd.DataFrame({"wage": wages}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("rewritten", [False, True])
def test_a_public_sample_gone_from_its_pinned_bytes_is_refused_before_the_touch(
    wages_csv, tmp_path, rewritten
):
    sample = write_sample(tmp_path / "public.csv", 1)
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(5.0))
    spec = TaskSpec(
        TaskKind.CDF, ("wage",), NumericDomain(0, 20000, 1), 1.0, algorithm="pap",
        public=PublicSample.from_file(sample),
    )  # fmt: skip
    prepared = prepare(spec, dataset.n_rows)
    reservation = reserve(prepared, ledger, record)
    public._load.cache_clear()  # its copy left the cache (other samples were opened meanwhile)
    if rewritten:
        write_sample(sample, 2)
    run = run_reserved(
        prepared, dataset, ledger, SeededRandom(0), record=record, reservation=reservation,
        budget_before=ledger.state(record.id), cancelled=lambda: False, aggregator=None, engine_choice=None,
        stage=None,
    )  # fmt: skip
    if not rewritten:  # control: the same bytes read again, and the release is made
        run_to_end(run)
        assert ledger.entries(record.id)[0].status is ReservationStatus.COMMITTED
        return
    with pytest.raises(DataError, match=r"public sample public\.csv changed since it was chosen"):
        run_to_end(run)
    (entry,) = ledger.entries(record.id)
    assert entry.status is ReservationStatus.REFUNDED
