"""A messy table nobody tuned for, to score the synthetic-table task beyond the demo data (issue 16).

    PYTHONPATH=. python benchmarks/messy_table.py DIR
    PYTHONPATH=. python benchmarks/synthetic_table.py --data DIR/messy.csv --domains DIR/messy_domains.json \
        --only aim aim-fine mst independent --out benchmarks/synthetic_table_messy.md

Writes ``messy.csv`` and ``messy_domains.json`` into DIR. The table is seeded and synthetic (public): 40,000
rows of seven columns with what real files have and the demo lacks, and with relations between the columns
for a joint model to find:

* ``income``: log-normal, heavy right tail, depending on age, part-time work and occupation; 5% missing,
  a few negative entries (out of the declared bounds);
* ``age``: whole years, roughly normal, clipped to [16, 95];
* ``occupation``: 400 categories with Zipf frequencies, of which only the 150 most common are declared
  (the rest fall in "other"); 10% missing;
* ``state``: six values, five declared;
* ``hours``: bimodal (part-time or not), whole hours; 2% missing;
* ``parttime``: yes/no, more often yes above 65;
* ``score``: Student-t with 2 degrees of freedom (outliers beyond the bounds), shifted by occupation.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd

ROWS = 40_000
CATEGORIES = [f"c{i:03d}" for i in range(400)]
DECLARED_CATEGORIES = 150


def messy_table(rows: int = ROWS, seed: int = 4) -> pd.DataFrame:
    g = np.random.default_rng(seed)
    zipf = 1 / np.arange(1, len(CATEGORIES) + 1) ** 1.1
    occupation = g.choice(len(CATEGORIES), rows, p=zipf / zipf.sum())
    age = np.clip(np.round(g.normal(42, 13, rows)), 16, 95)
    parttime = g.uniform(size=rows) < 0.1 + 0.3 * (age > 65)
    hours = np.clip(np.round(np.where(parttime, g.normal(20, 6, rows), g.normal(42, 6, rows))), 0, 99)
    log_income = 9 + 0.02 * (age - 16) + 0.8 * ~parttime + 0.08 * (occupation % 10) + g.normal(0, 0.6, rows)
    frame = pd.DataFrame(
        {
            "income": np.round(np.exp(log_income), 2),
            "age": age,
            "occupation": np.array(CATEGORIES)[occupation],
            "state": g.choice(["CA", "NY", "TX", "FL", "WA", "OR"], rows),
            "hours": hours,
            "parttime": np.where(parttime, "yes", "no"),
            "score": g.standard_t(2, rows) * 10 + 8 * (occupation % 5),
        }
    )
    for column, share in (("income", 0.05), ("occupation", 0.10), ("hours", 0.02)):
        frame.loc[g.uniform(size=rows) < share, column] = np.nan
    frame.loc[: rows // 2000, "income"] = -5.0
    return frame


DOMAINS = {
    "income": {"lower": 0, "upper": 500000, "granularity": 10000},
    "age": {"lower": 16, "upper": 95, "granularity": 1},
    "occupation": {"categories": CATEGORIES[:DECLARED_CATEGORIES]},
    "state": {"categories": ["CA", "NY", "TX", "FL", "WA"]},
    "hours": {"lower": 0, "upper": 99, "granularity": 1},
    "parttime": {"categories": ["yes", "no"]},
    "score": {"lower": -100, "upper": 100, "granularity": 5},
}
"""The declared public domains (what a custodian would write without looking at the data)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write messy.csv and messy_domains.json")
    folder = parser.parse_args().folder
    folder.mkdir(parents=True, exist_ok=True)
    messy_table().to_csv(folder / "messy.csv", index=False)
    (folder / "messy_domains.json").write_text(json.dumps(DOMAINS, indent=1) + "\n")
    print(f"wrote {folder / 'messy.csv'} and {folder / 'messy_domains.json'}")


if __name__ == "__main__":
    main()
