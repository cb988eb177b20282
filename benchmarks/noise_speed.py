"""Noise speed benchmark (issue 14): exact discrete noise per second, and a tree CDF over 2^26 leaves.

Two exact samplers of Canonne-Kamath-Steinke 2020 on the operating system's CSPRNG: OpenDP's (one call per
vector, ``make_laplace`` / ``make_gaussian`` over i64 vectors) and dpgui's vectorised one
(``dpgui.privacy.exact_vector``), which ``SecureRandom`` uses from 1,024 draws per call. Then the whole
``tree_cdf`` (noise on every node of the tree, least-squares consistency, the released CDF) over 2^26 grid
points with ``SecureRandom``, on the demo wages placed on that grid; wall time and the process's peak RSS.

Run: python benchmarks/noise_speed.py [--draws 131072] [--leaves-log2 26]
Writes benchmarks/noise_speed.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from dpgui.algorithms.tree_cdf import tree_cdf
from dpgui.privacy import exact_vector
from dpgui.privacy.random import SecureRandom, _opendp_noise

OUT = Path(__file__).with_suffix(".md")
DEMO = Path(__file__).resolve().parent.parent / "resources" / "cps1988.csv"
SCALES = (1.0, 10.0, 1e3, 1e6)


def draws_per_second(draw: Callable[[], np.ndarray], count: int) -> float:
    start = time.perf_counter()
    draw()
    return count / (time.perf_counter() - start)


def sampler_rows(count: int) -> list[str]:
    rows = []
    for kind in ("laplace", "gaussian"):
        for scale in SCALES:
            opendp = draws_per_second(lambda kind=kind, scale=scale: _opendp_noise(kind, scale, count), count)
            sampler = exact_vector.discrete_laplace if kind == "laplace" else exact_vector.discrete_gaussian
            if kind == "laplace" or exact_vector.gaussian_supported(scale):
                vector = draws_per_second(lambda sampler=sampler, scale=scale: sampler(scale, count), count)
            else:
                vector = float("nan")
            vector_text = "OpenDP (out of int64 range)" if np.isnan(vector) else f"{vector / 1e6:.2f}"
            speedup = "" if np.isnan(vector) else f"{vector / opendp:.1f}x"
            rows.append(f"| {kind} | {scale:g} | {opendp / 1e6:.3f} | {vector_text} | {speedup} |")
    return rows


def tree_release_seconds(leaves_log2: int) -> tuple[float, int]:
    leaves = 1 << leaves_log2
    wages = pd.read_csv(DEMO)["wage"].to_numpy()
    positions = np.clip((wages / 20_000 * (leaves - 1)).round().astype(np.int64), 0, leaves - 1)
    histogram = np.bincount(positions, minlength=leaves)
    start = time.perf_counter()
    run = tree_cdf(histogram, int(histogram.sum()), 1.0, SecureRandom())
    try:
        while True:
            next(run)
    except StopIteration:
        pass
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return seconds, peak_mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1 << 17)
    parser.add_argument("--leaves-log2", type=int, default=26)
    args = parser.parse_args()
    rows = sampler_rows(args.draws)
    seconds, peak_mb = tree_release_seconds(args.leaves_log2)
    load = os.getloadavg()[0]
    lines = [
        "# Noise speed (issue 14)",
        "",
        f"{datetime.date.today()}, {platform.machine()}, {os.cpu_count()} cores (load average {load:.1f} "
        "during the run: other jobs shared the machine). Both samplers are exact (CKS 2020) on os.urandom.",
        "",
        f"## Millions of draws per second ({args.draws:,} draws per call)",
        "",
        "| noise | scale / sigma | OpenDP | dpgui vectorised | speed-up |",
        "|---|---|---|---|---|",
        *rows,
        "",
        f"## Tree CDF over 2^{args.leaves_log2} grid points (epsilon 1, Laplace, SecureRandom)",
        "",
        "| grid points | seconds (noise on every node + consistency) | peak RSS MB |",
        "|---|---|---|",
        f"| {1 << args.leaves_log2:,} | {seconds:.1f} | {peak_mb} |",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
