"""Plain words first: each algorithm's everyday name and one line on what it is good for, and a glossary.

The registry (``dpgui.tasks.registry``) keeps the exact title, paper and section; the app shows these plain
words first and the paper details behind a "Details" control (issue 15 item 5). An algorithm without an
entry here falls back to its registered title and the first sentence of its summary.
"""

from __future__ import annotations

from dataclasses import dataclass

from dpgui.tasks.registry import AlgorithmInfo


@dataclass(frozen=True)
class PlainWords:
    """An algorithm's plain name and one line on what it is good for."""

    name: str
    good_for: str


PLAIN_WORDS: dict[str, PlainWords] = {
    # median and interior point
    "em": PlainWords("Private median", "One median with a small error on any grid; the usual choice."),
    "em-interior": PlainWords(
        "A typical value (inside the data's range)", "A value between the smallest and largest record."
    ),
    "treelog": PlainWords(
        "A typical value on a gigantic grid", "Grids of hundreds of bits when δ > 0 is acceptable."
    ),
    "heavypaths": PlainWords(
        "A typical value (research method)", "Comparing methods; rarely the best choice."
    ),
    # quantiles
    "aq": PlainWords(
        "Many quantiles at once", "Dozens of quantiles: the error grows slowly with their number."
    ),
    "em-each": PlainWords("A few quantiles, one by one", "Two or three quantiles."),
    "joint-exp": PlainWords(
        "Several quantiles chosen together", "Up to a few dozen quantiles; the most accurate there."
    ),
    "tree-cdf": PlainWords("Quantiles read off a private CDF", "Many quantiles, or the CDF as well."),
    "privtree-quantiles": PlainWords(
        "Quantiles read off a data-adapting CDF", "Many quantiles (dozens or more) of any shape of column."
    ),
    "dawa-quantiles": PlainWords(
        "Quantiles read off a CDF on data-chosen buckets", "Many quantiles of a column flat over long ranges."
    ),
    # CDF
    "tree-laplace": PlainWords(
        "Share of records at or below every value",
        "The whole CDF (every 'how many at most v?' question); the usual choice.",
    ),
    "tree-gaussian": PlainWords(
        "Share at or below every value (Gaussian noise)", "Very fine grids when δ > 0 is acceptable."
    ),
    "san-thresholds": PlainWords(
        "CDF by interval search (research method)", "Research: needs billions of records."
    ),
    "privtree": PlainWords(
        "Share at or below every value, adapting to the data",
        "Skewed or clustered columns: spends no noise on empty ranges.",
    ),
    "dawa": PlainWords(
        "Share at or below every value, on data-chosen buckets",
        "Columns flat over long ranges, with many records (rarely the best below 100,000).",
    ),
    "pap": PlainWords(
        "CDF cut at a public sample's values",
        "A public sample that looks like the private data; error does not grow with the grid.",
    ),
    # histogram and synthetic records
    "geometric": PlainWords(
        "Noisy count per bin or category", "Counts of every bin or category; the usual choice."
    ),
    "san-points": PlainWords(
        "Frequent values of a huge domain", "Finding the common values when the domain is too big to list."
    ),
    "k-point": PlainWords("Share taking one of k values", "Questions about small sets of values."),
    "privtree-histogram": PlainWords(
        "Noisy counts, adapting to the data", "Skewed or clustered columns with many empty bins."
    ),
    "dawa-histogram": PlainWords(
        "Noisy counts on data-chosen buckets", "Columns flat over long ranges, with many records."
    ),
    "privtree-synthetic": PlainWords(
        "Synthetic records, adapting to the data", "A stand-in for a skewed or clustered column."
    ),
    "dawa-synthetic": PlainWords(
        "Synthetic records on data-chosen buckets", "A stand-in for a large column flat over long ranges."
    ),
    "tree-synthetic": PlainWords(
        "Synthetic records with the same distribution",
        "A stand-in column to explore without the private data.",
    ),
    # learning
    "em-threshold": PlainWords(
        "Best cut point",
        "'Positive above (or below) a value' rules; copes with noisy labels; the usual choice.",
    ),
    "recconcave": PlainWords(
        "Cut point by recursive search (research method)", "Research: astronomically large grids."
    ),
    "label-private": PlainWords(
        "Cut point protecting the labels",
        "Public feature values and sensitive labels, or with a public sample.",
    ),
    "public-em": PlainWords(
        "Cut point among a public sample's values", "A public sample from the same population."
    ),
    "ip-reduction-em": PlainWords(
        "Cut point through a typical value", "Cleanly separable labels; compare with 'Best cut point'."
    ),
    "ip-reduction-treelog": PlainWords(
        "Cut point through a typical value (gigantic grids)", "Cleanly separable labels on huge grids, δ > 0."
    ),
    "learn-points": PlainWords(
        "The one value that marks the positives", "Point rules when δ > 0 is acceptable."
    ),
    "hashing": PlainWords("A hashed group of values marking the positives", "Point rules with pure ε-DP."),
    "quantile-box": PlainWords("Box around the positives", "A range per feature that holds the positives."),
    # distance
    "cdf-route": PlainWords(
        "Average distance to any point, via private CDFs",
        "Many query points answered later at no extra cost.",
    ),
    "huang-roth-offline": PlainWords(
        "Average distance for a list of points (paper method)", "Comparing with the CDF route; very large n."
    ),
    "huang-roth-online": PlainWords(
        "Average distance, points answered one by one", "Query points that arrive one at a time."
    ),
    "bourgain": PlainWords(
        "Average distance for any metric", "Metrics other than l1 and l2 (answers run low)."
    ),
    "laplace-per-query": PlainWords(
        "One noisy answer per point", "A handful of query points; the simple baseline."
    ),
    "gaussian-per-query": PlainWords(
        "One noisy answer per point (Gaussian noise)", "A handful of query points when δ > 0 is acceptable."
    ),
    # synthetic table
    "aim": PlainWords(
        "Synthetic table keeping the strongest links between columns",
        "A stand-in for the whole table when δ > 0 is acceptable; the usual choice.",
    ),
    "mst": PlainWords(
        "Synthetic table keeping a tree of column pairs", "A faster stand-in table when δ > 0 is acceptable."
    ),
    "independent": PlainWords(
        "Synthetic table, each column on its own",
        "Pure ε-DP; keeps every column's shape, no links between them.",
    ),
}


def plain_words(info: AlgorithmInfo) -> PlainWords:
    """The plain words of ``info``; its title and first summary sentence when none are written yet."""
    known = PLAIN_WORDS.get(info.name)
    if known is not None:
        return known
    return PlainWords(info.title, info.summary.split(". ")[0].rstrip(".") + ".")


def details(info: AlgorithmInfo) -> str:
    """The paper details behind "Details": registered name, title, guarantee, paper, section, summary."""
    return (
        f"{info.name}: {info.title} ({info.guarantee.value}).\n"
        f"Paper: {info.paper}, {info.section}.\n"
        f"{info.summary}"
    )


GLOSSARY: tuple[tuple[str, str], ...] = (
    ("ε (epsilon)", "The privacy loss of a release: anyone's odds about one person change by at most e^ε."),
    ("δ (delta)", "A small probability that the ε statement fails; 0 for pure DP. Keep it far below 1/n."),
    (
        "Pure / approximate DP",
        "Pure: δ = 0. Approximate: a small δ > 0 in exchange for less noise or fewer records.",
    ),
    ("Budget", "The total ε and δ the custodian allows for a dataset; every release spends part of it."),
    ("Ledger", "The append-only record of what was spent; it refuses a release that would overspend."),
    (
        "Declared domain",
        "The bounds and grid a column is rounded to. Public: typed by you, never read off the data.",
    ),
    ("Granularity / bins", "The grid step, or the number of equal steps between the bounds."),
    (
        "Public sample",
        "Data anyone may see; used to suggest domains, cut points and previews, never mixed in.",
    ),
    ("CDF", "For every value v, the share of records at or below v."),
    ("Quantile", "The value below which a given share of the records lies (the median is the 0.5 quantile)."),
    ("Interior point", "Any value between the smallest and the largest record."),
    ("Threshold (cut point)", "A rule 'positive exactly when the feature is at least / at most t'."),
    (
        "Predicted error",
        "An a-priori bound that holds with probability 1 − β, known before the data is read.",
    ),
    ("β (beta)", "The chance that the predicted error bound fails (not a privacy parameter)."),
    (
        "Neighbouring relation",
        "Which two datasets DP keeps indistinguishable: here, by replacing one record.",
    ),
    (
        "Imputation",
        "Missing cells are replaced by a declared value so that no row is dropped and n stays public.",
    ),
    ("Review", "The summary and checks shown before every charge, computed from public information only."),
    (
        "Simulated error",
        "An algorithm's mean error on simulated data of the column's shape (public facts only): auto's "
        "ranking.",
    ),
    (
        "Rank error / n",
        "How many records lie between a released value and the true one, as a share of all n records.",
    ),
    ("Min n", "The fewest records an algorithm needs for its preconditions (and a target error, if set)."),
    (
        "Error bound inf",
        "The algorithm has no accuracy guarantee at this n (too few records for its proof): see Min n.",
    ),
    (
        "zCDP, ρ (rho)",
        "Concentrated DP, the accounting of Gaussian noise: ρ adds up over releases and converts to ε at δ.",
    ),
    (
        "PLD / tight composition",
        "Adding up many releases by their privacy-loss distributions, which spends less ε than adding ε's.",
    ),
    (
        "Sensitivity (L1, L2)",
        "How much one person can move the counts: replacing one record changes two cells by 1 (L1 2, L2 √2).",
    ),
    ("Direction le / ge", "A threshold rule predicts positive at or below t (le) or at or above t (ge)."),
    (
        "TV vs noisy",
        "Total variation between the synthetic table's marginal and the noisy measurement of it: the fit.",
    ),
)
"""Terms the app uses, in plain words (Help > Glossary)."""
