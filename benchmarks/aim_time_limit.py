"""AIM cut short (its time limit, or the custodian's Finish now): the last round on one marginal, as
Algorithm 1 of McKenna et al. 2022 spends what is left, against one marginal per column
(``marginal_table.final_picks``, dpgui's default), in the same run.

Data and error as ``synthetic_table.py``: the demo's seven columns on the public grid of
``cps1988_domains.json``, average total-variation distance of the 2- and 3-way marginals, δ = 1e-6,
replace-one. The run is cut by sending FINISH_NOW after k rounds, the same path a time limit takes, so
the cut is the same on any machine; "one marginal" replaces ``final_picks`` by 1 for the run. Seeded
(a benchmark, not a release).

Usage::

    python benchmarks/aim_time_limit.py [--seeds 2] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from unittest import mock

import numpy as np
from reading import kept_reading
from synthetic_table import DATA, DELTA, DOMAINS, HERE, _codes, _spec, marginal_counter, tv_errors

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms.progress import FINISH_NOW, Progress, run_to_end
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.table import without_noise_catch_alls
from dpgui.tasks.table_error import COARSE_BINS, ordered_columns

CUTS = (2, 5, None)
"""Rounds before Finish now (None: the full run, at ε = 1 only: at ε = 10 it takes about ten minutes)."""
VARIANTS = {"one marginal (Algorithm 1)": lambda remaining, round_rho, columns: 1, "one per column": None}


def cut_run(epsilon: float, cut: int | None, seed: int) -> tuple[dict[int, float], int, float]:
    """(TV by way, selections, seconds) of dpgui's default AIM on the demo, cut after ``cut`` rounds."""
    codes, sizes, _ = _codes(DOMAINS, DATA)
    spec = _spec(DOMAINS, epsilon, DELTA)
    n, rng = codes.shape[0], SeededRandom(seed)
    run = mt.aim_table(
        sizes,
        marginal_counter(codes, sizes),
        n,
        zcdp_rho_for(PrivacyCost(epsilon, DELTA)),
        n,
        rng,
        ordered=ordered_columns(spec),
        levels=(int(COARSE_BINS.default),),
    )
    start, rounds = time.perf_counter(), 0

    def finish_after_the_cut(step: Progress) -> str | None:
        nonlocal rounds
        rounds += isinstance(step.partial, mt.AimRound)
        return FINISH_NOW if cut is not None and rounds == cut else None

    release = run_to_end(run, finish_after_the_cut)
    seconds = time.perf_counter() - start
    rows = without_noise_catch_alls(spec, release, n, rng)
    return tv_errors(codes, rows, sizes), len(release.selected), seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=HERE / "aim_time_limit.md")
    args = parser.parse_args()
    lines = [
        "# AIM cut short: the last round on one marginal or one per column",
        "",
        f"Demo data, 7 columns, δ = {DELTA:g}; mean over seeds 0-{args.seeds - 1}; Finish now after k rounds "
        "(the time limit's path). Seconds: the run alone, on a shared 2-core machine.",
        "",
        "| ε | rounds before the cut | last round | selections | 2-way TV | 3-way TV | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for epsilon in (1.0, 10.0):
        for cut in CUTS:
            if cut is None and epsilon > 1:
                continue
            for name, replacement in VARIANTS.items():
                if cut is None and replacement is not None:
                    continue  # a full run is never cut: both variants are the same
                patch = mock.patch.object(mt, "final_picks", replacement) if replacement else mock.MagicMock()
                with patch:
                    results = [cut_run(epsilon, cut, seed) for seed in range(args.seeds)]
                tv2 = np.mean([r[0][2] for r in results])
                tv3 = np.mean([r[0][3] for r in results])
                picks = np.mean([r[1] for r in results])
                seconds = np.mean([r[2] for r in results])
                label = "not cut" if cut is None else name
                cells = (f"{epsilon:g}", str(cut or "—"), label, f"{picks:.1f}", f"{tv2:.4f}", f"{tv3:.4f}")
                row = "| " + " | ".join((*cells, f"{seconds:.1f}")) + " |"
                print(row, flush=True)
                lines.append(row)
    reading = kept_reading(args.out)
    args.out.write_text("\n".join(lines) + "\n" + (f"\n{reading}" if reading else ""), encoding="utf-8")


if __name__ == "__main__":
    main()
