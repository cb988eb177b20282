"""Benchmark of the synthetic-table task (spec 005 s6): dpgui's AIM, MST and independent marginals beside
SmartNoise Synth's AIM and MST, on all seven columns of the demo data (cps1988).

Every column is discretised on the public grid of ``cps1988_domains.json`` (wage in 31 grid points of 100
on [0, 3000]); the error is the total-variation distance between the true and the synthetic table's
marginals on that grid, averaged over all 1-, 2- and 3-way marginals. Each run is a subprocess, so its
seconds (the algorithm, imports excluded) and peak memory (max RSS) are its own.

SmartNoise Synth pins ``mbi<2`` and dpgui needs ``mbi`` 2, so it runs in its own environment
(``--smartnoise-python``). Its other pins pull in torch (opacus) for synthesizers not run here; the
environment of the committed run was made with::

    python3 -m venv snvenv
    snvenv/bin/pip install --no-deps smartnoise-synth==1.0.8 smartnoise-sql==1.0.10
    snvenv/bin/pip install mbi==1.1.0 "pandas<3" "opendp>=0.14.1,<0.15" scipy networkx Faker \
        "disjoint-set<0.10" pyyaml sqlalchemy antlr4-python3-runtime==4.9.3

It is given the same discretised codes as categorical columns (no preprocessing budget) and
analyses add/remove-one neighbours: at the same nominal (ε, δ) its noise is 1/√2 of dpgui's
replace-one noise.

Usage::

    python benchmarks/synthetic_table.py [--smartnoise-python PYTHON] [--out FILE.md]
        [--data TABLE --domains DOMAINS.json]    # another table, scored the same way

Randomness is seeded (a benchmark, not a release): never use these outputs as releases.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from reading import kept_reading

if TYPE_CHECKING:  # dpgui is imported lazily: a SmartNoise worker runs without it
    from dpgui.tasks.spec import TaskSpec

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # this checkout's dpgui, not an installed one
DATA = ROOT / "resources" / "cps1988.csv"
DOMAINS = HERE / "cps1988_domains.json"
EPSILONS = (1.0, 0.3, 3.0)
"""ε = 1 first: the target row (spec 005 s6) is measured even if a later run times out."""
DELTA = 1e-6
OURS = ("aim", "aim-fine", "mst", "independent")
"""aim: the app's default (coarse candidates at COARSE_BINS' default); aim-fine: the paper's candidates."""
THEIRS = ("smartnoise-aim", "smartnoise-mst")


def _spec(domains_file: Path, epsilon: float = 1.0, delta: float = DELTA) -> TaskSpec:
    """The release as ``dpgui release table`` makes it by default: missing values kept as a cell."""
    from dpgui.data.domains_file import read_domains
    from dpgui.data.missing import MissingKind, MissingPolicy
    from dpgui.tasks.spec import TaskKind, TaskSpec

    columns, domains = read_domains(domains_file)
    missing = MissingPolicy(MissingKind.KEEP)
    return TaskSpec(TaskKind.TABLE, columns, domains, epsilon, delta, missing=missing)


def _codes(domains_file: Path = DOMAINS, data: Path = DATA) -> tuple[np.ndarray, list[int], list[str]]:
    """(n, d) cell indices of the data on the public grid, the cells per column and the columns."""
    from dpgui.data.aggregate import cell_indices
    from dpgui.data.dataset import open_dataset

    spec = _spec(domains_file)
    dataset = open_dataset(data)
    codes = np.stack(
        [
            cell_indices(dataset.frame, c, d, spec.missing, file_name=data.name)
            for c, d in zip(spec.columns, spec.domains, strict=True)
        ],
        axis=1,
    )
    sizes = [int(d.size) + spec.missing.extra_cells for d in spec.domains]
    return codes, sizes, list(spec.columns)


Marginals = Callable[[list[tuple[int, ...]]], list[np.ndarray]]


def marginal_counter(codes: np.ndarray, sizes: list[int]) -> Marginals:
    """The table algorithms' ``marginals``: the true counts of each clique of the (n, d) cell indices, by
    the engines' own ``MarginalCounter``."""
    from dpgui.data.aggregate import MarginalCounter

    def marginals(cliques: list[tuple[int, ...]]) -> list[np.ndarray]:
        counter = MarginalCounter(sizes, cliques)
        counter.add([codes[:, j] for j in range(codes.shape[1])])
        return counter.result()

    return marginals


def _ours(
    algorithm: str, epsilon: float, seed: int, domains_file: Path, data: Path
) -> tuple[np.ndarray, float]:
    from dpgui.algorithms import marginal_table as mt
    from dpgui.algorithms.progress import run_to_end
    from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
    from dpgui.privacy.random import SeededRandom
    from dpgui.tasks.table import without_noise_catch_alls
    from dpgui.tasks.table_error import COARSE_BINS, ordered_columns

    codes, sizes, _ = _codes(domains_file, data)
    spec = _spec(domains_file, epsilon, 0.0 if algorithm == "independent" else DELTA)
    n = codes.shape[0]
    marginals = marginal_counter(codes, sizes)
    rng = SeededRandom(seed)
    start = time.perf_counter()
    if algorithm == "independent":
        run = mt.independent_table(sizes, marginals, n, epsilon, n, rng)
    else:
        rho = zcdp_rho_for(PrivacyCost(epsilon, DELTA))
        if algorithm == "mst":
            run = mt.mst_table(sizes, marginals, n, rho, n, rng)
        else:
            levels = (int(COARSE_BINS.default),) if algorithm == "aim" else ()
            run = mt.aim_table(sizes, marginals, n, rho, n, rng, ordered=ordered_columns(spec), levels=levels)
    release = run_to_end(run)
    rows = without_noise_catch_alls(spec, release, n, rng)  # the exported rows' post-processing
    return rows, time.perf_counter() - start


def _theirs(algorithm: str, epsilon: float, seed: int, codes_file: Path) -> tuple[np.ndarray, float]:
    import warnings

    import pandas as pd

    warnings.simplefilter("ignore")
    np.random.seed(seed)  # SmartNoise draws from numpy's global generator
    from snsynth.aim import AIMSynthesizer
    from snsynth.mst import MSTSynthesizer

    frame = pd.read_csv(codes_file)
    start = time.perf_counter()
    synth = (AIMSynthesizer if algorithm == "smartnoise-aim" else MSTSynthesizer)(
        epsilon=epsilon, delta=DELTA
    )
    synth.fit(frame, categorical_columns=list(frame.columns), preprocessor_eps=0.0)
    sample = synth.sample(len(frame))
    seconds = time.perf_counter() - start
    return sample[list(frame.columns)].to_numpy(np.int64), seconds


def _worker(args: argparse.Namespace) -> None:
    if args.algorithm in OURS:
        rows, seconds = _ours(args.algorithm, args.epsilon, args.seed, args.domains, args.data)
    else:
        rows, seconds = _theirs(args.algorithm, args.epsilon, args.seed, args.codes)
    np.save(args.result, rows)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb}))


def _shown(path: Path) -> str:
    """A path as the report names it: relative to the repository when inside it."""
    resolved = path.resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(path)


def tv_errors(true: np.ndarray, synthetic: np.ndarray, sizes: list[int]) -> dict[int, float]:
    """Average total-variation distance over all 1-, 2- and 3-way marginals."""
    out = {}
    for way in (1, 2, 3):
        errors = []
        for clique in itertools.combinations(range(len(sizes)), way):
            shape = tuple(sizes[i] for i in clique)
            true_freq, synthetic_freq = (
                np.bincount(
                    np.ravel_multi_index(tuple(rows[:, i] for i in clique), shape), minlength=math.prod(shape)
                )
                / rows.shape[0]
                for rows in (true, synthetic)
            )
            errors.append(0.5 * float(np.abs(true_freq - synthetic_freq).sum()))
        out[way] = float(np.mean(errors))
    return out


def _mean_sd(values: list[float]) -> str:
    """ "mean ± sample standard deviation" over the seeds (just the mean for one seed)."""
    if len(values) < 2:
        return f"{np.mean(values):.4f}"
    return f"{np.mean(values):.4f} ± {np.std(values, ddof=1):.4f}"


def _rows(path: Path) -> dict[tuple[float, str], str]:
    """The result rows of an earlier run, by (ε, algorithm)."""
    rows = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if line.startswith("| ") and cells[0] not in ("ε",):
                rows[(float(cells[0]), cells[1])] = line
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--smartnoise-python", type=Path, help="python of an environment with smartnoise-synth"
    )
    parser.add_argument("--out", type=Path, default=HERE / "synthetic_table.md")
    parser.add_argument("--domains", type=Path, default=DOMAINS, help="the public discretisation (JSON)")
    parser.add_argument("--data", type=Path, default=DATA, help="the table to score (default: the demo)")
    parser.add_argument("--seeds", type=int, default=3, help="runs per (algorithm, epsilon)")
    parser.add_argument("--only", nargs="+", metavar="ALGORITHM", help="re-run these rows; keep the others")
    parser.add_argument("--epsilons", nargs="+", type=float, default=list(EPSILONS), help="ε values to run")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is abandoned")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--algorithm", help=argparse.SUPPRESS)
    parser.add_argument("--epsilon", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--codes", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args)
        return
    from dpgui.tasks.table_error import COARSE_BINS  # here: a SmartNoise worker cannot import dpgui

    codes, sizes, columns = _codes(args.domains, args.data)
    work = Path("/tmp") / f"dpgui_synthetic_table_bench_{args.data.stem}_{args.domains.stem}"
    work.mkdir(exist_ok=True)
    codes_file = work / "codes.csv"
    np.savetxt(codes_file, codes, fmt="%d", delimiter=",", header=",".join(columns), comments="")
    every = list(OURS) + (list(THEIRS) if args.smartnoise_python else [])
    algorithms = [a for a in every if args.only is None or a in args.only]
    generator = np.random.default_rng(0)  # reference rows from the true data: a benchmark, not a release
    independent = np.stack([codes[generator.permutation(len(codes)), j] for j in range(len(sizes))], axis=1)
    floor = tv_errors(codes, codes[generator.integers(0, len(codes), len(codes))], sizes)
    product = tv_errors(codes, independent, sizes)
    references = [
        "",
        "Non-private references (no noise): the true 1-way marginals with the columns made independent "
        f"(a permutation of each column) {product[1]:.4f} / {product[2]:.4f} / {product[3]:.4f}; a bootstrap "
        f"resample of n true rows (i.i.d. sampling alone) {floor[1]:.4f} / {floor[2]:.4f} / {floor[3]:.4f} "
        "(1- / 2- / 3-way TV).",
    ]
    header = [
        "# Synthetic table benchmark (spec 005 s6)",
        "",
        f"Data: `{_shown(args.data)}`, n = {codes.shape[0]}, all {len(columns)} columns on the public grid "
        f"of `{_shown(args.domains)}` (domain sizes " + ", ".join(map(str, sizes)) + ").",
        f"δ = {DELTA:g} for AIM and MST (zCDP converted to (ε, δ)); independent is pure ε-DP (δ = 0). "
        f"{args.seeds} run(s) per row (seeds 0, 1, ...; TV as mean ± standard deviation over the seeds); "
        "rows drawn = n.",
        "Error: average total-variation distance between the true and the synthetic marginals over all "
        "1-, 2-, 3-way marginals. Seconds: the algorithm alone on 2 shared cores; peak: max RSS of the run.",
        "dpgui runs under replace-one neighbours; SmartNoise Synth 1.0.8 (mbi 1.1.0) under add/remove, "
        "so at the same nominal ε it adds 1/√2 of dpgui's noise.",
        "dpgui's rows are those `dpgui release table` exports by default: every column also has a "
        "'missing' cell (missing values kept, as blanks; each size above counts it), and an 'other' or "
        "'missing' cell within 3 standard deviations of its noise is emptied.",
        f"aim: dpgui's default AIM, which also offers a pair with its numeric columns merged into "
        f"{COARSE_BINS.default} adjacent bins while the pair cell by cell would be too noisy (`--coarse-bins "
        f"{COARSE_BINS.default}`, the default); aim-fine: the paper's candidates only (`--coarse-bins 0`).",
        *references,
        "",
        "| ε | algorithm | 1-way TV | 2-way TV | 3-way TV | seconds | peak MB |",
        "|---|---|---|---|---|---|---|",
    ]
    known = OURS + THEIRS
    kept = {key: row for key, row in _rows(args.out).items() if key[1] in known} if args.only else {}
    reading = kept_reading(args.out)

    def write(rows: dict[tuple[float, str], str]) -> None:
        order = {a: i for i, a in enumerate(known)}
        ranked = sorted(rows.items(), key=lambda kv: (EPSILONS.index(kv[0][0]), order[kv[0][1]]))
        table = "\n".join(header + [line for _, line in ranked]) + "\n"
        args.out.write_text(table + (f"\n{reading}" if reading else ""), encoding="utf-8")

    for epsilon in args.epsilons:
        for algorithm in algorithms:
            python = str(args.smartnoise_python) if algorithm in THEIRS else sys.executable
            errors, seconds, peaks = [], [], []
            for seed in range(args.seeds):
                result = work / f"{algorithm}_{epsilon}_{seed}.npy"
                command = [python, __file__, "--worker", "--algorithm", algorithm, "--epsilon", str(epsilon)]
                command += ["--seed", str(seed), "--codes", str(codes_file), "--result", str(result)]
                command += ["--domains", str(args.domains), "--data", str(args.data)]
                try:
                    done = subprocess.run(
                        command, capture_output=True, text=True, check=False, timeout=args.timeout
                    )
                except subprocess.TimeoutExpired:
                    print(f"{algorithm} at {epsilon}: over {args.timeout} s", file=sys.stderr)
                    break
                if done.returncode != 0:
                    print(done.stderr[-2000:], file=sys.stderr)
                    break
                stats = json.loads(done.stdout.strip().splitlines()[-1])
                errors.append(tv_errors(codes, np.load(result), sizes))
                seconds.append(stats["seconds"])
                peaks.append(stats["peak_mb"])
            if not errors:
                kept[(epsilon, algorithm)] = f"| {epsilon:g} | {algorithm} | failed or timed out | | | | |"
                write(kept)
                continue
            spread = " | ".join(_mean_sd([e[w] for e in errors]) for w in (1, 2, 3))
            row = (
                f"| {epsilon:g} | {algorithm} | {spread} | {np.mean(seconds):.1f} (max {max(seconds):.1f}) "
                f"| {max(peaks):.0f} |"
            )
            print(row, flush=True)
            kept[(epsilon, algorithm)] = row
            write(kept)


if __name__ == "__main__":
    main()
