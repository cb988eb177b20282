"""DPBench's one-dimensional range-query setup, for dpgui's CDF engines and OpenDP's tree (run on demand).

    PYTHONPATH=. /work/venv/bin/python benchmarks/dpbench_1d.py --dpbench DIR [--shapes INCOME HEPTH]

DIR is the folder ``dpcomp_core/datafiles/1D`` of DPBench's code (github.com/dpcomp-org/dpcomp_core): the
shapes are read from there and not copied into dpgui, as that repository states no licence. Writes
benchmarks/dpbench_1d.md.

Setup, after Hay, Machanavajjhala, Miklau, Chen, Zhang, "Principled Evaluation of Differentially Private
Algorithms using DPBench", SIGMOD 2016 (s4-s6), as its code runs it: a dataset's *shape* is its histogram
over 4,096 cells normalised to sum 1; a data instance of *scale* s is s records drawn i.i.d. from the shape
(five instances per scale, seeds 0-4); the workload is Prefix1D (the 4,096 queries [0, i]); the error is
DPBench's scaled per-query L2 error against the instance (its "TypeI.L2": ||W x - W x_hat||_2 / |W| / s),
averaged over 10 releases of each instance (50 per cell). Scales 10^3, 10^5 and 10^7 and eps = 0.1 (its
default) and 1.

Engines: dpgui's tree with consistency, DAWA and PrivTree (replace-one eps, n public, as the app runs them),
DPBench's IDENTITY baseline (dpgui's histogram: discrete Laplace of scale 2/eps per cell, prefix sums of the
counts clipped at 0), and OpenDP's b-ary tree with consistency and the monotone post-processing dpgui applies,
at eps/2 under its add/remove neighbours (which implies replace-one eps), its branching factor the best of
{2, 4, 8, 16, 32} and ``choose_branching_factor`` in a 40-release pilot per eps on the metric above (its noise
does not depend on the data). DPBench's own algorithms count add/remove neighbours: at the same eps they are
held to a weaker guarantee than every engine here. "auto" is what dpgui's auto picks for the spec without a
public sample.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import opendp.prelude as dp

from benchmarks.cdf_accuracy import (
    ENGINES,
    OPENDP_BRANCHINGS,
    auto_pick,
    engine_of,
    markdown_table,
    opendp_cdf,
)
from dpgui.algorithms.histogram import geometric_histogram
from dpgui.algorithms.progress import run_to_end
from dpgui.data.domain import NumericDomain
from dpgui.privacy.random import SeededRandom

HERE = Path(__file__).resolve().parent
CELLS = 4096
SCALES = (10**3, 10**5, 10**7)
EPSILONS = (0.1, 1.0)
INSTANCES = 5
RELEASES = 10
PILOT = 40
FILES = {"INCOME": "INCOME.n4096.npy", "HEPTH": "HEPTH.n4096.npy", "MEDCOST": "MEDCOST.n4096.npy",
         "NETTRACE": "NETTRACE.n4096.npy", "SEARCHLOGS": "SEARCHLOGS.n4096.npy", "PATENT": "PATENT.n4096.npy",
         "ADULT": "ADULTFRANK.n4096.npy"}  # fmt: skip


def shape(folder: Path, name: str) -> np.ndarray:
    counts = np.load(folder / FILES[name]).astype(np.float64)
    if counts.shape != (CELLS,):
        raise SystemExit(f"{name}: expected {CELLS} cells, found {counts.shape}")
    return counts / counts.sum()


def instance(distribution: np.ndarray, scale: int, seed: int) -> np.ndarray:
    """DPBench's data generator: ``scale`` records drawn i.i.d. from the shape."""
    return np.random.default_rng(seed).multinomial(scale, distribution).astype(np.int64)


def scaled_l2(counts: np.ndarray, cdf: np.ndarray) -> float:
    """DPBench's TypeI.L2 on Prefix1D: ||true prefix counts - released||_2 / |W| / scale."""
    scale = int(counts.sum())
    diff = np.cumsum(counts) - np.asarray(cdf) * scale
    return float(np.linalg.norm(diff) / diff.size / scale)


def identity_cdf(counts: np.ndarray, epsilon: float, rng: SeededRandom) -> np.ndarray:
    """DPBench's IDENTITY: every cell noised (dpgui's histogram), prefix sums over n."""
    release = run_to_end(geometric_histogram(counts, epsilon, rng))
    return np.cumsum(release.counts) / counts.sum()


def opendp_best_branching(counts: np.ndarray, epsilon: float) -> int:
    candidates = sorted({*OPENDP_BRANCHINGS, dp.t.choose_branching_factor(counts.size)})
    means = {
        b: float(np.mean([scaled_l2(counts, opendp_cdf(counts, b, epsilon / 2)) for _ in range(PILOT)]))
        for b in candidates
    }
    return min(means, key=means.__getitem__)


def cell_errors(counts_by_instance: list[np.ndarray], epsilon: float, branching: int) -> dict[str, float]:
    runs = {
        **{
            label: lambda c, rng, engine=engine: run_to_end(engine(c, epsilon, rng)).cdf
            for label, engine in ENGINES.items()
        },
        "IDENTITY": lambda c, rng: identity_cdf(c, epsilon, rng),
        "OpenDP tree": lambda c, rng: opendp_cdf(c, branching, epsilon / 2),
    }
    return {
        label: float(
            np.mean(
                [
                    scaled_l2(counts, run(counts, SeededRandom(1000 * i + r)))
                    for i, counts in enumerate(counts_by_instance)
                    for r in range(RELEASES)
                ]
            )
        )
        for label, run in runs.items()
    }


def benchmark(folder: Path, names: list[str]) -> list[dict[str, object]]:
    domain = NumericDomain(0.0, CELLS - 1.0, 1.0)
    rows: list[dict[str, object]] = []
    pilot = np.full(CELLS, 25, dtype=np.int64)  # any data: the tree's noise does not depend on it
    branchings = {eps: opendp_best_branching(pilot, eps) for eps in EPSILONS}
    print(f"OpenDP branching by eps: {branchings}", flush=True)
    for name in names:
        distribution = shape(folder, name)
        for scale in SCALES:
            instances = [instance(distribution, scale, seed) for seed in range(INSTANCES)]
            for epsilon in EPSILONS:
                errors = cell_errors(instances, epsilon, branchings[epsilon])
                dpgui = {k: errors[k] for k in ("tree", "DAWA", "PrivTree")}
                best = min(dpgui, key=dpgui.__getitem__)
                picked = auto_pick(domain, scale, epsilon)
                rows.append(
                    {
                        "shape": name,
                        "scale": f"1e{round(np.log10(scale))}",
                        "ε": epsilon,
                        **{label: value for label, value in errors.items()},
                        "OpenDP b": branchings[epsilon],
                        "best dpgui": best,
                        "best / OpenDP": dpgui[best] / errors["OpenDP tree"],
                        "auto picks": picked,
                        "auto / best": dpgui[engine_of(picked)] / dpgui[best],
                    }
                )
                print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpbench", type=Path, required=True, help="dpcomp_core/datafiles/1D")
    parser.add_argument("--shapes", nargs="+", default=["INCOME", "HEPTH"], choices=sorted(FILES))
    args = parser.parse_args()
    start = time.monotonic()
    rows = benchmark(args.dpbench, args.shapes)
    report = [
        "# DPBench's 1-D setup (benchmarks/dpbench_1d.py)",
        "",
        f"Shapes {', '.join(args.shapes)} over {CELLS} cells; {INSTANCES} instances per scale x {RELEASES} "
        "releases per cell; the Prefix1D workload; DPBench's scaled per-query L2 error (TypeI.L2), mean "
        "over the 50 releases (lower is better). dpgui's engines and IDENTITY: replace-one eps, n public. "
        "OpenDP: eps/2 add/remove. Setup: see the script's docstring. "
        f"Run time {time.monotonic() - start:.0f} s.",
        "",
        markdown_table(rows),
    ]
    (HERE / "dpbench_1d.md").write_text("\n".join(report) + "\n")
    print("\n".join(report))


if __name__ == "__main__":
    main()
