"""Planted errors: one-line mutations of the privacy code that the privacy tests must catch (issue 13).

Each mutation replaces one exact line fragment (found exactly once in its file) by a wrong constant or a
wrong formula, in a temporary copy of the repository; the privacy, algorithm and task tests (``TEST_DIRS``:
the tasks book each release's privacy curve) then run on that copy and must fail. The mutations cover the
mechanisms, the samplers, the accountant and the ledger, and what surrounds them: what an export holds
and when a run counts as having read the data (those also run the export, data and command-line tests,
``SURFACE_TEST_DIRS``); and the planner's sample-size formulas, lower bounds and searches, which the planner
and ``auto`` show and rank by (those run the planner tests, ``PLANNER_TEST_DIRS``); and the data and release
code every release goes through: the grids, snapping and categories, the missing-value policy, the labels,
each engine's counts on edge rows, the export's files, the report's figures and a synthetic table's rows
(those run the data, release or task tests: ``DATA_TEST_DIRS``, ``RELEASE_TEST_DIRS``,
``TABLE_TASK_TESTS``); and, since session 28, what decides what is charged, when, and what a run may do:
each algorithm's task wiring (its cost, guarantee, preconditions and the budget its run is given), the
spec's and pre-flight's refusals, the review's words (``WIRING_TESTS``), the app's release and plan jobs
(the touched line, the commit before results, refunds only of runs that never read the data:
``JOB_TESTS``), a cancel during a draw (``CANCEL_TESTS``), a plan's split (``PLANNER_TEST_DIRS``), the
command line's review gate (``REVIEW_GATE_TESTS``), DOMAINS.json and the project file; and what a user
gets from the core around them: how ``auto`` simulates and ranks (``SIMULATION_TESTS``), the table
planner's predicted error (``TABLE_ERROR_TESTS``), the plan file, the budget's words and the numbers'
(``BUDGET_WORDS_TESTS``, ``NUMBERS_TESTS``), the command line's generated flags and ``--public``
(``CLI_TESTS``), a plan's run and export (``BATCH_RUN_TESTS``), the released table's labels and the plain
words (``PLAIN_WORDS_TESTS``); and, since session 29, the core around the releases: the worker threads'
progress, cancel, Finish now and outcome, the open's budget composed ahead and the scan monitor
(``WORKER_TESTS``), the loaded dataset, the engine choice and the data errors (``DATA_CORE_TESTS``), the
command line's exit codes and commands (``CLI_CORE_TESTS``), where the state lives (``PATHS_TESTS``) and
the progress helpers (``PROGRESS_TESTS``); the learning, rectangle, query and fingerprint commands'
flags (``CLI_TESTS``) and the review's advice on a coarser step. The working tree is never modified.
Usage, from the repository root::

    python tools/planted_errors.py            # run every mutation, print the table
    python tools/planted_errors.py --write    # ... and write tools/planted_errors.md
    python tools/planted_errors.py --only em-half-exponent sv-query-noise
    python tools/planted_errors.py --only NAME --write   # rewrite these rows, keep the others
    python tools/planted_errors.py --check    # only check that every mutation still applies (fast)

Exit status: 0 when every mutation applies and is caught, 1 otherwise. The full run takes several minutes
(one pytest run per mutation), so CI runs only ``--check`` (tests/tools/test_planted_errors.py).

Every mutation here is a real privacy error: the exact output law breaks the asked (epsilon, delta) on some
neighbouring pair. Some wrong-looking constants are not, and are deliberately not planted (the exact checks
show it): the choosing mechanism's threshold with 4/eps instead of 8/eps (it stays below 0.15 delta), its
noise Lap(2/eps) instead of Lap(4/eps) (the pure part stays at e^eps), and its selection at the full eps
for a growth-1 quality (it leaks only under growth k > 1, which the tests exercise at k = 8).

Since session 15 these constants are pinned to the paper's or the review's formulas as well (each
mechanism's "uses the paper's constants" test), so such a change is caught too, but as a departure from the
paper rather than a privacy error. The planner's mutations (and the error bounds' and minimum sizes' in the
algorithm modules) are errors of that kind by nature: a sample size or error bound smaller than the theorem
gives, or a lower bound above the proven one, caught by the tests that compute the paper's formula apart.
Those of session 28 break what is charged, refused, refunded or stated rather than an output law: a δ
dropped from a cost, a guarantee labelled pure, a run given more ε than it is charged, a precondition
that no longer refuses, a refund where a commit is due, a review that lets a failed check through.

Also not planted, because no exact check shows a breach: RecConcave's A_dist delta split delta/(L-1)
instead of delta/(2(L-1)) (A_dist's exact delta on the searched pairs stays far below its share), and one
of the rectangle learner's two quantiles at 2 eps_m (the worst pair of an exhaustive search on a 4-point
axis stays inside e^eps). The RecConcave split and level-quality errors break the per-selection check (a
selection's recorded law exceeds the equal share RecConcave books it at, REVIEW-000-002 s3) rather than
the end-to-end law, which tiny instances keep far inside (eps, delta); likewise the TreeLog and HeavyPaths
errors break the composition of the mechanisms' recorded epsilons against the asked budget (the paper's
accounting, REVIEW-000-002 s4), not an enumerated end-to-end law. TreeLog's trimming t >= 2g written as
t >= g is not planted: at the tested parameters another term of the max sets t. PrivTree's clamp at
theta - 2 delta instead of theta - delta is planted as a departure from the paper (Alg. 2): one record's
path then costs up to 3.6/lambda against Thm 3.2's 3/lambda under add/remove, but a replacement's two paths
stay near 4.6/lambda, inside the 6/lambda that dpgui's replace-one doubling pays for.

Not planted, because they change nothing: the histogram error bound's union bound written with one tail
(cells P(Z >= k) in place of cells P(|Z| >= k)) in either of its two places, the closed-form first guess of k
or the loop that steps k up: the guess alone is already the least k (the loop only corrects a float
rounding), and a wrong guess below it is stepped up by the loop. Nor, in ``NumericDomain.to_grid``, the
clip at the upper bound (an index past the last grid point is clamped to it anyway) or the clamp at 0
after snapping up (values are already clipped at the lower bound, so at least -1e-9 steps reach the
ceiling, which gives 0).

Not planted either (session 27): SanThresholds' EM condition in ``guarantee_met`` with 1/eps for 2/eps (the
Laplace condition, alpha m >= 16 c ln(2/beta_m)/eps with c = ceil(77/alpha), always binds first, so the EM
condition never decides); HeavyBin's noise bound with ln(m/beta) for ln(2m/beta) (still a valid bound:
2 r^(a+1)/(1 + r) <= (2r/(1 + r)) beta/m < beta/m); the sparse vector keeping its noisy threshold after an
"above" answer instead of drawing a new one (one threshold noise Lap(2c/eps) shared by c rounds with query
noise Lap(4c/eps) stays eps-DP, Lyu, Su, Li 2017); the tree CDF's height one too large on a grid of exactly
b^h points (one more real level paid for by the larger scale: conservative); A_dist releasing on a noisy
gap > tau for >= tau (a threshold one higher: conservative).

Not planted either (session 29): a line of ``dpgui/tasks/catalog.py`` left out (``adaptive`` imports
every other task module, so the registry is complete whatever the catalog lists), and ``Dataset.header``
holding a row instead of none (only its column names are ever read), nor ``--delta`` dropped by ``release
rectangle`` (its only algorithm, quantile-box, is pure and charges no δ whatever is asked).

Since session 29 the app's own privacy-relevant logic (dpgui/ui) is planted too, each error run against the
tests/ui files of its page (``UI_DOMAIN_TESTS``, ``UI_FORM_TESTS``, ``UI_REVIEW_TESTS``, ``UI_PLAN_TESTS``,
``UI_BUDGET_TESTS``, ``UI_EXPORT_TESTS``, ``UI_CANCEL_TESTS``): the private file taken as the public sample
(or its twin as the private data), a declaration typed but not sent, the default or half the ε typed sent,
a review skipped, stale or stating the wrong account, the budget shown without the running reservations, an
export beside the private data or holding a custodian-only layer, a cancel that does not cancel. Not planted:
the Data page's "Suggest" trying a column the public sample lacks (it fails, and the status then names the
column twice; nothing else changes).

A mutation that makes the code loop (zcdp-rho-for: the guard steps a too-large rho down ulp by ulp) is
caught by the per-test time limit the runner sets (DPGUI_TEST_TIME_LIMIT, tests/conftest.py).
"""

from __future__ import annotations

import argparse
import datetime
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST_DIRS = ("tests/privacy", "tests/algorithms", "tests/tasks")
SURFACE_TEST_DIRS = (*TEST_DIRS, "tests/release", "tests/data", "tests/cli")
"""For errors outside the mechanisms (what an export holds, when a run counts as having read the data):
the export, data and command-line tests check those."""
PLANNER_TEST_DIRS = ("tests/planner",)
"""For the planner's lower bounds, floors and searches (dpgui/planner):
only the planner and the user interface read them, and the planner tests pin them to the papers."""
TIE_BREAKING_TESTS = (
    "tests/algorithms/test_tie_breaking.py",
    "tests/tasks/test_pins_sanitize_21.py",
    "tests/tasks/test_pins_adaptive_bounds.py",
)
SYNTHETIC_TESTS = ("tests/algorithms/test_synthetic.py", "tests/algorithms/test_pins_synthetic.py",
                   "tests/algorithms/test_pins_synthetic_21.py")  # fmt: skip
STATED_BOUND_TESTS = ("tests/algorithms/test_pins_stated_bounds.py", "tests/algorithms/test_histogram.py")
DISTANCE_TASK_TESTS = ("tests/tasks/test_distance.py", "tests/tasks/test_pins_distance_21.py",
                       "tests/tasks/test_pins_distance_22.py")  # fmt: skip
"""For errors that no privacy test can see (tie breaking's refinement and mapping back, synthetic sampling,
stated error bounds and minimum sizes, the distance task's normalisation and query count): the test modules
that pin them, run alone, since the privacy folder runs for minutes before ``-x`` reaches them."""
_A = "tests/algorithms/"
TREE_TESTS = (f"{_A}test_tree_cdf.py", f"{_A}test_pins_tree_cdf_21.py", f"{_A}test_pins_tree_cdf_27.py",
              f"{_A}test_bucket_cdf.py", f"{_A}test_pins_bucket_cdf_21.py",
              f"{_A}test_pins_stated_bounds.py")  # fmt: skip
QUANTILE_TESTS = (f"{_A}test_quantiles.py", f"{_A}test_rank_scores.py", f"{_A}test_pins_rank_scores_21.py",
                  f"{_A}test_approximate_quantiles.py", f"{_A}test_pins_approximate_quantiles_21.py",
                  f"{_A}test_joint_exp.py", f"{_A}test_pins_joint_exp_21.py",
                  f"{_A}test_pins_stated_bounds.py", "tests/privacy/test_exponential.py",
                  "tests/privacy/test_pins_exponential_20.py")  # fmt: skip
SANITIZER_TESTS = (f"{_A}test_public_assisted.py", f"{_A}test_pins_public_assisted_20.py",
                   f"{_A}test_san_points.py", f"{_A}test_san_thresholds.py", f"{_A}test_pins_sanitizers.py",
                   f"{_A}test_pins_sanitizers_2.py", f"{_A}test_pins_sanitizers_20.py",
                   f"{_A}test_pins_small_edges_2.py")  # fmt: skip
LEARNER_TESTS = (f"{_A}learners", f"{_A}test_rectangles.py", f"{_A}test_pins_rectangles.py",
                 f"{_A}test_pins_rectangles_20.py", f"{_A}test_pins_small_edges_2.py",
                 f"{_A}test_pins_stated_bounds.py")  # fmt: skip
DISTANCE_ALGORITHM_TESTS = (f"{_A}distance",)
MECHANISM_TESTS = tuple(f"tests/privacy/test_{name}.py" for name in (
    "exponential", "pins_exponential_20", "stability", "sparse_vector", "pins_sparse_vector_20", "heavy_bin",
    "pins_heavy_bin_20", "pins_heavy_bin_25", "pins_heavy_bin_27", "noise_batch", "noise_bound"))  # fmt: skip
TASK_TESTS = ("tests/tasks/test_pins_median_law_25.py", "tests/tasks/test_pins_predicted_error_per_n.py",
              "tests/tasks/test_curves.py", "tests/tasks/test_pins_tree_curve_small_grid.py",
              "tests/tasks/test_pins_median_error_27.py")  # fmt: skip
"""For the mechanisms' and algorithms' constants planted in session 27 (h27e): the test modules of the
module planted in, so that a survivor costs a minute, not the several minutes of the whole folders."""
DATA_TEST_DIRS = ("tests/data",)
"""For errors in reading, checking and counting the data (domains, grids, missing values, labels, the
engines): the data tests compare every engine with the in-memory one on edge rows."""
SURFACE_DATA_TEST_DIRS = ("tests/data", "tests/release")
"""For a data module's words that the manifest and report quote."""
SPARK_TESTS = ("tests/data/test_backends_spark.py",)
"""For the Spark engine alone (its tests start a JVM; skipped without Java)."""
RELEASE_TEST_DIRS = ("tests/release",)
"""For what an export writes: the files, the report's facts and the kept copy."""
TABLE_TASK_TESTS = ("tests/tasks",)
"""For a synthetic table's rows as the task writes them (grid values, blanks, catch-all cells, limits)."""
WIRING_TESTS = ("tests/tasks",)
"""For the task wiring (costs, guarantees, preconditions, the runs' budget, the review's words) and the
spec's and pre-flight's refusals: the task tests pin each registered algorithm's wiring."""
JOB_TESTS = ("tests/jobs",)
"""For the app's release and plan jobs (the settle order: touched line, commit before results, refunds)."""
CANCEL_TESTS = ("tests/privacy/test_cancellable_work.py", "tests/privacy/test_pins_cancellable.py",
                "tests/privacy/test_pins_cancellable_20.py", "tests/jobs")  # fmt: skip
"""For a cancel during a draw or a model fit."""
REVIEW_GATE_TESTS = (
    "tests/cli/test_pins_review_gate.py",
    "tests/tasks/test_review.py",
    "tests/cli/test_batch.py",
    "tests/cli/test_batch_refuses_one_failed_review.py",
)
"""For the command line's review before every charge (dpgui/cli/review_gate.py and its two callers)."""
_U = "tests/ui/"
UI_DOMAIN_TESTS = (f"{_U}test_declared_domains.py", f"{_U}test_task_page_extras.py",
                   f"{_U}test_public_sample_twin.py", f"{_U}test_main_window.py")  # fmt: skip
"""For the app's declared domains (dpgui/ui): typed, loaded, or suggested from the PUBLIC sample only."""
UI_FORM_TESTS = (f"{_U}test_parameter_form.py", f"{_U}test_pins_typed_cost_is_charged.py",
                 f"{_U}test_main_window.py", f"{_U}test_declared_domains.py", f"{_U}test_task_page_extras.py",
                 f"{_U}test_session.py", f"{_U}test_review_plots.py")  # fmt: skip
"""For what the Task and Budget pages give the core: the (ε, δ), parameters, columns and labels typed."""
UI_REVIEW_TESTS = (f"{_U}test_review_sheet.py", f"{_U}test_pins_review_before_the_charge.py",
                   f"{_U}test_main_window.py", f"{_U}test_review_composed_off_the_gui_thread.py")  # fmt: skip
"""For the app's review before every charge (dpgui/ui/review_sheet.py and the window's calls)."""
PUBLIC_FILE_TESTS = ("tests/tasks/test_queries_file_pinned.py", "tests/tasks/test_distance.py",
                     "tests/cli/test_distance_refuses_the_private_file_as_queries.py",
                     "tests/cli/test_batch_refuses_the_private_file_as_queries.py",
                     "tests/cli/test_distance_queries_file.py", f"{_U}test_distance_views.py",
                     "tests/tasks/test_public_sample_held_before_the_touch.py")  # fmt: skip
"""For PUBLIC files a run reads (a queries file, the public sample): priced, charged and read with the same
bytes, or refused before the private data is read."""
UI_PLAN_TESTS = (f"{_U}test_plan_view.py", f"{_U}test_redteam_plan_split_for_another_file.py",
                 f"{_U}test_plan_export_outside_the_data.py")  # fmt: skip
"""For the Budget page's release plan: the budget it splits and the split it runs."""
UI_BUDGET_TESTS = (f"{_U}test_budget_page.py", f"{_U}test_pins_budget_shown_is_the_ledgers.py",
                   f"{_U}test_budget_views.py",
                   f"{_U}test_budget_accounting_views.py", f"{_U}test_kept_releases.py",
                   f"{_U}test_budget_composed_at_open.py", f"{_U}test_main_window.py")  # fmt: skip
"""For the budget the app shows: the ledger's account, its reservations, the timeline, a raised total."""
UI_EXPORT_TESTS = (f"{_U}test_export_staging.py", f"{_U}test_review_plots.py",
                   f"{_U}test_plan_export_outside_the_data.py",
                   f"{_U}test_redteam_export_guard_after_switch.py",
                   f"{_U}test_export_off_the_gui_thread.py", f"{_U}test_main_window.py")  # fmt: skip
"""For what the app's Export writes, and where: DP outputs only, never beside the private data."""
UI_CANCEL_TESTS = (f"{_U}test_cancel_and_close.py", f"{_U}test_no_file_opens_under_a_run.py",
                   f"{_U}test_data_page.py", f"{_U}test_main_window.py")  # fmt: skip
"""For a cancel that cancels and no file opened under a run. The UI groups run with QT_QPA_PLATFORM=offscreen
(``_environment``); the slow layout and start-up files (test_app, test_small_screen) are left out."""
DOMAINS_FILE_TESTS = tuple(f"tests/data/test_{name}.py" for name in (
    "domains_file", "domains_file_category_spaces", "domains_file_category_text",
    "domains_file_duplicate_column", "pins_public_and_domains_file"))  # fmt: skip
PROJECT_TESTS = ("tests/release/test_project.py", "tests/release/test_pins_project.py")
SIMULATION_TESTS = ("tests/tasks/test_pins_simulation_rescale.py", "tests/tasks/test_pins_simulation_23.py")
"""For how ``auto`` simulates and ranks (dpgui/tasks/simulation.py): its shapes, rows and mean."""
TABLE_ERROR_TESTS = tuple(f"tests/tasks/test_{name}.py" for name in (
    "table_error", "table_missing", "pins_table_error_cap", "pins_table_23"))  # fmt: skip
"""For the planner's predicted error per marginal of a synthetic table (dpgui/tasks/table_error.py)."""
BUDGET_WORDS_TESTS = ("tests/cli/test_budget_accounting.py", "tests/cli/test_pins_budget_cmd.py",
                      "tests/ui/test_budget_accounting_views.py")  # fmt: skip
"""For how the spent and remaining budget are said (dpgui/privacy/budget_words.py)."""
NUMBERS_TESTS = ("tests/test_numbers.py", "tests/release")
"""For how released values and errors are written (dpgui/numbers.py)."""
CLI_TESTS = ("tests/cli",)
"""For the command line's flags: generated algorithm flags, --public, --delta, the budget command."""
BATCH_RUN_TESTS = ("tests/tasks/test_batch_run_refuses_private_inputs.py", "tests/jobs", "tests/cli")
"""For running a release plan (dpgui/tasks/batch_run.py): the plan run itself, the app's plan job and
``dpgui release batch``."""
PLAIN_WORDS_TESTS = ("tests/tasks/test_plain_words.py", "tests/ui/test_plain_words_ui.py")
"""For the plain-language words of an algorithm or a guarantee (dpgui/tasks/plain_words.py)."""
WORKER_TESTS = (
    "tests/jobs/test_worker.py",
    "tests/jobs/test_pins_worker.py",
    "tests/jobs/test_pins_job_wiring.py",
    "tests/jobs/test_pins_core_jobs_29.py",
)
"""For the worker threads (dpgui/jobs/worker.py, pool_job.py, open_job.py, background.py) and the scan
monitor: progress, cancel, Finish now, the result or the error delivered once."""
DATA_CORE_TESTS = (
    "tests/data/test_dataset.py",
    "tests/data/test_backends.py",
    "tests/data/test_pins_core_data_29.py",
    "tests/cli/test_paths_that_are_not_files.py",
    "tests/cli/test_budget_parquet_folder.py",
)
"""For the loaded dataset, the engine choice and the data errors' words (and which paths they refuse)."""
CLI_CORE_TESTS = (
    "tests/cli/test_cli_robustness.py",
    "tests/cli/test_cli.py",
    "tests/cli/test_release_learning.py",
    "tests/cli/test_release_rectangle.py",
    "tests/cli/test_distance_queries_file.py",
    "tests/cli/test_algorithms_cmd.py",
    "tests/cli/test_pins_core_cli_29.py",
    "tests/privacy/test_ledger_busy.py",
)
"""For the command line's exit codes, argument parsing and the commands that pass a spec to the core."""
PATHS_TESTS = ("tests/test_paths.py",)
"""For where the ledger and settings live (dpgui/paths.py)."""
PROGRESS_TESTS = (
    "tests/algorithms/test_progress.py",
    "tests/algorithms/test_pins_progress_21.py",
    "tests/algorithms/test_pins_progress_29.py",
)
"""For the progress helpers that name, share and drive a run (dpgui/algorithms/progress.py)."""
TIMEOUT_SECONDS = 900
TEST_TIME_LIMIT_SECONDS = 120
"""Per-test limit (tests/conftest.py, DPGUI_TEST_TIME_LIMIT): a mutation that makes the code loop fails the
test it hangs instead of stalling the run; no single unmutated test comes near it."""


@dataclass(frozen=True)
class Mutation:
    """Replace ``old`` (which must occur exactly once in ``path``) by ``new``."""

    name: str
    path: str
    old: str
    new: str
    description: str
    tests: tuple[str, ...] = TEST_DIRS


MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        "em-half-exponent",
        "dpgui/privacy/exponential.py",
        "epsilon * np.asarray(scores, dtype=np.float64) / (2 * sensitivity)",
        "epsilon * np.asarray(scores, dtype=np.float64) / sensitivity",
        "exponential mechanism: exponent eps q / Delta, without its factor 1/2",
    ),
    Mutation(
        "em-piecewise-half-exponent",
        "dpgui/privacy/exponential.py",
        "np.log(self.lengths) + epsilon * self.scores / (2 * sensitivity)",
        "np.log(self.lengths) + epsilon * self.scores / sensitivity",
        "piecewise exponential mechanism: log-weight eps v / Delta, without its factor 1/2",
    ),
    Mutation(
        "choosing-em-full-epsilon",
        "dpgui/privacy/choosing.py",
        "return exponential_mechanism(scores, params.epsilon / 2, rng)",
        "return exponential_mechanism(scores, params.epsilon, rng)",
        "choosing mechanism: exponential mechanism at the full eps instead of eps/2",
    ),
    Mutation(
        "choosing-noise-scale",
        "dpgui/privacy/choosing.py",
        "        return 4 / self.epsilon\n",
        "        return 1 / self.epsilon\n",
        "choosing mechanism: noisy maximum with Lap(1/eps) instead of Lap(4/eps)",
    ),
    Mutation(
        "choosing-threshold",
        "dpgui/privacy/choosing.py",
        "return (8 / self.epsilon) * math.log(4 * self.k / (self.epsilon * delta_discrete))",
        "return (2 / self.epsilon) * math.log(4 * self.k / (self.epsilon * delta_discrete))",
        "choosing mechanism: threshold tau with 2/eps instead of 8/eps",
    ),
    Mutation(
        "distance-far-query-limit",
        "dpgui/algorithms/distance/baselines.py",
        "MAX_QUOTIENT = 2.0**36",
        "MAX_QUOTIENT = 2.0**56",
        "per-query baselines: queries admitted so far out that float rounding moves a sum beyond Delta",
        ("tests/algorithms/distance/test_far_queries_are_refused.py",),
    ),
    Mutation(
        "aim-selection-time-counted",
        "dpgui/algorithms/marginal_table.py",
        "            selecting += clock() - selection_began",
        "            selecting += 0.0 * (clock() - selection_began)",
        "AIM: the exponential mechanism's time, which depends on the private scores, decides the last round",
        ("tests/algorithms/test_marginal_table.py",),
    ),
    Mutation(
        "sv-query-noise",
        "dpgui/privacy/sparse_vector.py",
        "return 4 / self.epsilon_per_round",
        "return 1 / self.epsilon_per_round",
        "sparse vector: query noise Lap(1/eps) instead of Lap(4/eps)",
    ),
    Mutation(
        "sv-threshold-noise",
        "dpgui/privacy/sparse_vector.py",
        "return 2 / self.epsilon_per_round",
        "return 0.5 / self.epsilon_per_round",
        "sparse vector: threshold noise Lap(0.5/eps) instead of Lap(2/eps)",
    ),
    Mutation(
        "sv-rounds-split",
        "dpgui/privacy/sparse_vector.py",
        "return self.epsilon / self.max_above",
        "return self.epsilon",
        "sparse vector: every one of c rounds at the full eps (a forgotten budget split)",
    ),
    Mutation(
        "adist-gap",
        "dpgui/privacy/stability.py",
        "return 2 + max(0, math.ceil(b * math.log(1 / ((1 + r) * self.delta))))",
        "return 1 + max(0, math.ceil(b * math.log(1 / ((1 + r) * self.delta))))",
        "A_dist_safe: threshold with gap 1 instead of 2 (the paper's add/remove gap)",
    ),
    Mutation(
        "adist-noise-scale",
        "dpgui/privacy/stability.py",
        "        return 2 / self.epsilon\n",
        "        return 1 / self.epsilon\n",
        "A_dist_safe: Lap(1/eps) on the gap instead of Lap(2/eps)",
    ),
    Mutation(
        "heavy-bin-replace-one-scale",
        "dpgui/privacy/heavy_bin.py",
        "return (2 if self.replace_one else 1) / self.epsilon",
        "return 1 / self.epsilon",
        "HeavyBin: scale 1/eps under replace-one (two bins move) instead of 2/eps",
    ),
    Mutation(
        "heavy-bin-threshold",
        "dpgui/privacy/heavy_bin.py",
        "return 1 + max(0, math.ceil(b * math.log(1 / ((1 + r) * self.delta))))",
        "return max(0, math.ceil(b * math.log(1 / ((1 + r) * self.delta))))",
        "HeavyBin: threshold one lower (an appearing bin released with probability > delta)",
    ),
    Mutation(
        "heavy-bin-threshold-r",
        "dpgui/privacy/heavy_bin.py",
        "r = math.exp(-1 / b)",
        "r = math.exp(-0.5 / b)",
        "HeavyBin: threshold from r = e^(-1/(2b)) instead of e^(-1/b) (one lower at some (eps, delta): an "
        "appearing bin released with probability up to 1.12 delta)",
    ),
    Mutation(
        "tree-laplace-sensitivity",
        "dpgui/algorithms/tree_cdf.py",
        "return 2 * height / epsilon",
        "return height / epsilon",
        "tree CDF: Laplace scale h/eps (add/remove sensitivity) instead of 2h/eps",
    ),
    Mutation(
        "tree-gaussian-sigma",
        "dpgui/algorithms/tree_cdf.py",
        "return math.sqrt(2 * height / (2 * rho))",
        "return math.sqrt(height / (2 * rho))",
        "tree CDF: Gaussian sigma for L2 sensitivity sqrt(h) instead of sqrt(2h)",
    ),
    Mutation(
        "histogram-sensitivity",
        "dpgui/algorithms/histogram.py",
        "L1_SENSITIVITY = 2\n",
        "L1_SENSITIVITY = 1\n",
        "histogram: L1 sensitivity 1 (add/remove) instead of 2 under replace-one",
    ),
    Mutation(
        "public-assisted-scale",
        "dpgui/algorithms/public_assisted.py",
        "rng.discrete_laplace(noise_scale(epsilon), exact.size)",
        "rng.discrete_laplace(noise_scale(2 * epsilon), exact.size)",
        "public-data-assisted CDF: cell noise for L1 sensitivity 1 instead of 2",
    ),
    Mutation(
        "em-step-half-exponent",
        "dpgui/algorithms/recconcave.py",
        "[np.log(lengths) + epsilon * values.astype(np.float64) / 2 for _, lengths, values in parts]",
        "[np.log(lengths) + epsilon * values.astype(np.float64) for _, lengths, values in parts]",
        "exponential mechanism over a step function (threshold learner, RecConcave): no factor 1/2",
    ),
    Mutation(
        "em-family-mass",
        "dpgui/algorithms/recconcave.py",
        "log_w = np.log(lengths) + epsilon * values.astype(np.float64) / 2",
        "log_w = np.log(lengths) + epsilon * values.astype(np.float64)",
        "threshold learner over both directions: family normalisers without the factor 1/2",
    ),
    Mutation(
        "rank-quantile-score",
        "dpgui/algorithms/rank_scores.py",
        "return -np.maximum(np.maximum(below - target, target - at_or_below), 0.0)",
        "return -2 * np.maximum(np.maximum(below - target, target - at_or_below), 0.0)",
        "quantile rank score: doubled (sensitivity 2) under the exponential mechanism for sensitivity 1",
    ),
    Mutation(
        "gaussian-per-query-sigma",
        "dpgui/algorithms/distance/baselines.py",
        "sensitivity * math.sqrt(queries / (2 * rho))",
        "sensitivity * math.sqrt(1 / (2 * rho))",
        "per-query Gaussian baseline: sigma for one query instead of k (rho not split)",
    ),
    Mutation(
        "per-query-sensitivity-float-half",
        "dpgui/algorithms/distance/baselines.py",
        "    sensitivity = math.ceil(metric.diameter(dims) / resolution - 1e-9) + 1",
        "    sensitivity = math.ceil(metric.diameter(dims) / resolution - 1e-9)",
        "per-query baselines: no step for two distances rounded at a half in floating point",
        ("tests/algorithms/distance",),
    ),
    Mutation(
        "laplace-per-query-scale",
        "dpgui/algorithms/distance/baselines.py",
        "queries * sensitivity / epsilon, False",
        "sensitivity / epsilon, False",
        "per-query Laplace baseline: scale Delta/eps instead of k Delta/eps (eps not split)",
    ),
    Mutation(
        "zcdp-to-approx-dp",
        "dpgui/privacy/cost.py",
        "if zcdp_delta(rho, mid) <= delta:",
        "if zcdp_delta(rho, mid) <= 2 * delta:",
        "zCDP -> (eps, delta): the epsilon at which the CKS delta is 2 delta, not delta",
    ),
    Mutation(
        "huang-roth-test-sensitivity",
        "dpgui/algorithms/distance/huang_roth.py",
        "    delta_test = w / n\n",
        "    delta_test = 1 / n\n",
        "Huang-Roth online: test sensitivity 1/n (the paper's) instead of W/n",
    ),
    Mutation(
        "huang-roth-offline-test-sensitivity",
        "dpgui/algorithms/distance/huang_roth.py",
        "return Calibration(alpha, w, cap, per, 3 * h / 4, 1 / n, eps_a, noise, gaussian, h)",
        "return Calibration(alpha, w, cap, per, 3 * h / 4, 0.5 / n, eps_a, noise, gaussian, h)",
        "Huang-Roth offline: per-coordinate test sensitivity 1/(2n) instead of 1/n",
    ),
    Mutation(
        "huang-roth-update-cost",
        "dpgui/algorithms/distance/huang_roth.py",
        "return 3 * coordinates_per_update / (n * cal.noise)",
        "return 2 * coordinates_per_update / (n * cal.noise)",
        "Huang-Roth: update cost 2/(n b) per coordinate (slope sensitivity 1/n) instead of 3/(n b)",
    ),
    Mutation(
        "huang-roth-zcdp-update-cost",
        "dpgui/algorithms/distance/huang_roth.py",
        "return 5 * coordinates_per_update / (2 * n * n * cal.noise**2)",
        "return 2 * coordinates_per_update / (2 * n * n * cal.noise**2)",
        "Huang-Roth zCDP: update rho 2c / (2 n^2 sigma^2) (slope sensitivity 1/n) instead of 5c / (...)",
    ),
    Mutation(
        "huang-roth-slope-noise",
        "dpgui/algorithms/distance/huang_roth.py",
        "tangent_slope=cal.noise * n,",
        "tangent_slope=cal.noise * n / 2,",
        "Huang-Roth: slope noise at half the calibrated scale",
    ),
    Mutation(
        "label-private-exponent",
        "dpgui/algorithms/learners/label_private.py",
        "hypothesis = em_over_cuts(candidates, values, positives, negatives, size, direction, epsilon, rng)",
        "hypothesis = em_over_cuts(candidates, values, positives, negatives, size, direction, 2 * epsilon, rng)",  # noqa: E501
        "label-private learner: exponential mechanism at 2 eps",
    ),
    Mutation(
        "san-points-laplace",
        "dpgui/algorithms/san_points.py",
        "noise = BatchedLaplace(rng, 1 / plan.mechanism_epsilon, limit=plan.iterations)",
        "noise = BatchedLaplace(rng, 0.5 / plan.mechanism_epsilon, limit=plan.iterations)",
        "SanPoints: count noise Lap(0.5/eps_t) instead of Lap(1/eps_t)",
    ),
    Mutation(
        "san-thresholds-laplace",
        "dpgui/algorithms/san_thresholds.py",
        "noise = BatchedLaplace(rng, 1 / eps, limit=2 * plan.cap)",
        "noise = BatchedLaplace(rng, 0.5 / eps, limit=2 * plan.cap)",
        "SanThresholds: count noise Lap(0.5/eps_t) instead of Lap(1/eps_t)",
    ),
    Mutation(
        "san-thresholds-em",
        "dpgui/algorithms/san_thresholds.py",
        "z = exponential_mechanism(quality, eps, rng)",
        "z = exponential_mechanism(quality, 2 * eps, rng)",
        "SanThresholds: the level-choosing exponential mechanism at 2 eps_t",
    ),
    Mutation(
        "recconcave-split",
        "dpgui/algorithms/recconcave.py",
        "total.epsilon / (3 * (depth - 1) + 1)",
        "total.epsilon / (2 * (depth - 1) + 1)",
        "RecConcave: eps split over 2(L-1)+1 mechanisms, forgetting one A_dist per level",
    ),
    Mutation(
        "recconcave-a-dist-epsilon",
        "dpgui/algorithms/recconcave.py",
        "stable = StableSelectionParameters(eps, params.per_mechanism.delta)",
        "stable = StableSelectionParameters(2 * eps, params.per_mechanism.delta)",
        "RecConcave: A_dist_safe at twice its per-mechanism eps",
    ),
    Mutation(
        "recconcave-level-quality",
        "dpgui/algorithms/recconcave.py",
        "return [min(profile[j] - low, high - profile[j + 1])",
        "return [2 * min(profile[j] - low, high - profile[j + 1])",
        "RecConcave: the level quality q(j) doubled (sensitivity 2 into an EM for sensitivity 1)",
    ),
    Mutation(
        "treelog-split",
        "dpgui/algorithms/treelog.py",
        "eps0 = eps_ar / (depth * (steps + 3) + 1)",
        "eps0 = eps_ar / (depth * (steps + 2) + 1)",
        "TreeLog: eps0 split over N(B + 2) + 1 instead of N(B + 3) + 1 mechanism shares",
    ),
    Mutation(
        "treelog-group-privacy",
        "dpgui/algorithms/treelog.py",
        "        eps_ar = epsilon / 2\n",
        "        eps_ar = epsilon\n",
        "TreeLog: add/remove target at the full eps (no group-privacy halving for replace-one)",
    ),
    Mutation(
        "treelog-path-epsilon",
        "dpgui/algorithms/treelog.py",
        "path_length, path = sample_path(trimmed, bits, t, params.eps0, rng)",
        "path_length, path = sample_path(trimmed, bits, t, 2 * params.eps0, rng)",
        "TreeLog: random path steps at 2 eps0",
    ),
    Mutation(
        "treelog-leaf-em",
        "dpgui/algorithms/treelog.py",
        "min(inner, bits), params.heavy_bin, params.eps0, rng)",
        "min(inner, bits), params.heavy_bin, 2 * params.eps0, rng)",
        "TreeLog: four-leaf exponential mechanism at 2 eps0",
    ),
    Mutation(
        "heavypaths-group-privacy",
        "dpgui/algorithms/heavypaths.py",
        "eps_prime = epsilon / 8",
        "eps_prime = epsilon / 4",
        "HeavyPaths: OneRandomPath at eps/4 add/remove (not halved for replace-one)",
    ),
    Mutation(
        "heavypaths-path-split",
        "dpgui/algorithms/heavypaths.py",
        "eps_path = eps_prime / (steps + 4)",
        "eps_path = eps_prime / (steps + 3)",
        "HeavyPaths: OneRandomPath split over B + 3 instead of B + 4 shares",
    ),
    Mutation(
        "heavypaths-first-level-sensitivity",
        "dpgui/algorithms/heavypaths.py",
        "return HeavyBinParameters(self.epsilon / 4, self.delta_rest / 2, replace_one=True)",
        "return HeavyBinParameters(self.epsilon / 4, self.delta_rest / 2)",
        "HeavyPaths: d_hat = 1 HeavyBin with add/remove noise (sensitivity 1) under replace-one",
    ),
    Mutation(
        "heavypaths-leaf-em",
        "dpgui/algorithms/heavypaths.py",
        "min(int(levels[chosen]), bits), heavy, params.eps_path, rng)",
        "min(int(levels[chosen]), bits), heavy, 2 * params.eps_path, rng)",
        "HeavyPaths: OneRandomPath's four-leaf exponential mechanism at 2 eps_path",
    ),
    Mutation(
        "rectangles-split",
        "dpgui/algorithms/rectangles.py",
        "return 2 * len(self.sizes) + 1",
        "return 2 * len(self.sizes)",
        "rectangles: eps split over 2 n_dim mechanisms, forgetting the noisy positive count",
    ),
    Mutation(
        "rectangles-count-noise",
        "dpgui/algorithms/rectangles.py",
        "rng.discrete_laplace(1 / params.epsilon_each, 1)",
        "rng.discrete_laplace(0.5 / params.epsilon_each, 1)",
        "rectangles: positive-count noise Lap(0.5/eps_m) instead of Lap(1/eps_m)",
    ),
    Mutation(
        "ip-threshold-solver-half",
        "dpgui/algorithms/learners/ip_threshold.py",
        "return self.solver_epsilon / 2",
        "return self.solver_epsilon",
        "IP-threshold learner: solver at its full share (one replaced record moves two records of S)",
    ),
    Mutation(
        "ip-threshold-split",
        "dpgui/algorithms/learners/ip_threshold.py",
        "return self.epsilon - self.count_epsilon",
        "return self.epsilon",
        "IP-threshold learner: solver at the full eps, the count's share not subtracted",
    ),
    Mutation(
        "ip-threshold-count-noise",
        "dpgui/algorithms/learners/ip_threshold.py",
        "rng.discrete_laplace(1 / params.count_epsilon, 1)",
        "rng.discrete_laplace(0.5 / params.count_epsilon, 1)",
        "IP-threshold learner: positive-count noise Lap(0.5/eps1) instead of Lap(1/eps1)",
    ),
    Mutation(
        "zcdp-rho-for",
        "dpgui/privacy/cost.py",
        "lo, hi = (mid, hi) if zcdp_delta(mid, epsilon) <= delta else (lo, mid)",
        "lo, hi = (mid, hi) if zcdp_delta(mid, epsilon) <= 2 * delta else (lo, mid)",
        "zCDP conversion: the rho whose CKS delta is 2 delta; its guard crawls down (per-test time limit)",
    ),
    Mutation(
        "vector-laplace-double-zero",
        "dpgui/privacy/exact_vector.py",
        "keep = ~(negative & (y == 0))",
        "keep = np.ones(candidates.size, dtype=bool)",
        "vectorised discrete Laplace: 0 kept under both signs, so P(0) is doubled",
    ),
    Mutation(
        "vector-bernoulli-without-k",
        "dpgui/privacy/exact_vector.py",
        "success = self.below(b[active] * k) < a[active]",
        "success = self.below(b[active]) < a[active]",
        "vectorised Bernoulli(exp(-gamma)): the trials Bernoulli(gamma / K) lose their 1/K",
    ),
    Mutation(
        "vector-gaussian-acceptance",
        "dpgui/privacy/exact_vector.py",
        "np.full(n, 2 * p * q * t * t, dtype=np.int64)",
        "np.full(n, p * q * t * t, dtype=np.int64)",
        "vectorised discrete Gaussian: acceptance exp(-(.)^2 / sigma^2), a narrower law than the sigma asked",
    ),
    Mutation(
        "privtree-add-remove-scale",
        "dpgui/algorithms/privtree.py",
        "scale = 2 * (2 * FANOUT - 1) / ((FANOUT - 1) * epsilon_tree)",
        "scale = (2 * FANOUT - 1) / ((FANOUT - 1) * epsilon_tree)",
        "PrivTree: split noise for one record's path (add/remove), not the two paths a replacement touches",
    ),
    Mutation(
        "privtree-leaf-share",
        "dpgui/algorithms/privtree.py",
        "histogram, starts, n, (1 - tree_share) * epsilon, rng,",
        "histogram, starts, n, epsilon, rng,",
        "PrivTree: leaf counts at the full eps, the splits' share not subtracted",
    ),
    Mutation(
        "dawa-cost-scale",
        "dpgui/algorithms/dawa.py",
        "return 4 * dyadic_levels(leaves) / epsilon_partition",
        "return 2 * dyadic_levels(leaves) / epsilon_partition",
        "DAWA: cost noise 2 L / eps_1 (one changed cell) instead of 4 L / eps_1 (a replacement moves two)",
    ),
    Mutation(
        "dawa-noise-width",
        "dpgui/algorithms/dawa.py",
        "rng.discrete_laplace(width * scale, int(real.sum()))",
        "rng.discrete_laplace(scale, int(real.sum()))",
        "DAWA: noise on |b| dev(b) at the scale meant for dev(b) (the factor |b| lost)",
    ),
    Mutation(
        "dawa-count-share",
        "dpgui/algorithms/dawa.py",
        "epsilon_counts = (1 - partition_share) * epsilon",
        "epsilon_counts = epsilon",
        "DAWA: bucket counts at the full eps, the partition's share not subtracted",
    ),
    Mutation(
        "joint-exp-sensitivity",
        "dpgui/algorithms/joint_exp.py",
        "SENSITIVITY = 2.0",
        "SENSITIVITY = 1.0",
        "JointExp: utility sensitivity 1 (one gap count) instead of 2 under replace-one",
    ),
    Mutation(
        "joint-exp-half-exponent",
        "dpgui/algorithms/joint_exp.py",
        "scale = epsilon / (2 * SENSITIVITY)",
        "scale = epsilon / SENSITIVITY",
        "JointExp: exponential mechanism without its factor 1/2",
    ),
    Mutation(
        "aq-replace-one-halving",
        "dpgui/algorithms/approximate_quantiles.py",
        "return epsilon / levels, epsilon / (2 * levels)",
        "return epsilon / levels, epsilon / levels",
        "AQ: deeper levels at eps/L (the paper's add/remove count) instead of eps/(2L) under replace-one",
    ),
    Mutation(
        "aq-deeper-sensitivity",
        "dpgui/algorithms/approximate_quantiles.py",
        "eps = deeper / max(p, 1 - p) if is_deeper else root",
        "eps = deeper / min(p, 1 - p) if is_deeper else root",
        "AQ: a deeper split's score sensitivity min(p, 1 - p) instead of max(p, 1 - p)",
    ),
    Mutation(
        "em-each-split",
        "dpgui/algorithms/approximate_quantiles.py",
        "each = epsilon / len(qs)",
        "each = epsilon",
        "IndExp: every one of m quantiles at the full eps (a forgotten budget split)",
    ),
    Mutation(
        "table-l2-sensitivity",
        "dpgui/algorithms/marginal_table.py",
        "L2_SQUARED = 2\n",
        "L2_SQUARED = 1\n",
        "AIM/MST: marginal L2 sensitivity 1 (the papers' add/remove) instead of sqrt(2) under replace-one",
    ),
    Mutation(
        "table-l1-sensitivity",
        "dpgui/algorithms/marginal_table.py",
        "L1_SENSITIVITY = 2\n",
        "L1_SENSITIVITY = 1\n",
        "synthetic tables: marginal L1 sensitivity 1 (add/remove) instead of 2 under replace-one",
    ),
    Mutation(
        "independent-split",
        "dpgui/algorithms/marginal_table.py",
        "    scale = L1_SENSITIVITY * d / epsilon\n",
        "    scale = L1_SENSITIVITY / epsilon\n",
        "independent marginals: every one of d columns at the full eps (a forgotten budget split)",
    ),
    Mutation(
        "selection-epsilon-bounded-range",
        "dpgui/algorithms/marginal_table.py",
        "return math.sqrt(8 * rho)",
        "return math.sqrt(16 * rho)",
        "AIM/MST selection: eps = sqrt(16 rho), twice the eps^2/8 = rho the bounded-range bound allows",
    ),
    Mutation(
        "mst-one-way-split",
        "dpgui/algorithms/marginal_table.py",
        "else rho / 2 / d if d == 2 else rho / 3 / d",
        "else rho / 2 / d if d == 2 else rho / 3",
        "MST: every 1-way marginal at rho/3 (not split over the d columns)",
    ),
    Mutation(
        "mst-edge-measure-split",
        "dpgui/algorithms/marginal_table.py",
        "return rho / 3 / (d - 1), rho / 3 / (d - 1)",
        "return rho / 3 / (d - 1), rho / 3",
        "MST: every tree edge measured at rho/3 (not split over the d - 1 edges)",
    ),
    Mutation(
        "mst-selection-split",
        "dpgui/algorithms/marginal_table.py",
        "return rho / 3 / (d - 1), rho / 3 / (d - 1)",
        "return rho / 3, rho / 3 / (d - 1)",
        "MST: every edge selection at rho/3 (not split over the d - 1 edges)",
    ),
    Mutation(
        "aim-selection-unbooked",
        "dpgui/algorithms/marginal_table.py",
        "used += pick_select + record.cost",
        "used += record.cost",
        "AIM: the selections' rho left out of the running total (rounds go on past the budget)",
    ),
    Mutation(
        "mst-two-columns-one-way",
        "dpgui/algorithms/marginal_table.py",
        "else rho / 2 / d if d == 2 else",
        "else rho / 2 if d == 2 else",
        "MST on two columns: each 1-way marginal at rho/2 (not split over the two columns)",
    ),
    Mutation(
        "mst-two-columns-edge",
        "dpgui/algorithms/marginal_table.py",
        "        return 0.0, rho / 2\n",
        "        return 0.0, rho\n",
        "MST on two columns: the only edge measured at all of rho (beside the 1-way half)",
    ),
    Mutation(
        "aim-one-candidate-share-unmeasured",
        "dpgui/algorithms/marginal_table.py",
        "return int(feasible[0]), 0.0, 0.0, select_rho + measure_rho",
        "return int(feasible[0]), 0.0, 0.0, measure_rho",
        "AIM: a round with one candidate leaves its selection share unspent",
    ),
    Mutation(
        "aim-score-sensitivity",
        "dpgui/algorithms/marginal_table.py",
        "sensitivity = L1_SENSITIVITY * float(weights.max())",
        "sensitivity = float(weights.max())",
        "AIM: selection score sensitivity w_max (the paper's add/remove) instead of 2 w_max",
    ),
    Mutation(
        "distance-cdf-route-split",
        "dpgui/algorithms/distance/cdf_route.py",
        "return PrivacyBudget(self.epsilon / parts,",
        "return PrivacyBudget(self.epsilon,",
        "distance CDF route: every coordinate's tree at the full eps (not split over the c trees)",
    ),
    Mutation(
        "accountant-self-compose",
        "dpgui/privacy/accountant.py",
        "return pld if times == 1 else pld.self_compose(times)",
        "return pld",
        "accountant: k runs of a step composed as one (self-composition forgotten)",
    ),
    Mutation(
        "accountant-zcdp-sum",
        "dpgui/privacy/accountant.py",
        "zcdp_epsilon(math.fsum(rhos), delta)",
        "zcdp_epsilon(max(rhos), delta)",
        "accountant: zCDP releases composed by their largest rho instead of the sum",
    ),
    Mutation(
        "ledger-new-release-alone",
        "dpgui/privacy/ledger.py",
        "after = self._compose([*self._live(bookings), *adding], total).spent",
        "after = self._compose([*adding], total).spent",
        "ledger: a new release checked against the total alone, without what is already spent",
    ),
    Mutation(
        "secure-laplace-scale",
        "dpgui/privacy/random.py",
        'return _opendp_noise("laplace", float(scale), size)',
        'return _opendp_noise("laplace", float(scale) / 2, size)',
        "CSPRNG discrete Laplace (OpenDP path): half the scale asked",
    ),
    Mutation(
        "secure-vector-laplace-scale",
        "dpgui/privacy/random.py",
        "return exact_vector.discrete_laplace(float(scale), size, os_words)",
        "return exact_vector.discrete_laplace(float(scale) / 2, size, os_words)",
        "CSPRNG discrete Laplace (vectorised path): half the scale asked",
    ),
    Mutation(
        "secure-gaussian-sigma",
        "dpgui/privacy/random.py",
        'return _opendp_noise("gaussian", float(sigma), size)',
        'return _opendp_noise("gaussian", float(sigma) / 2, size)',
        "CSPRNG discrete Gaussian (OpenDP path): half the sigma asked",
    ),
    Mutation(
        "tree-curve-rounds",
        "dpgui/tasks/sanitize.py",
        "rounds = NoiseRounds(kind, scale, 1, 2 * shape.height)",
        "rounds = NoiseRounds(kind, scale, 1, shape.height)",
        "tree CDF's booked curve: h noisy answers move (add/remove) instead of 2h under replace-one",
    ),
    Mutation(
        "histogram-curve-rounds",
        "dpgui/tasks/sanitize.py",
        "NoiseRounds(NoiseKind.DISCRETE_LAPLACE, histogram_scale(spec.epsilon), 1, 2)",
        "NoiseRounds(NoiseKind.DISCRETE_LAPLACE, histogram_scale(spec.epsilon), 1, 1)",
        "histogram's booked curve: one cell moves instead of two under replace-one",
    ),
    Mutation(
        "independent-curve-rounds",
        "dpgui/tasks/table.py",
        "NoiseRounds(NoiseKind.DISCRETE_LAPLACE, scale, 1, L1_SENSITIVITY * d)",
        "NoiseRounds(NoiseKind.DISCRETE_LAPLACE, scale, 1, d)",
        "independent marginals' booked curve: d cells move instead of 2d under replace-one",
    ),
    Mutation(
        "curve-gaussian-rho",
        "dpgui/privacy/curve.py",
        "self.count * self.sensitivity**2 / (2 * self.scale**2)",
        "self.count * self.sensitivity**2 / (4 * self.scale**2)",
        "booked curve: Gaussian rounds' rho Delta^2 / (4 sigma^2), half the zCDP they cost",
    ),
    Mutation(
        "curve-laplace-epsilon",
        "dpgui/privacy/curve.py",
        "return round_up(self.count * self.sensitivity / self.scale)",
        "return round_up(self.count * self.sensitivity / (2 * self.scale))",
        "booked curve: Laplace rounds' pure eps Delta / (2 b), half what they cost",
    ),
    Mutation(
        "curve-steps-count-not-written",
        "dpgui/privacy/curve.py",
        '"delta": self.cost.delta, "count": self.count}',
        '"delta": self.cost.delta, "count": 1}',
        "ledger curve JSON: a DpSteps' count written as 1 (a replayed ledger charges m steps as one)",
    ),
    Mutation(
        "curve-steps-count-not-read",
        "dpgui/privacy/curve.py",
        'float(data["delta"])), int(data["count"]))',
        'float(data["delta"])), 1)',
        "ledger curve JSON: a DpSteps' count read as 1 (a replayed ledger charges m steps as one)",
    ),
    Mutation(
        "curve-sensitivity-not-written",
        "dpgui/privacy/curve.py",
        '"sensitivity": self.sensitivity,',
        '"sensitivity": 1.0,',
        "ledger curve JSON: noise rounds' sensitivity written as 1 (a replayed ledger under-charges Delta>1)",
    ),
    Mutation(
        "curve-later-steps-not-written",
        "dpgui/privacy/curve.py",
        'data["steps"] = [step.to_json() for step in self.steps]',
        'data["steps"] = [step.to_json() for step in self.steps[:1]]',
        "ledger curve JSON: only the first kind of steps written (SanThresholds' choosing runs lost)",
    ),
    Mutation(
        "curve-steps-delta-not-read",
        "dpgui/privacy/curve.py",
        'return cls(PrivacyCost(float(data["epsilon"]), float(data["delta"]))',
        'return cls(PrivacyCost(float(data["epsilon"]), 0.0)',
        "ledger curve JSON: a choosing run's delta read as 0 (a replayed ledger charges it as pure)",
    ),
    Mutation(
        "em-each-curve-steps",
        "dpgui/tasks/sanitize.py",
        "PrivacyCurve.pure_steps(spec.epsilon / len(_qs(spec)), len(_qs(spec)))",
        "PrivacyCurve.pure_steps(spec.epsilon / len(_qs(spec)), 1)",
        "IndExp's booked curve: one quantile's step instead of m",
    ),
    Mutation(
        "distance-cdf-route-rho-split",
        "dpgui/algorithms/distance/cdf_route.py",
        "None if self.rho is None else self.rho / parts)",
        "None if self.rho is None else self.rho)",
        "distance CDF route (zCDP): every coordinate's tree at the full rho (not split over the c trees)",
    ),
    Mutation(
        "ledger-hash-unchecked",
        "dpgui/privacy/ledger_store.py",
        "if claimed != record_hash(record):",
        "if not claimed:",
        "ledger file: a line's hash not checked against its contents (an edited amount goes unnoticed)",
    ),
    Mutation(
        "review-delta-above-one-over-n-passes",
        "dpgui/tasks/review.py",
        "            delta < limit,\n",
        "            True,\n",
        "review: a release at δ of 1/n or more (one that may hand out a record) passes its checks",
        ("tests/cli/test_review_refuses_delta_above_one_over_n.py", *REVIEW_GATE_TESTS),
    ),
    Mutation(
        "cli-doubt-not-refused",
        "dpgui/cli/preflight.py",
        "    if check.doubts and not accept_warnings:\n",
        "    if False:\n",
        "CLI: a data check's near-certain mistake (a --positive no cell holds) charged without acceptance",
        ("tests/cli/test_release_learning.py", "tests/cli/test_preflight.py"),
    ),
    Mutation(
        "ledger-touched-line-without-staging",
        "dpgui/privacy/ledger.py",
        "self._append(EventType.TOUCHED, ReservationUpdate(reservation.id, files=files))",
        "self._append(EventType.TOUCHED, ReservationUpdate(reservation.id))",
        "ledger: a run's touched line without where it stages its outputs (a crash leaves them unnamed)",
        ("tests/cli/test_budget_names_files_left_staged.py",),
    ),
    Mutation(
        "ledger-verify-misses-a-commit",
        "dpgui/privacy/ledger.py",
        "        return None if committed else "
        '"the ledger holds no commit of this release: its charge is missing"\n',
        "        return None\n",
        "budget verify: a release whose commit the ledger lacks passes",
        ("tests/cli/test_budget_verify.py",),
    ),
    Mutation(
        "ledger-verify-passes-a-rollback",
        "dpgui/privacy/ledger.py",
        "            line = self._file.hash_at(head.seq)\n",
        "            line = self._file.hash_at(min(head.seq, self._file.head.seq))\n",
        "budget verify: a release after the ledger's last line checked against that line",
        ("tests/cli/test_budget_verify.py",),
    ),
    Mutation(
        "ledger-link-merges-two-budgets",
        "dpgui/privacy/ledger.py",
        "            if own is not None and self._datasets[own.id].bookings:\n",
        "            if False:\n",
        "budget link: a file with releases charged to its own budget joins another dataset's",
        ("tests/privacy/test_look_alikes.py",),
    ),
    Mutation(
        "look-alikes-by-column-order",
        "dpgui/privacy/look_alikes.py",
        "        if theirs is not None and set(theirs) == wanted:\n",
        "        if theirs == names:\n",
        "look-alikes: a copy with its columns in another order is not named",
        ("tests/privacy/test_look_alikes.py",),
    ),
    Mutation(
        "gui-look-alike-linked-on-no",
        "dpgui/ui/main_window.py",
        "        if answer == QMessageBox.StandardButton.No:\n            return False\n",
        "",
        "app: a file that holds other people (No) is linked to the look-alike's budget anyway",
        ("tests/ui/test_look_alike_question.py",),
    ),
    Mutation(
        "cells-boolean-filed-under-one",
        "dpgui/data/loaders.py",
        "    if values.dtype != object or not any(_may_hide_a_boolean(value) for value in uniques):\n",
        "    if True:\n",
        "cells: a workbook's TRUE and 1 read as whichever of them comes first (one record moves every count)",
        ("tests/data/test_booleans_beside_numbers.py",),
    ),
    Mutation(
        "aim-constant-column-offered",
        "dpgui/algorithms/marginal_table.py",
        "    return int(np.count_nonzero(noisy >= RARE_SIGMAS * sigma)) <= 1\n",
        "    return int(np.count_nonzero(noisy >= RARE_SIGMAS * sigma)) < 1\n",
        "AIM: pairs with a column holding one value offered (rounds spent on a marginal already measured)",
        ("tests/algorithms/test_marginal_table.py",),
    ),
    Mutation(
        "ledger-abandoned-after-touch",
        "dpgui/privacy/ledger.py",
        "                    self._foreign_untouched.discard(update.reservation_id)\n",
        "",
        "ledger: a dead process's reservation refunded although its run had read the private data",
    ),
    Mutation(
        "ledger-live-owner-gone",
        "dpgui/privacy/ledger_owner.py",
        "    except Timeout:\n        return False\n",
        "    except Timeout:\n        return True\n",
        "ledger: a reservation of a process still running refunded from outside (its lock taken for gone)",
    ),
    Mutation(
        "ledger-refund-after-touch",
        "dpgui/privacy/ledger.py",
        "if self._open_booking(reservation).touched:",
        "if not self._open_booking(reservation):",
        "ledger: a run that read the private data can still be refunded",
    ),
    Mutation(
        "point-learner-stable-double-eps",
        "dpgui/algorithms/learners/points.py",
        "StableSelectionParameters(epsilon, delta), rng)",
        "StableSelectionParameters(2 * epsilon, delta), rng)",
        "point learner: A_dist_safe run at 2 eps",
    ),
    Mutation(
        "hashing-learner-double-eps",
        "dpgui/algorithms/learners/points.py",
        "exponential_mechanism(bucket_scores(values, positives, negatives, rows), epsilon, rng)",
        "exponential_mechanism(bucket_scores(values, positives, negatives, rows), 2 * epsilon, rng)",
        "hashing point learner: the bucket's exponential mechanism at 2 eps",
    ),
    Mutation(
        "em-threshold-cut-double-eps",
        "dpgui/algorithms/learners/thresholds.py",
        "cut = exponential_mechanism_step(qualities[family], epsilon, rng)",
        "cut = exponential_mechanism_step(qualities[family], 2 * epsilon, rng)",
        "threshold learner: the cut within a family drawn at 2 eps",
    ),
    Mutation(
        "em-threshold-family-double-eps",
        "dpgui/algorithms/learners/thresholds.py",
        "gumbel_max(np.array([log_mass(q, epsilon) for q in qualities]), rng)",
        "gumbel_max(np.array([log_mass(q, 2 * epsilon) for q in qualities]), rng)",
        "threshold learner (direction auto): the family drawn by its mass at 2 eps",
    ),
    Mutation(
        "em-over-cuts-double-eps",
        "dpgui/algorithms/learners/thresholds.py",
        "chosen = exponential_mechanism(np.concatenate(scores), epsilon, rng)",
        "chosen = exponential_mechanism(np.concatenate(scores), 2 * epsilon, rng)",
        "threshold learner over candidate cuts: exponential mechanism at 2 eps",
    ),
    Mutation(
        "public-em-double-eps",
        "dpgui/algorithms/learners/public_assisted.py",
        "em_over_cuts(public_grid, values, positives, negatives, size, direction, epsilon, rng)",
        "em_over_cuts(public_grid, values, positives, negatives, size, direction, 2 * epsilon, rng)",
        "public-assisted threshold learner: exponential mechanism at 2 eps",
    ),
    Mutation(
        "median-task-double-eps",
        "dpgui/tasks/median.py",
        "em_quantile(values, counts, spec.domain.size, 0.5, spec.epsilon, rng)",
        "em_quantile(values, counts, spec.domain.size, 0.5, 2 * spec.epsilon, rng)",
        "median task: the exponential mechanism run at 2 eps while eps is charged",
    ),
    Mutation(
        "interior-point-task-double-eps",
        "dpgui/tasks/median.py",
        "em_interior_point(values, counts, spec.domain.size, spec.epsilon, rng)",
        "em_interior_point(values, counts, spec.domain.size, 2 * spec.epsilon, rng)",
        "interior-point task: the exponential mechanism run at 2 eps while eps is charged",
    ),
    Mutation(
        "em-quantile-double-eps",
        "dpgui/algorithms/quantiles.py",
        "em_over_ranks(values, counts, domain_size, score, epsilon, rng)",
        "em_over_ranks(values, counts, domain_size, score, 2 * epsilon, rng)",
        "one quantile by the exponential mechanism at 2 eps",
    ),
    Mutation(
        "em-interior-point-double-eps",
        "dpgui/algorithms/interior_point.py",
        "em_over_ranks(values, counts, domain_size, score, epsilon, rng)",
        "em_over_ranks(values, counts, domain_size, score, 2 * epsilon, rng)",
        "interior point by the exponential mechanism at 2 eps",
    ),
    Mutation(
        "batched-laplace-half-scale",
        "dpgui/privacy/noise_batch.py",
        "self._rng.discrete_laplace(self._scale, size)",
        "self._rng.discrete_laplace(self._scale / 2, size)",
        "batched discrete Laplace (the point and threshold sanitizers' counts): half the scale asked",
    ),
    Mutation(
        "bucket-cdf-double-eps",
        "dpgui/algorithms/bucket_cdf.py",
        "run = tree_cdf(bucket_counts, n, epsilon, rng, branching=branching)",
        "run = tree_cdf(bucket_counts, n, 2 * epsilon, rng, branching=branching)",
        "bucket CDF (PrivTree's and DAWA's second stage): the bucket tree at 2 eps",
    ),
    Mutation(
        "bourgain-not-normalised",
        "dpgui/algorithms/distance/embeddings.py",
        "return out.reshape(len(points), -1) / self.dimension",
        "return out.reshape(len(points), -1)",
        "Bourgain embedding: coordinates not divided by the dimension, so not 1-sensitive",
    ),
    Mutation(
        "projection-not-scaled",
        "dpgui/algorithms/distance/embeddings.py",
        "return cls(gauss / (target_dimension * math.sqrt(2 / math.pi)), public_seed)",
        "return cls(gauss / math.sqrt(2 / math.pi), public_seed)",
        "random projection: rows not divided by the target dimension, so not 1-sensitive",
    ),
    Mutation(
        "aim-clock-before-counting",
        "dpgui/algorithms/marginal_table.py",
        """    true = dict(zip(closure, marginals(closure), strict=True))
    started = clock()  # after the data is read: see the docstring""",
        """    started = clock()  # after the data is read: see the docstring
    true = dict(zip(closure, marginals(closure), strict=True))""",
        "AIM's time limit: the clock starts before the marginals are counted, so the number of rounds "
        "depends on how long reading the private data took (a timing channel, not a DP output)",
    ),
    Mutation(
        "aim-last-round-spends-rho",
        "dpgui/algorithms/marginal_table.py",
        "share = remaining / picks",
        "share = rho / picks",
        "AIM: the last round (capped or ended by the time limit) spends the whole rho, not what is left",
    ),
    Mutation(
        "run-touch-unrecorded",
        "dpgui/tasks/runner.py",
        "    on_touch()\n",
        "    pass\n",
        "runner: the run reads the private data without recording it, so a run cancelled or failed after "
        "reading is refunded",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "fingerprint-raw-hash",
        "dpgui/data/fingerprint.py",
        "return hmac.new(key or installation_key(), bytes.fromhex(sha256_hex), hashlib.sha256).hexdigest()",
        "return sha256_hex",
        "exports carry the private file's raw SHA-256 (a noiseless function of every record) instead of "
        "the installation's keyed fingerprint",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "public-sample-twin-accepted",
        "dpgui/tasks/runner.py",
        "if public is not None and public.sha256 == record.sha256:",
        "if False:",
        "runner: the private file accepted as the public sample (its raw SHA-256 exported, PAP's cells "
        "cut at private values)",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "queries-not-pinned",
        "dpgui/tasks/public_files.py",
        "    return dataclasses.replace(spec, pinned_files=pins)",
        "    return spec",
        "runner: a queries file is not pinned when the run is priced (a rewritten file is answered, or its "
        "private twin accepted)",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "queries-changed-run-reads-data",
        "dpgui/tasks/runner.py",
        "    refuse_changed_files(prepared.spec)  # so is a queries file changed since the run was priced\n",
        "",
        "runner: a queries file changed after the charge is found only once the run has read the data "
        "(charged for nothing)",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "queries-changed-reserved",
        "dpgui/tasks/runner.py",
        "    refuse_changed_files(prepared.spec)\n    refuse_private_inputs(prepared, record)",
        "    refuse_private_inputs(prepared, record)",
        "runner: a release whose queries file changed since it was priced is charged",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "queries-changed-plan-reserved",
        "dpgui/tasks/batch_run.py",
        "        refuse_changed_files(run.prepared.spec, PLAN_PRICED_AGAIN)"
        "  # charged as it was priced, or not at all\n",
        "",
        "plan: a release whose queries file changed since the plan was priced is charged with the plan",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "queries-read-unpinned",
        "dpgui/tasks/distance.py",
        "    if pinned is not None and sha256 != pinned:",
        "    if False:",
        "distance: a run answers the queries file as it is now, not as it was priced (k rounds recorded, "
        "k' run)",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "queries-change-swallowed",
        "dpgui/tasks/distance.py",
        "    except PublicFileChanged:\n        raise\n",
        "",
        "distance: a pinned queries file that changed reads as no file (the run fails on an assertion)",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "queries-changed-while-read",
        "dpgui/tasks/distance.py",
        "    if current_sha256(path) != sha256:\n        raise changed_file_error(path)\n",
        "",
        "distance: rows read after a rewrite are cached under the bytes hashed before it",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "public-sample-read-after-touch",
        "dpgui/tasks/public_files.py",
        "    if spec.public is not None:\n        _ = spec.public.frame\n",
        "",
        "runner: a public sample gone from its pinned bytes is found after the run read the data "
        "(charged for nothing)",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "queries-twin-accepted",
        "dpgui/tasks/runner.py",
        "        if sha256 == record.sha256:",
        "if False:",
        "runner: the private file accepted as a distance release's public queries file (its rows exported)",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "out-holding-data-accepted",
        "dpgui/release/staging.py",
        "    if data.is_relative_to(folder):",
        "    if False:",
        "staging: a release folder that holds the private file accepted (handed out with the data)",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "out-inside-data-accepted",
        "dpgui/release/staging.py",
        "    if data.is_dir() and folder.is_relative_to(data):",
        "    if False:",
        "staging: a release folder inside a folder of private data accepted (its files read as data)",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "manifest-always-private",
        "dpgui/release/manifest.py",
        '"private": release.private,',
        '"private": True,',
        "manifest: a release made with seeded (not private) randomness is stated as private",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "distance-curve-one-query",
        "dpgui/tasks/distance.py",
        "noise.sensitivity, _query_count(spec))",
        "noise.sensitivity, 1)",
        "distance release, per-query Laplace: the booked curve holds one query's noise, not all k",
    ),
    Mutation(
        "distance-curve-half-rho",
        "dpgui/tasks/distance.py",
        "PrivacyCurve(rho=rho)",
        "PrivacyCurve(rho=rho / 2)",
        "distance release with delta > 0: the booked curve holds half the zCDP rho the noise spends",
    ),
    Mutation(
        "san-thresholds-curve-counts",
        "dpgui/tasks/sanitize_papers.py",
        "1 / plan.mechanism_epsilon, 1, 2 * plan.cap)",
        "1 / plan.mechanism_epsilon, 1, plan.cap)",
        "threshold sanitizer (Lemma 4.8): the booked curve holds one count per call, not two",
    ),
    Mutation(
        "san-thresholds-curve-em",
        "dpgui/tasks/sanitize_papers.py",
        "exponential = DpSteps(PrivacyCost(plan.mechanism_epsilon), plan.cap)",
        "exponential = DpSteps(PrivacyCost(plan.mechanism_epsilon), 1)",
        "threshold sanitizer: the booked curve holds one exponential mechanism, not one per call",
    ),
    Mutation(
        "san-points-curve-counts",
        "dpgui/tasks/sanitize_papers.py",
        "1 / plan.mechanism_epsilon, 1, plan.iterations)",
        "1 / plan.mechanism_epsilon, 1, 1)",
        "point sanitizer (Thm 4.6): the booked curve holds one count, not one per iteration",
    ),
    Mutation(
        "decimal-comma-ignored",
        "dpgui/data/text_format.py",
        'return POINT if self.delimiter == "," else POINT_OR_COMMA',
        "return POINT",
        "text files: a semicolon file's decimal commas (12,5) are not read as numbers, so each such cell is "
        "refused",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "decimal-comma-read-by-one-mark",
        "dpgui/data/domain.py",
        "    for mark in marks:\n        if _NUMBER_TEXT[mark].fullmatch(stripped):",
        "    for mark in marks[:1]:\n        if _NUMBER_TEXT[mark].fullmatch(stripped):",
        "text files: a cell's comma no longer read as its decimal mark (1,3 stays text, and so outside the "
        "declared 1.3)",
        ("tests/data/test_category_of_a_cell_is_its_own.py",),
    ),
    Mutation(
        "jax-caches-kept-past-the-map-cap",
        "dpgui/algorithms/pgm.py",
        "    jax.clear_caches()\n    return True",
        "    return True",
        "AIM on a wide table: JAX's compiled programs are never dropped, so the process passes Linux's cap "
        "on memory mappings and crashes after its charge",
    ),
    Mutation(
        "aim-time-limit-default-none",
        "dpgui/tasks/table.py",
        "    AIM_SECONDS,",
        "    0.0,",
        "AIM without a time_limit parameter (the app, batch plans) runs unbounded: a 25-column table ran for "
        "over 15 minutes",
    ),
    Mutation(
        "synthetic-draw-last-cell",
        "dpgui/algorithms/pgm.py",
        'np.searchsorted(cdf[sorted_keys[start]], u[group], side="left")',
        'np.searchsorted(cdf[sorted_keys[start]], u[group], side="left") + 1',
        "synthetic rows: every drawn cell is the next one up (a shifted sampler)",
    ),
    Mutation(
        "some-deltas-subtracted",
        "dpgui/privacy/cost.py",
        "composed.delta + approximate_runs * delta_each",
        "composed.delta - approximate_runs * delta_each",
        "SanPoints / SanThresholds accounting: the approximate runs' deltas subtracted from the slack",
    ),
    Mutation(
        "composed-delta-capped-at-half",
        "dpgui/privacy/cost.py",
        "return PrivacyCost(eps, min(delta, math.nextafter(1.0, 0.0)))",
        "return PrivacyCost(eps, min(delta, math.nextafter(0.5, 0.0)))",
        "basic composition reports at most delta 1/2, whatever the deltas sum to",
    ),
    Mutation(
        "noise-bound-past-i64",
        "dpgui/privacy/random.py",
        "NOISE_BOUND = 2**62\n",
        "NOISE_BOUND = 2**124\n",
        "noise bound past the 64-bit integers, so accepted scales let draws saturate at 2^63 - 1",
    ),
    Mutation(
        "noise-scale-cap-at-the-bound",
        "dpgui/privacy/random.py",
        "MAX_NOISE_SCALE = NOISE_BOUND / 64",
        "MAX_NOISE_SCALE = NOISE_BOUND",
        "scales up to the noise bound accepted: a draw saturates with probability about e^-1",
    ),
    Mutation(
        "privtree-share-over-epsilon",
        "dpgui/algorithms/privtree.py",
        "PrivTreeParameters.for_epsilon(tree_share * epsilon)",
        "PrivTreeParameters.for_epsilon(tree_share / epsilon)",
        "PrivTree: the splits at tree_share / eps (the same at eps = 1, about twice the share at eps = 0.5)",
    ),
    Mutation(
        "zcdp-delta-alpha-plus-one",
        "dpgui/privacy/cost.py",
        "alpha * math.log1p(-1 / alpha) - math.log(alpha - 1)",
        "alpha * math.log1p(-1 / alpha) - math.log(alpha + 1)",
        "zCDP to (eps, delta): CKS's 1 / (alpha - 1) as 1 / (alpha + 1), so every Gaussian gets too much rho",
    ),
    Mutation(
        "pure-release-rho-quartered",
        "dpgui/privacy/accountant.py",
        "return round_up(self.cost.epsilon**2 / 2)",
        "return round_up(self.cost.epsilon**2 / 4)",
        "accountant: a pure release's zCDP bound eps^2 / 4, which undercharges many pure releases",
    ),
    Mutation(
        "mixed-delta-split-overspent",
        "dpgui/privacy/accountant.py",
        "zcdp_epsilon(rho, (1 - share) * delta)",
        "zcdp_epsilon(rho, (2 - share) * delta)",
        "accountant: a PLD part and a zCDP part given more than the dataset's delta together",
    ),
    Mutation(
        "choosing-threshold-k-divided",
        "dpgui/privacy/choosing.py",
        "math.log(4 * self.k / (self.epsilon * delta_discrete))",
        "math.log(4 / self.k / (self.epsilon * delta_discrete))",
        "choosing mechanism: threshold with ln(4 / k ...) instead of ln(4 k ...), too low for growth k > 1",
    ),
    Mutation(
        "privtree-floor",
        "dpgui/algorithms/privtree.py",
        "params.theta - params.delta)",
        "params.theta - 2 * params.delta)",
        "PrivTree: biased counts clamped at theta - 2 delta instead of Alg. 2's theta - delta (a paper "
        "departure: a path costs up to 3.6/lambda, beyond Thm 3.2's 3/lambda)",
    ),
    Mutation(
        "privtree-half-bias",
        "dpgui/algorithms/privtree.py",
        "- depth * params.delta, params.theta - params.delta)",
        "- depth * params.delta / 2, params.theta - params.delta)",
        "PrivTree: half the bias per level, so a deep path's privacy loss no longer sums to 3 / lambda",
    ),
    Mutation(
        "aim-task-double-rho",
        "dpgui/tasks/table.py",
        "    n, rho = data.count(), zcdp_rho_for(_approx_cost(spec))\n    rounds = int(",
        "    n, rho = data.count(), 2 * zcdp_rho_for(_approx_cost(spec))\n    rounds = int(",
        "synthetic table: AIM runs at twice the rho the ledger books for it",
    ),
    Mutation(
        "independent-curve-eps-times",
        "dpgui/tasks/table.py",
        "    scale = L1_SENSITIVITY * d / spec.epsilon\n",
        "    scale = L1_SENSITIVITY * d * spec.epsilon\n",
        "independent marginals: the booked curve's scale 2d eps instead of 2d / eps (equal only at eps = 1)",
    ),
    Mutation(
        "ledger-prev-link-unchecked",
        "dpgui/privacy/ledger_store.py",
        '        if record.get("prev") != self._last_hash:\n',
        "        if False:\n",
        "ledger file: the prev link not checked (an edit that recomputes its own line's hash goes unnoticed)",
    ),
    Mutation(
        "ledger-head-fork-unchecked",
        "dpgui/privacy/ledger_store.py",
        "        if recorded.seq == ours.seq and recorded.hash != ours.hash:\n",
        "        if False:\n",
        "ledger file: a used ledger replaced by a fresh one of the same length (budget reset) goes unnoticed",
    ),
    Mutation(
        "ledger-second-outcome",
        "dpgui/privacy/ledger.py",
        "                    if booking.outcome is not None:\n",
        "                    if False:\n",
        "ledger: a refund line after a commit gives the budget back (over-spend)",
    ),
    Mutation(
        "ledger-line-not-fsynced",
        "dpgui/privacy/ledger_store.py",
        "            f.flush()\n            os.fsync(f.fileno())\n        if created:",
        "            f.flush()\n        if created:",
        "ledger file: a charge's line is not fsynced, so a power loss can lose it",
    ),
    Mutation(
        "ledger-plan-checks-first-only",
        "dpgui/privacy/ledger.py",
        "counted = [r for r in requests if r.account in _counted(account)]",
        "counted = [r for r in requests if r.account in _counted(account)][:1]",
        "ledger: a release plan checked by its first release alone, so the rest of the plan overspends",
    ),
    Mutation(
        "public-sample-unchecked",
        "dpgui/data/public.py",
        "    if dataset.sha256 != sha256:\n",
        "    if False:\n",
        "a public sample changed since it was chosen is used: bounds from another file",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "embedded-check-reads-nothing",
        "dpgui/data/checks.py",
        "        aggregator.scan(wanted, checker.add)  # with the engine's progress and cancel\n",
        "        pass\n",
        "the out-of-core pre-charge check reads no row: a bad file is refused only after the charge",
        SURFACE_TEST_DIRS,
    ),
    Mutation(
        "planner-pure-floor-validity",
        "dpgui/planner/bounds.py",
        "        if combined >= 0.5:\n",
        "        if combined >= 1:\n",
        "planner: the A9 floor also taken where err + d' - err d' >= 1/2, outside its validity (too high)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "planner-pure-floor-minus-one",
        "dpgui/planner/bounds.py",
        "inside = (2**p - 1) * (1 - beta)",
        "inside = 2**p * (1 - beta)",
        "planner: the A9 floor with 2^P instead of 2^P - 1 (a floor above the proven one)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "planner-pure-floor-log2",
        "dpgui/planner/bounds.py",
        "best = max(best, math.log(inside) / epsilon)",
        "best = max(best, math.log2(inside) / epsilon)",
        "planner: the A9 floor with log2 instead of ln (a floor above the proven one)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "planner-sanitizer-floor-three",
        "dpgui/planner/bounds.py",
        "/ (3 * epsilon * error)",
        "/ (epsilon * error)",
        "planner: Lemma 4.15's sanitizer floor without its 3 in 3 eps a (three times the proven floor)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "planner-ehkv-vc-off-by-one",
        "dpgui/planner/bounds.py",
        "(vc - 1) / (32 * error)",
        "vc / (32 * error)",
        "planner: EHKV'89's floor with VC/(32 err) instead of (VC - 1)/(32 err) (above the proven floor)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "planner-two-target-mass",
        "dpgui/planner/bounds.py",
        "math.log(1 / (1 - 2 * error))",
        "math.log(1 / (1 - error))",
        "planner: the two-concept floor with mass err on x0 instead of 2 err (twice the proven floor)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "planner-ehkv-beta-range",
        "dpgui/planner/bounds.py",
        "EHKV_MAX_BETA = 1 / 100\n",
        "EHKV_MAX_BETA = 1 / 10\n",
        "planner: EHKV'89 applied up to beta 1/10, outside its stated range beta <= 1/100",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "planner-log-star-one-more",
        "dpgui/planner/bounds.py",
        "    while x > 1:\n",
        "    while x >= 1:\n",
        "planner: log* stops at x < 1 instead of x <= 1 (one more on every grid)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "floors-threshold-ldim-rounded-up",
        "dpgui/planner/floors.py",
        "    return max(points, 1).bit_length() - 1\n",
        "    return max(points, 1).bit_length()\n",
        "floors: thresholds' Littlestone dimension one too high (the A9 floor for a class it is not)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "floors-public-half",
        "dpgui/planner/floors.py",
        "                1 / (2 * alpha),\n",
        "                1 / alpha,\n",
        "floors: public records 1/a instead of paper 001 Thm 15's 1/(2a)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "floors-default-accuracy",
        "dpgui/planner/floors.py",
        "DEFAULT_ACCURACY = 0.05\n",
        "DEFAULT_ACCURACY = 0.1\n",
        "floors: default accuracy 0.1 instead of the documented 0.05",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "floors-default-beta",
        "dpgui/planner/floors.py",
        'beta = float(spec.parameter("beta", 0.05))',
        'beta = float(spec.parameter("beta", 0.1))',
        "floors: default beta 0.1 instead of the documented 0.05",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "plan-min-n-one-short",
        "dpgui/planner/plan.py",
        "(middle, high)\n    return high\n\n\ndef epsilon_for",
        "(middle, high)\n    return low\n\n\ndef epsilon_for",
        "planner: min n is the largest n that does not fit instead of the least that does",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "plan-needs-delta-inverted",
        "dpgui/planner/plan.py",
        "needs_delta = spec.delta == 0 and not cost.is_pure",
        "needs_delta = spec.delta == 0 and cost.is_pure",
        "planner: at delta = 0 an approximate-DP algorithm's row is feasible (and pure ones are not)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "plan-pure-from-cost-only",
        "dpgui/planner/plan.py",
        "pure=cost.is_pure and info.guarantee_for(concrete) is Guarantee.PURE,",
        "pure=cost.is_pure,",
        "planner: a row called pure whenever its cost has delta 0, even for a zCDP guarantee",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "plan-epsilon-search-inverted",
        "dpgui/planner/plan.py",
        "        low, high = (low, middle) if fits(middle) else (middle, high)\n",
        "        low, high = (middle, high) if fits(middle) else (low, middle)\n",
        "planner: the epsilon search moves the wrong end (epsilon for a target is not the least that fits)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "tie-breaking-rounds-back",
        "dpgui/algorithms/tie_breaking.py",
        "return QuantilesRelease(release.qs, tuple(int(np.uint64(i) // k) for i in release.indices))",
        "return QuantilesRelease(release.qs, tuple(int((np.uint64(i) + k // np.uint64(2)) // k) for i in "
        "release.indices))",
        "tie breaking: a refined index mapped back to the nearest grid point instead of its block (i // K)",
        TIE_BREAKING_TESTS,
    ),
    Mutation(
        "tie-breaking-offset-past-block",
        "dpgui/algorithms/tie_breaking.py",
        "rng.uniform_ints(k, n)",
        "rng.uniform_ints(k + 1, n)",
        "tie breaking: offsets uniform on [0, K] instead of [0, K), so a record can land in the next block",
        TIE_BREAKING_TESTS,
    ),
    Mutation(
        "tie-breaking-k-is-bits",
        "dpgui/algorithms/tie_breaking.py",
        "    return 1 << max(0, min(REFINEMENT_BITS, room))\n",
        "    return max(1, min(REFINEMENT_BITS, room))\n",
        "tie breaking: K = 20 (the refinement's bits) instead of 2^20 finer points per grid point",
        TIE_BREAKING_TESTS,
    ),
    Mutation(
        "tie-breaking-room-rounded-down",
        "dpgui/algorithms/tie_breaking.py",
        "room = MAX_REFINED_BITS - (max(domain_size, 2) - 1).bit_length()",
        "room = MAX_REFINED_BITS - max(domain_size, 2).bit_length() + 1",
        "tie breaking: the room under 2^62 counts the grid's bits rounded down (refined indices past 2^62)",
        TIE_BREAKING_TESTS,
    ),
    Mutation(
        "tie-breaking-bound-on-the-coarse-grid",
        "dpgui/algorithms/tie_breaking.py",
        "    return domain_size * refinement(domain_size)\n",
        "    return domain_size\n",
        "tie breaking: the error bounds count the declared grid (ln N) instead of the refined one (ln N K)",
        TIE_BREAKING_TESTS,
    ),
    Mutation(
        "tie-breaking-partials-not-mapped",
        "dpgui/algorithms/tie_breaking.py",
        "coarse = tuple(int(np.uint64(i) // k) for i in partial.indices)",
        "coarse = tuple(int(i) for i in partial.indices)",
        "tie breaking: a live plot's partial quantiles left on the refined grid",
        TIE_BREAKING_TESTS,
    ),
    Mutation(
        "synthetic-draw-side-right",
        "dpgui/algorithms/synthetic.py",
        'np.searchsorted(cdf, uniforms, side="left")',
        'np.searchsorted(cdf, uniforms, side="right")',
        "synthetic records: a uniform equal to a CDF value drawn one grid point up",
        SYNTHETIC_TESTS,
    ),
    Mutation(
        "em-interior-point-min-n-rank-constant",
        "dpgui/algorithms/interior_point.py",
        "math.ceil(2 + (4 / epsilon) * math.log(domain_size / beta))",
        "math.ceil(2 + (2 / epsilon) * math.log(domain_size / beta))",
        "interior point: min n with 2/eps (the rank error's constant) instead of spec 002 s3.1's 4/eps",
        STATED_BOUND_TESTS,
    ),
    Mutation(
        "em-interior-point-min-n-off-by-one",
        "dpgui/algorithms/interior_point.py",
        "math.ceil(2 + (4 / epsilon)",
        "math.ceil(1 + (4 / epsilon)",
        "interior point: min n 1 + (4/eps) ln(|X|/beta) instead of spec 002 s3.1's 2 + ...",
        STATED_BOUND_TESTS,
    ),
    Mutation(
        "histogram-bound-add-remove-scale",
        "dpgui/algorithms/histogram.py",
        "    scale = histogram_scale(epsilon)\n    r = math.exp",
        "    scale = 1 / epsilon\n    r = math.exp",
        "histogram error bound: at the noise scale 1/eps (add/remove) instead of the 2/eps the release draws",
        STATED_BOUND_TESTS,
    ),
    Mutation(
        "distance-normalise-by-upper",
        "dpgui/tasks/distance.py",
        "    return (points - lower) / (upper - lower)\n",
        "    return (points - lower) / upper\n",
        "distance release: columns normalised by their upper bound, not their width (a record beyond the "
        "unit box, past the sensitivity)",
        DISTANCE_TASK_TESTS,
    ),
    Mutation(
        "distance-query-count-off-by-one",
        "dpgui/tasks/distance.py",
        "return len(queries) if queries is not None else",
        "return len(queries) - 1 if queries is not None else",
        "distance release: k one less than the queries file's rows (the per-query budget split k - 1 ways)",
        DISTANCE_TASK_TESTS,
    ),
    Mutation(
        "distance-budget-double-delta",
        "dpgui/tasks/distance.py",
        "zcdp_rho_for(PrivacyCost(spec.epsilon, spec.delta))",
        "zcdp_rho_for(PrivacyCost(spec.epsilon, 2 * spec.delta))",
        "distance release: the zCDP rho for (eps, 2 delta) instead of the asked (eps, delta)",
        DISTANCE_TASK_TESTS,
    ),
    # Session 27 (h27e): the mechanisms' and algorithms' constants, formulas and boundaries.
    Mutation(
        "tree-padding-node-exact",
        "dpgui/algorithms/tree_cdf.py",
        "return np.arange(shape.padded_leaves // width) * width < shape.leaves",
        "return (np.arange(shape.padded_leaves // width) + 1) * width <= shape.leaves",
        "tree CDF: a node partly in the padding taken for padding (released as an exact 0: its records lost)",
        TREE_TESTS,
    ),
    Mutation(
        "tree-decomposition-nodes",
        "dpgui/algorithms/tree_cdf.py",
        "return ((self.branching - 1) * (self.height - 1) + self.root_children) // 2",
        "return ((self.branching - 1) * (self.height - 2) + self.root_children) // 2",
        "tree CDF error bound: D(b) from h - 2 levels instead of h - 1 (a prefix's nodes undercounted)",
        TREE_TESTS,
    ),
    Mutation(
        "tree-laplace-variance-proxy",
        "dpgui/algorithms/tree_cdf.py",
        "return 2 * scale * scale if noise is TreeNoise.LAPLACE else scale * scale",
        "return scale * scale",
        "tree CDF error bound: Laplace variance proxy s^2 instead of 2 s^2",
        TREE_TESTS,
    ),
    Mutation(
        "tree-bound-one-sided-union",
        "dpgui/algorithms/tree_cdf.py",
        "target = math.log(2 * (leaves - 1) / beta)",
        "target = math.log((leaves - 1) / beta)",
        "tree CDF error bound: union bound with one tail per prefix (ln((N-1)/beta) for ln(2(N-1)/beta))",
        TREE_TESTS,
    ),
    Mutation(
        "tree-bound-laplace-tail",
        "dpgui/algorithms/tree_cdf.py",
        "u = math.sqrt(8 * target) if target <= 1 else math.sqrt(2) * (target + 1)",
        "u = math.sqrt(8 * target) if target <= 1 else math.sqrt(2) * target",
        "tree CDF error bound: Laplace tail u = sqrt(2) ln(...) without its + 1 (Chan-Shi-Song Lemma 2.8)",
        TREE_TESTS,
    ),
    Mutation(
        "tree-no-isotonic",
        "dpgui/algorithms/tree_cdf.py",
        "cdf = np.clip(isotonic_increasing(np.cumsum(parent[:leaves]) / denominator), 0.0, 1.0)",
        "cdf = np.clip(np.cumsum(parent[:leaves]) / denominator, 0.0, 1.0)",
        "tree CDF: the isotonic regression dropped (a released CDF that can decrease)",
        TREE_TESTS,
    ),
    Mutation(
        "tree-consistency-weight-swapped",
        "dpgui/algorithms/tree_cdf.py",
        "weight * observed[level] + (1 - weight) * child_sum",
        "(1 - weight) * observed[level] + weight * child_sum",
        "tree CDF: consistency weights swapped (a node's own count weighted by the other estimate's "
        "variance)",
        TREE_TESTS,
    ),
    Mutation(
        "tree-consistency-equal-share",
        "dpgui/algorithms/tree_cdf.py",
        "share = np.divide(v, total_v, out=np.full_like(v, 1.0 / group), where=total_v > 0)",
        "share = np.full_like(v, 1.0 / group)",
        "tree CDF: a parent's residual split equally among its children (padding zeros included)",
        TREE_TESTS,
    ),
    Mutation(
        "tree-bound-gaussian-tail",
        "dpgui/algorithms/tree_cdf.py",
        "t = scale * math.sqrt(2 * nodes * target)",
        "t = scale * math.sqrt(nodes * target)",
        "tree CDF error bound: Gaussian tail sigma sqrt(D ln(...)) without its factor 2",
        TREE_TESTS,
    ),
    Mutation(
        "histogram-bound-off-by-one",
        "dpgui/algorithms/histogram.py",
        "    return k - 1\n",
        "    return k - 2\n",
        "histogram error bound: k - 2 for the least k - 1 that the union bound allows",
        STATED_BOUND_TESTS,
    ),
    Mutation(
        "aq-levels-off-by-one",
        "dpgui/algorithms/approximate_quantiles.py",
        "return max(1, math.ceil(math.log2(m + 1)))",
        "return max(1, math.ceil(math.log2(m)))",
        "AQ: recursion depth ceil(log2 m) for ceil(log2(m + 1)) (two quantiles: one level booked, two run)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "aq-left-keeps-ties",
        "dpgui/algorithms/approximate_quantiles.py",
        "stack.append((lo, v, start, below, originals[:middle], left))",
        "stack.append((lo, v, start, above, originals[:middle], left))",
        "AQ: the records equal to the split point kept in the left sub-problem too (in two sub-problems)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "aq-left-not-renormalised",
        "dpgui/algorithms/approximate_quantiles.py",
        "left = tuple(q / p for q in local[:middle])  # p > q_1 >= 0",
        "left = tuple(local[:middle])  # p > q_1 >= 0",
        "AQ: the left sub-problem's targets not renormalised by p",
        QUANTILE_TESTS,
    ),
    Mutation(
        "aq-path-error-half",
        "dpgui/algorithms/approximate_quantiles.py",
        "path = above + 2 / eps",
        "path = above + 1 / eps",
        "AQ rank error bound: each mechanism's error (1/eps) ln(...) for (2/eps) ln(...)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "aq-rank-error-no-union",
        "dpgui/algorithms/approximate_quantiles.py",
        "math.log(domain_size * len(plan) / beta)",
        "math.log(domain_size / beta)",
        "AQ rank error bound: no union bound over the m mechanisms",
        QUANTILE_TESTS,
    ),
    Mutation(
        "em-each-rank-error-no-union",
        "dpgui/algorithms/approximate_quantiles.py",
        "em_quantile_rank_error(domain_size, epsilon / m, beta / m)",
        "em_quantile_rank_error(domain_size, epsilon / m, beta)",
        "IndExp rank error bound: beta for each of the m quantiles instead of beta/m",
        QUANTILE_TESTS,
    ),
    Mutation(
        "em-quantile-rank-error-half",
        "dpgui/algorithms/quantiles.py",
        "return (2 / epsilon) * math.log(domain_size / beta)",
        "return (1 / epsilon) * math.log(domain_size / beta)",
        "EM quantile rank error bound: (1/eps) ln(|X|/beta) for (2/eps) ln(|X|/beta) (Lemma 2.2)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "quantile-target-n-plus-one",
        "dpgui/algorithms/rank_scores.py",
        "    target = q * n\n",
        "    target = q * (n + 1)\n",
        "quantile score: target rank q (n + 1) instead of q n",
        QUANTILE_TESTS,
    ),
    Mutation(
        "interior-score-strict-below",
        "dpgui/algorithms/rank_scores.py",
        "return np.minimum(at_or_below, n - below).astype(np.float64)",
        "return np.minimum(below, n - below).astype(np.float64)",
        "interior point score: min(#{x < y}, #{x >= y}) for min(#{x <= y}, #{x >= y}) (the minimum scores 0)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "em-piecewise-no-length",
        "dpgui/privacy/exponential.py",
        "return np.log(self.lengths) + epsilon * self.scores / (2 * sensitivity)",
        "return epsilon * self.scores / (2 * sensitivity)",
        "piecewise exponential mechanism: a piece's weight without its length (not the EM over the domain)",
        MECHANISM_TESTS,
    ),
    Mutation(
        "em-piecewise-uniform-off-by-one",
        "dpgui/privacy/exponential.py",
        "point=start + rng.randbelow(end - start + 1)",
        "point=start + rng.randbelow(max(end - start, 1))",
        "piecewise exponential mechanism: a piece's last point never drawn",
        MECHANISM_TESTS,
    ),
    Mutation(
        "joint-exp-first-no-length",
        "dpgui/algorithms/joint_exp.py",
        "fresh[0] = log_lengths - scale * np.abs(below - gaps[0])",
        "fresh[0] = -scale * np.abs(below - gaps[0])",
        "JointExp: the first quantile's piece not weighted by its length",
        QUANTILE_TESTS,
    ),
    Mutation(
        "joint-exp-same-piece-fresh",
        "dpgui/algorithms/joint_exp.py",
        "earlier = np.tri(k_count, k=-1, dtype=bool).T",
        "earlier = np.tri(k_count, k=0, dtype=bool).T",
        "JointExp: a fresh run may start in the previous output's piece (tuples counted twice)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "joint-exp-multiset-universe",
        "dpgui/algorithms/joint_exp.py",
        "universe = length + size - 1",
        "universe = length + size",
        "JointExp: a run's multiset drawn from L + r points instead of L + r - 1 (outputs past the piece)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "joint-exp-last-gap-dropped",
        "dpgui/algorithms/joint_exp.py",
        "final = _runs(fresh, stay, run_gain, m) - scale * np.abs(n - below - gaps[m])[:, None]",
        "final = _runs(fresh, stay, run_gain, m)",
        "JointExp: the last gap's term (n - c(o_m) against (1 - q_m) n) left out of the utility",
        QUANTILE_TESTS,
    ),
    Mutation(
        "bucket-expand-off-by-one",
        "dpgui/algorithms/bucket_cdf.py",
        "position = np.arange(leaves) - starts[bucket] + 1",
        "position = np.arange(leaves) - starts[bucket]",
        "bucket CDF: uniform expansion off by one (a bucket's last point short of the bucket's CDF)",
        TREE_TESTS,
    ),
    Mutation(
        "pap-dkw-one-sided",
        "dpgui/algorithms/public_assisted.py",
        "return math.sqrt(math.log(2 / beta) / (2 * max(n, 1)))",
        "return math.sqrt(math.log(1 / beta) / (2 * max(n, 1)))",
        "public-data-assisted CDF bound: DKW with ln(1/beta) for the two-sided ln(2/beta)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "pap-beta-halves",
        "dpgui/algorithms/public_assisted.py",
        "    third = beta / 3\n    total =",
        "    third = beta / 2\n    total =",
        "public-data-assisted CDF bound: beta split in three halves (3 beta/2 in total)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "pap-histogram-tail",
        "dpgui/algorithms/public_assisted.py",
        "* math.sqrt(8 * log_term) / max(n, 1)",
        "* math.sqrt(2 * log_term) / max(n, 1)",
        "public-data-assisted CDF bound: histogram prefix tail sqrt(2 ln) for sqrt(8 ln) (Chan-Shi-Song 2.9)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "pap-no-monotone-fix",
        "dpgui/algorithms/public_assisted.py",
        "boundary = monotone_fix(np.concatenate(",
        "boundary = (np.concatenate(",
        "public-data-assisted CDF: the monotone fix dropped (a CDF that can decrease or leave [0, 1])",
        SANITIZER_TESTS,
    ),
    Mutation(
        "pap-cover-gap-union",
        "dpgui/algorithms/public_assisted.py",
        "(beta / (2 * (m + 1))) ** (1 / m)",
        "(beta / (m + 1)) ** (1 / m)",
        "public-data-assisted CDF bound: cover gap at beta/(m+1) for beta/(2(m+1))",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-points-epsilon-for-i",
        "dpgui/algorithms/san_points.py",
        "advanced_per_mechanism_epsilon(epsilon, 2 * iterations, slack)",
        "advanced_per_mechanism_epsilon(epsilon, iterations, slack)",
        "SanPoints: per-mechanism eps for I mechanisms where 2I run (I choosing runs and I counts)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-points-delta-not-split",
        "dpgui/algorithms/san_points.py",
        "mechanism_delta=2 * delta / (5 * iterations) * ROUNDING_GUARD",
        "mechanism_delta=2 * delta / 5 * ROUNDING_GUARD",
        "SanPoints: each choosing run at delta_t = 2 delta/5, not 2 delta/(5I) (the deltas sum past delta)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-points-slack-full-delta",
        "dpgui/algorithms/san_points.py",
        "slack = delta / 5 * ROUNDING_GUARD",
        "slack = delta * ROUNDING_GUARD",
        "SanPoints: advanced composition's delta' = delta, not delta/5 (the deltas sum to 1.4 delta)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-points-beta-share",
        "dpgui/algorithms/san_points.py",
        "share = beta / (2 * self.iterations)",
        "share = beta / self.iterations",
        "SanPoints bound: beta/I per event where 2I events share beta",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-points-laplace-tail",
        "dpgui/algorithms/san_points.py",
        "laplace = math.log(2 / share) / self.mechanism_epsilon",
        "laplace = math.log(1 / share) / self.mechanism_epsilon",
        "SanPoints bound: the count noise's tail ln(1/share)/eps for the two-sided ln(2/share)/eps",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-points-value-released-twice",
        "dpgui/algorithms/san_points.py",
        "available[index] = False",
        "available[index] = True",
        "SanPoints: a released value stays a candidate (q_R not zeroed: the heaviest value released again)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-points-guarantee-alpha",
        "dpgui/algorithms/san_points.py",
        "return alpha * m / 2 >= max(s1, s2)",
        "return alpha * m >= max(s1, s2)",
        "SanPoints: Thm 4.6's condition alpha m >= max(s1, s2) for alpha m / 2",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-thresholds-mechanisms-per-call",
        "dpgui/algorithms/san_thresholds.py",
        "MECHANISMS_PER_CALL = 4\n",
        "MECHANISMS_PER_CALL = 3\n",
        "SanThresholds: 3 mechanisms booked per call where 4 run (two counts, the EM, the choosing run)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-thresholds-delta-split",
        "dpgui/algorithms/san_thresholds.py",
        "mechanism_delta = delta / (5 * cap) * ROUNDING_GUARD",
        "mechanism_delta = delta / cap * ROUNDING_GUARD",
        "SanThresholds: delta/c per choosing run, not delta/(5c) (with delta' = c delta_t: 2 delta in all)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-thresholds-beta-share",
        "dpgui/algorithms/san_thresholds.py",
        "beta_m = beta / (3 * self.cap)",
        "beta_m = beta / self.cap",
        "SanThresholds bound: beta/c per event where 3c events share beta",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-thresholds-right-overlap",
        "dpgui/algorithms/san_thresholds.py",
        "stack.append((b + 1, last))",
        "stack.append((b, last))",
        "SanThresholds: the right range starts at the released point (its records counted twice)",
        SANITIZER_TESTS,
    ),
    Mutation(
        "san-thresholds-cdf-left",
        "dpgui/algorithms/san_thresholds.py",
        'position = np.searchsorted(points, np.asarray(grid, dtype=np.uint64), side="right")',
        'position = np.searchsorted(points, np.asarray(grid, dtype=np.uint64), side="left")',
        "SanThresholds: F(v) without the weight released at v itself",
        SANITIZER_TESTS,
    ),
    Mutation(
        "rectangles-margin-off-by-one",
        "dpgui/algorithms/rectangles.py",
        "return math.floor(self.rank_error(size)) + 1",
        "return math.floor(self.rank_error(size))",
        "rectangle learner: margin k = floor(r) for floor(r) + 1 (an edge may pass every positive)",
        LEARNER_TESTS,
    ),
    Mutation(
        "rectangles-count-tail",
        "dpgui/algorithms/rectangles.py",
        "return math.log(2 * self.mechanisms / self.beta) / self.epsilon_each",
        "return math.log(self.mechanisms / self.beta) / self.epsilon_each",
        "rectangle learner: the count noise's tail ln(M/beta)/eps_m for the two-sided ln(2M/beta)/eps_m",
        LEARNER_TESTS,
    ),
    Mutation(
        "finite-class-error-constant",
        "dpgui/algorithms/learners/thresholds.py",
        "return max(8, 4 / epsilon) * math.log(2 * hypotheses / beta) / n",
        "return max(8, 2 / epsilon) * math.log(2 * hypotheses / beta) / n",
        "EM learner error rate: max(8, 2/eps) for max(8, 4/eps)",
        LEARNER_TESTS,
    ),
    Mutation(
        "threshold-quality-no-negatives",
        "dpgui/algorithms/learners/thresholds.py",
        "scores = (pos_below[-1] - pos_below) + neg_below",
        "scores = pos_below[-1] - pos_below",
        "threshold quality (ge): the negatives left of the cut not counted as correct",
        LEARNER_TESTS,
    ),
    Mutation(
        "le-cut-candidates-at-point",
        "dpgui/algorithms/learners/thresholds.py",
        "shift = 0 if direction is Direction.GE else 1",
        "shift = 0",
        "threshold candidates (le): cut at each point instead of just after it (the point itself left out)",
        LEARNER_TESTS,
    ),
    Mutation(
        "threshold-hypothesis-count",
        "dpgui/algorithms/learners/thresholds.py",
        "return (size + 1) * len(direction.families)",
        "return size * len(direction.families)",
        "threshold learner: |C| = size per family instead of size + 1 cuts",
        LEARNER_TESTS,
    ),
    Mutation(
        "label-private-min-n-large-eps",
        "dpgui/algorithms/learners/label_private.py",
        "(8 / (alpha * min(epsilon, 1.0)))",
        "(8 / (alpha * epsilon))",
        "label-private learner: minimum size with 8/(alpha eps) for 8/(alpha min(eps, 1)) "
        "(too small for eps > 1)",
        LEARNER_TESTS,
    ),
    Mutation(
        "points-no-absent-representative",
        "dpgui/algorithms/learners/points.py",
        "elif len(points) < size:",
        "elif len(points) < size - 1:",
        "LearnPoints: no representative of the absent points when exactly one is absent (a lone point "
        "released without the A_dist test)",
        LEARNER_TESTS,
    ),
    Mutation(
        "hash-bits-constant",
        "dpgui/algorithms/learners/points.py",
        "return math.ceil(math.log2(16 / (error * failure)))",
        "return math.ceil(math.log2(4 / (error * failure)))",
        "hashing learner: k = ceil(log2(4/(err fail))) for log2(16/(err fail)) (collisions above "
        "(err/4)(fail/4))",
        LEARNER_TESTS,
    ),
    Mutation(
        "ip-threshold-step-delta",
        "dpgui/algorithms/learners/ip_threshold.py",
        "return self.delta / (1 + math.exp(self.step_epsilon))",
        "return self.delta / 2",
        "IP threshold learner: TreeLog at delta/2 for delta/(1 + e^(eps/2)) (group privacy over two "
        "substitutions then exceeds delta)",
        LEARNER_TESTS,
    ),
    Mutation(
        "ip-threshold-positive-cut",
        "dpgui/algorithms/learners/ip_threshold.py",
        "return np.where(values < last, values + np.uint64(1), last)",
        "return np.where(values < last, values, last)",
        "IP threshold learner: a positive at v enters as cut v, not v + 1 (the cut that classifies it)",
        LEARNER_TESTS,
    ),
    Mutation(
        "ip-threshold-smallest-positives",
        "dpgui/algorithms/learners/ip_threshold.py",
        "_take(values[::-1], positives[::-1], k)",
        "_take(values, positives, k)",
        "IP threshold learner: S takes the k smallest positives, not the k largest (next to the cut)",
        LEARNER_TESTS,
    ),
    Mutation(
        "ip-threshold-error-margin",
        "dpgui/algorithms/learners/ip_threshold.py",
        "(2 * self.k + 2 * self.count_margin)",
        "(2 * self.k + self.count_margin)",
        "IP threshold learner: error rate (2k + c)/n for (2k + 2c)/n",
        LEARNER_TESTS,
    ),
    Mutation(
        "l2-diameter-one",
        "dpgui/algorithms/distance/embeddings.py",
        "            return math.sqrt(dims)\n",
        "            return 1.0\n",
        "distance: l2 diameter 1 for sqrt(l) on the unit box (rounded sums past the sensitivity)",
        DISTANCE_ALGORITHM_TESTS,
    ),
    Mutation(
        "baseline-bound-per-query-beta",
        "dpgui/algorithms/distance/baselines.py",
        "per_query = beta / max(queries, 1)",
        "per_query = beta",
        "per-query baselines' bound: beta for each of k queries instead of beta/k",
        DISTANCE_ALGORITHM_TESTS,
    ),
    Mutation(
        "baseline-bound-gaussian-tail",
        "dpgui/algorithms/distance/baselines.py",
        "tail = noise.scale * math.sqrt(2 * math.log(2 / per_query))",
        "tail = noise.scale * math.sqrt(math.log(2 / per_query))",
        "per-query Gaussian baseline's bound: sigma sqrt(ln(2/b)) for sigma sqrt(2 ln(2/b))",
        DISTANCE_ALGORITHM_TESTS,
    ),
    Mutation(
        "cdf-route-queries-union",
        "dpgui/algorithms/distance/cdf_route.py",
        "math.log(2 * max(queries, 1) / beta)",
        "math.log(2 / beta)",
        "CDF route's predicted error: no union bound over the queries",
        DISTANCE_ALGORITHM_TESTS,
    ),
    Mutation(
        "adist-success-gap-paper-scale",
        "dpgui/privacy/stability.py",
        "return self.threshold + self.noise_scale * math.log(1 / (2 * beta))",
        "return self.threshold + (1 / self.epsilon) * math.log(1 / (2 * beta))",
        "A_dist_safe: the gap for success at the paper's scale 1/eps, not the 2/eps the noise has",
        MECHANISM_TESTS,
    ),
    Mutation(
        "sv-accuracy-constant",
        "dpgui/privacy/sparse_vector.py",
        "return (8 / self.epsilon_per_round) * math.log(",
        "return (4 / self.epsilon_per_round) * math.log(",
        "sparse vector: accuracy (4/eps) ln(2m/beta) for (8/eps) ln(2m/beta)",
        MECHANISM_TESTS,
    ),
    Mutation(
        "sv-accuracy-no-round-union",
        "dpgui/privacy/sparse_vector.py",
        "math.log(2 * queries * self.max_above / beta)",
        "math.log(2 * queries / beta)",
        "sparse vector: accuracy without the union bound over the c rounds",
        MECHANISM_TESTS,
    ),
    Mutation(
        "heavy-bin-true-argmax",
        "dpgui/privacy/heavy_bin.py",
        "np.argmax(np.where(kept, noisy, np.iinfo(np.int64).min))",
        "np.argmax(np.where(kept, counts, np.iinfo(np.int64).min))",
        "HeavyBin: the kept bin with the largest TRUE count released, not the largest noisy count",
        MECHANISM_TESTS,
    ),
    Mutation(
        "heavy-bin-required-count",
        "dpgui/privacy/heavy_bin.py",
        "return max(self.threshold + a, 1 + 2 * a)",
        "return max(self.threshold, 1 + 2 * a)",
        "HeavyBin: OPT >= tau said to suffice where the noise may pull it below tau (needs tau + a)",
        MECHANISM_TESTS,
    ),
    Mutation(
        "batched-laplace-reused",
        "dpgui/privacy/noise_batch.py",
        "        self._next += 1\n",
        "        self._next += 0\n",
        "batched Laplace: the same draw handed out for every count",
        MECHANISM_TESTS,
    ),
    Mutation(
        "median-task-error-double-eps",
        "dpgui/tasks/median.py",
        "em_quantile_rank_error(spec.domain.size, spec.epsilon, _beta(spec)) / max(n, 1)",
        "em_quantile_rank_error(spec.domain.size, 2 * spec.epsilon, _beta(spec)) / max(n, 1)",
        "median task: the predicted rank error at 2 eps",
        TASK_TESTS,
    ),
    Mutation(
        "tree-curve-gaussian-rho",
        "dpgui/tasks/sanitize.py",
        "scale = noise_scale(noise, shape.height, spec.epsilon, _rho(spec) if gaussian else None)",
        "scale = noise_scale(noise, shape.height, spec.epsilon, 2 * _rho(spec) if gaussian else None)",
        "Gaussian tree task: its privacy curve booked at the sigma of 2 rho (smaller than the release draws)",
        TASK_TESTS,
    ),
    Mutation(
        "aggregate-histogram-short",
        "dpgui/data/aggregate.py",
        "return np.bincount(indices, minlength=domain.size).astype(np.int64)",
        "return np.bincount(indices, minlength=domain.size - 1).astype(np.int64)",
        "in-memory histogram one cell short when nobody sits at the last grid point",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "aggregate-kept-missing-in-last-cell",
        "dpgui/data/aggregate.py",
        "        indices[mask] = domain.size\n",
        "        indices[mask] = domain.size - 1\n",
        "synthetic table's marginals: a kept missing cell counted at the last grid point or category",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "aggregate-category-counts-without-other",
        "dpgui/data/aggregate.py",
        "return np.bincount(codes, minlength=domain.size).astype(np.int64)",
        "return np.bincount(codes, minlength=len(domain.categories)).astype(np.int64)",
        "in-memory category counts without the 'other' cell when no row is undeclared",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "aggregate-labels-swapped",
        "dpgui/data/aggregate.py",
        "        return values, positives, counts - positives\n",
        "        return values, counts - positives, positives\n",
        "in-memory labelled counts: positive and negative counts swapped",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "aggregate-marginal-wrong-columns",
        "dpgui/data/aggregate.py",
        "cells = np.ravel_multi_index(tuple(indices[i] for i in clique), shape)",
        "cells = np.ravel_multi_index(tuple(indices[i] for i in range(len(clique))), shape)",
        "marginals: a clique's counts read from the first columns of the table, not the clique's",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-size-whole-off-by-one",
        "dpgui/data/domain.py",
        "return max(1, (int(self.upper) - int(self.lower)) // int(self.granularity) + points)",
        "return max(1, (int(self.upper) - int(self.lower)) // int(self.granularity) + points - 1)",
        "whole-number grid: one grid point short (the upper bound lost)",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-size-no-tolerance",
        "dpgui/data/domain.py",
        "        return max(1, math.floor(steps + _TOLERANCE) + points)\n",
        "        return max(1, math.floor(steps) + points)\n",
        "decimal grid: granularity rounding drops the last point ([0, 0.3] by 0.1 has 3 points, not 4)",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-snap-up-no-tolerance",
        "dpgui/data/domain.py",
        "            steps -= _TOLERANCE\n",
        "",
        "CDF grid: a value on a grid point (up to float error) snapped up to the next point",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-no-lower-clip",
        "dpgui/data/domain.py",
        "steps = np.maximum(x, lower)  # np.maximum",
        "steps = x.copy()  # np.maximum",
        "grid: values below the lower bound not clipped to it",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-snap-floor",
        "dpgui/data/domain.py",
        "            _round_half_up(steps)\n",
        "            np.floor(steps, out=steps)\n",
        "grid: a value snapped down to the grid point below, not to the nearest",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-ties-down",
        "dpgui/data/domain.py",
        '    np.greater_equal(steps, 0.5, out=steps, casting="unsafe")\n',
        '    np.greater(steps, 0.5, out=steps, casting="unsafe")\n',
        "grid: a value halfway between two grid points snapped down, not up",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-top-past-grid",
        "dpgui/data/domain.py",
        "        top = self.size - 1\n",
        "        top = self.size\n",
        "grid: a value above the last grid point mapped one index past the grid",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-index-check-past-grid",
        "dpgui/data/domain.py",
        "if checked.size and checked.max() > np.uint64(self.size - 1):",
        "if checked.size and checked.max() > np.uint64(self.size):",
        "grid: index size (one past the last point) accepted and turned into a value beyond the bound",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-value-of-past-grid",
        "dpgui/data/domain.py",
        "if not 0 <= index < self.size:",
        "if not 0 <= index <= self.size:",
        "grid: value_of accepts the index one past the last grid point",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-suggest-crosses-zero",
        "dpgui/data/domain.py",
        "    if low >= 0:\n",
        "    if low > 0:\n",
        "suggested domain: a non-negative sample starting at 0 gets a negative lower bound",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-default-whole-boundary",
        "dpgui/data/domain.py",
        "if whole and DEFAULT_MIN_WHOLE_POINTS - 1 <= upper - lower <= DEFAULT_INTEGER_SPAN:",
        "if whole and DEFAULT_MIN_WHOLE_POINTS - 1 < upper - lower <= DEFAULT_INTEGER_SPAN:",
        "default granularity: bounds holding exactly 1,000 whole numbers not given granularity 1",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-binned-at-lower-edge",
        "dpgui/data/domain.py",
        "(checked.astype(np.float64) + 0.5) * float(self.granularity)",
        "checked.astype(np.float64) * float(self.granularity)",
        "a synthetic table's bins released at their lower edges, not their middles",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domains-file-bins-as-points",
        "dpgui/data/domains_file.py",
        "            binned=True,",
        "            binned=False,",
        "DOMAINS.json: m bins read as the m + 1 points from lower to upper",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-bins-off-by-one",
        "dpgui/data/domain.py",
        "return NumericDomain(lower, upper, (upper - lower) / bins, unit=unit, binned=binned)",
        "return NumericDomain(lower, upper, (upper - lower) / (bins + 1), unit=unit, binned=binned)",
        "declared bins: B bins give B + 1 intervals",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-undeclared-as-last-category",
        "dpgui/data/domain.py",
        "return len(self.categories) if self.other else -1",
        "return len(self.categories) - 1 if self.other else -1",
        "categories: an undeclared or missing cell counted in the last declared category, not 'other'",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-ambiguous-leading-zeros",
        "dpgui/data/domain.py",
        "            if readings.count(reading) == 1:\n",
        "            if readings.count(reading) >= 1:\n",
        "categories: a number two declared codes read as ('07', '007') matched to the first of them",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "domain-cell-text-float",
        "dpgui/data/domain.py",
        "        return str(int(value))\n",
        "        return str(value)\n",
        "categories: a code 3 read as 3.0 no longer matches the declared '3'",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "missing-fill-upper",
        "dpgui/data/missing.py",
        "return float(domain.lower if self.fill_value is None else self.fill_value)",
        "return float(domain.upper if self.fill_value is None else self.fill_value)",
        "missing values replaced by the upper bound while the manifest says the lower bound",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "missing-describe-wrong-bound",
        "dpgui/data/missing.py",
        'replacement = f"{_number(domain.lower)} (the declared lower bound)"',
        'replacement = f"{_number(domain.upper)} (the declared lower bound)"',
        "manifest and report: the missing values' replacement quoted as the upper bound",
        SURFACE_DATA_TEST_DIRS,
    ),
    Mutation(
        "missing-kept-cell-not-counted",
        "dpgui/data/missing.py",
        "return int(domain.size) + missing.extra_cells",
        "return int(domain.size)",
        "synthetic table: no 'missing' cell in a column's marginal under KEEP",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "validation-infinity-accepted",
        "dpgui/data/validation.py",
        "return (np.isnan(parsed) & raw.notna().to_numpy()) | np.isinf(parsed)",
        "return np.isnan(parsed) & raw.notna().to_numpy()",
        "an infinite cell clipped to a bound instead of refused",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "validation-missing-label-positive",
        "dpgui/data/validation.py",
        "return np.array([*truth, False], dtype=bool)[codes]",
        "return np.array([*truth, True], dtype=bool)[codes]",
        "labels: a missing label counted as positive",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "validation-positive-whole-float",
        "dpgui/data/validation.py",
        "return frozenset({typed, canonical_text(typed, POINT_OR_COMMA)})",
        "return frozenset({typed})",
        "labels: --positive 1.0 no longer names the cells a CSV's 1.0 reads as ('1')",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "loaders-excel-drops-incomplete-rows",
        "dpgui/data/loaders.py",
        "    filled = np.flatnonzero(frame.notna().to_numpy().any(axis=1))",
        "    filled = np.flatnonzero(frame.notna().to_numpy().all(axis=1))",
        "Excel: the table cut at its last complete row (n changes with the data), not its last filled one",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "loaders-merged-range-overlap-lost",
        "dpgui/data/loaders.py",
        "            tail = text[-_OVERLAP:]",
        "            tail = b''",
        "Excel: a merged range cut by a chunk boundary of the sheet's XML is missed",
        ("tests/data/test_loaders.py",),
    ),
    Mutation(
        "loaders-merged-cells-unchecked",
        "dpgui/data/loaders.py",
        "            _refuse_merged_cells(frame, workbook.book.worksheets[0], path)\n",
        "",
        "Excel: merged cells over records read as missing values and imputed",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "loaders-chunked-typing",
        "dpgui/data/loaders.py",
        "        low_memory=False,\n",
        "",
        "CSV: each internal chunk typed on its own ('007' read as 7 in some chunks only)",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "embedded-merge-loses-first",
        "dpgui/data/backends/embedded.py",
        "starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])",
        "starts = np.flatnonzero(np.r_[False, values[1:] != values[:-1]])",
        "embedded engine, grids over 2^26 points: the smallest distinct value merged away",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "embedded-row-numbers-unshifted",
        "dpgui/data/backends/embedded.py",
        'lambda m: f"{file_name}, row {int(m.group(1)) + offset}"',
        'lambda m: f"{file_name}, row {int(m.group(1))}"',
        "embedded engine: a refused cell in a later batch named by its row in the batch, not in the file",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "embedded-labels-swapped",
        "dpgui/data/backends/embedded.py",
        "    return values, positives, counts - positives\n",
        "    return values, counts - positives, positives\n",
        "embedded and Spark engines: positive and negative label counts swapped",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "embedded-category-counts-without-other",
        "dpgui/data/backends/embedded.py",
        "domain.to_indices(frame[column], file_name=self._source.name), minlength=domain.size",
        "domain.to_indices(frame[column], file_name=self._source.name), minlength=domain.size - 1",
        "embedded engine: category counts one cell short when the last category is empty",
        DATA_TEST_DIRS,
    ),
    Mutation(
        "spark-labels-inverted",
        "dpgui/data/backends/spark.py",
        'positive_rows = counts["k1"].to_numpy(bool)',
        'positive_rows = ~counts["k1"].to_numpy(bool)',
        "Spark engine: labelled counts take the negative rows for the positive ones",
        SPARK_TESTS,
    ),
    Mutation(
        "spark-marginal-first-missing",
        "dpgui/data/backends/spark.py",
        "keys = [self._cell_index(columns[j], domains[j], missings[j]) for j in clique]",
        "keys = [self._cell_index(columns[j], domains[j], missings[0]) for j in clique]",
        "Spark engine: every column of a marginal under the first column's missing-value policy",
        SPARK_TESTS,
    ),
    Mutation(
        "export-parquet-columns-sorted",
        "dpgui/release/export.py",
        "frame = pd.DataFrame(rows, columns=[escaped(str(column)) for column in table.columns])",
        "frame = pd.DataFrame(rows, columns=[escaped(str(column)) for column in sorted(table.columns)])",
        "export: release.parquet's column names in alphabetical order over the values' columns",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "export-parquet-two-rows",
        "dpgui/release/export.py",
        "    if len(release.table.rows) > 1:\n",
        "    if len(release.table.rows) > 2:\n",
        "export: no release.parquet for a table of two rows",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "report-grid-points-off-by-one",
        "dpgui/release/report.py",
        "({domain.size:,} grid points; declared",
        "({domain.size - 1:,} grid points; declared",
        "report: a domain's grid points quoted one short",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "report-rows-shown-off-by-one",
        "dpgui/release/report.py",
        "for row in table.rows[:MAX_REPORT_ROWS]]",
        "for row in table.rows[: MAX_REPORT_ROWS - 1]]",
        "report: one released row fewer than it says it shows",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "report-rows-released-not-public-n",
        "dpgui/release/report.py",
        '("rows (public)", f"{release.dataset.n_rows:,}")',
        '("rows (public)", f"{len(release.table.rows):,}")',
        "report: the dataset's row count quoted as the released table's",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "report-budget-spent-remaining-swapped",
        "dpgui/release/report.py",
        "return [_cost(state.total), spent_words(state, _cost), remaining_words(state, _cost) + reserved]",
        "return [_cost(state.total), remaining_words(state, _cost) + reserved, spent_words(state, _cost)]",
        "report: the budget's spent and remaining columns swapped",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "report-budget-after-is-before",
        "dpgui/release/report.py",
        '["after", *_budget(release.budget_after)]',
        '["after", *_budget(release.budget_before)]',
        "report: the budget after the release quoted as the budget before it",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "report-odds-half-epsilon",
        "dpgui/release/report.py",
        "    odds = math.exp(cost.epsilon)\n",
        "    odds = math.exp(cost.epsilon / 2)\n",
        "report: the odds bound quoted as e^(eps/2)",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "kept-failed-copy-left",
        "dpgui/release/kept.py",
        "        forget(release.release_id)\n        return",
        "        return",
        "a kept copy whose writing failed is left half-written in the releases folder",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "table-cell-values-truncated",
        "dpgui/data/domain.py",
        "return _integral(first) and _integral(self.granularity)",
        "return _integral(first) and _integral(self.upper)",
        "synthetic rows: a half-step grid on whole bounds written as whole numbers (2.5 as 2, off its bin)",
        TABLE_TASK_TESTS,
    ),
    Mutation(
        "table-blank-cell-as-value",
        "dpgui/tasks/table.py",
        "blank = indices >= domain.size if missing.extra_cells else None",
        "blank = indices > domain.size if missing.extra_cells else None",
        "synthetic rows: a kept missing cell written as a value, not left blank",
        TABLE_TASK_TESTS,
    ),
    Mutation(
        "table-catch-all-wrong-cell",
        "dpgui/tasks/table.py",
        "other = (domain.size - 1,) if isinstance(domain, CategoricalDomain) and domain.other else ()",
        "other = (domain.size,) if isinstance(domain, CategoricalDomain) and domain.other else ()",
        "synthetic rows: the 'other' cell not recognised as a catch-all, so its noise rows stay",
        TABLE_TASK_TESTS,
    ),
    Mutation(
        "table-column-cell-limit",
        "dpgui/tasks/table.py",
        "        if domain.size > 1 << 16:\n",
        "        if domain.size >= 1 << 16:\n",
        "synthetic table: a column of exactly 65536 cells (the stated limit) refused",
        TABLE_TASK_TESTS,
    ),
    # -- session 28 (h28b): the task wiring, the jobs, the plan split, the review gate, domains, projects --
    Mutation(
        "learning-recconcave-two-levels-pure",
        "dpgui/tasks/learning.py",
        "return _recconcave_levels(spec) == 1",
        "return _recconcave_levels(spec) <= 2",
        "RecConcave with two levels (A_dist inside) labelled pure and charged no δ",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-recconcave-cost-drops-delta",
        "dpgui/tasks/learning.py",
        "return _pure_cost(spec) if _recconcave_is_pure(spec) else _approximate_cost(spec)",
        "return _pure_cost(spec)",
        "RecConcave charged ε alone, δ dropped, on grids where A_dist spends it",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-recconcave-delta-not-required",
        "dpgui/tasks/learning.py",
        "if not _recconcave_is_pure(spec) and spec.delta <= 0:",
        "if not _recconcave_is_pure(spec) and spec.delta < 0:",
        "RecConcave over more than 32 thresholds no longer refused at δ = 0",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-recconcave-auto-direction",
        "dpgui/tasks/learning.py",
        "    if _direction(spec) is Direction.AUTO:\n",
        "    if _direction(spec) is None:\n",
        "RecConcave no longer refuses direction auto (it needs a public direction)",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-recconcave-label-noise-ignored",
        "dpgui/tasks/learning.py",
        'promise = (1 - float(spec.parameter("label_noise", LABEL_NOISE.default))) * n',
        "promise = n",
        "RecConcave: the declared label noise ignored (the promise is every row)",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-labels-only-booked-replace-one",
        "dpgui/tasks/learning.py",
        "return Account.REPLACE_ONE if spec.public is not None else Account.LABELS_ONLY",
        "return Account.REPLACE_ONE",
        "a labels-only release booked on the replace-one account (composed with guarantees it lacks)",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-labels-only-opt-in-skipped",
        "dpgui/tasks/learning.py",
        "if _label_private_account(spec) is Account.LABELS_ONLY and not spec.parameter(",
        "if _label_private_account(spec) is Account.REPLACE_ONE and not spec.parameter(",
        "label-private learner without a public sample runs without the labels-only opt-in",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-labels-only-stated-replace-one",
        "dpgui/tasks/learning.py",
        "    if spec.public is not None:\n        return REPLACE_ONE",
        "    if spec.public is None:\n        return REPLACE_ONE",
        "label-private learner without a public sample stated as replace-one (features protected)",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-points-cost-drops-delta",
        "dpgui/tasks/learning.py",
        "cost=_approximate_cost,\n        predicted_error=lambda spec, n: (\n            learn_points",
        "cost=_pure_cost,\n        predicted_error=lambda spec, n: (\n            learn_points",
        "learn-points charged ε alone, δ dropped",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-public-em-needs-no-sample",
        "dpgui/tasks/learning.py",
        '    if spec.public is None:\n        return (PreconditionFailure("public-em',
        '    if spec.public is False:\n        return (PreconditionFailure("public-em',
        "public-em no longer refused without a public sample (it fails after the charge)",
        WIRING_TESTS,
    ),
    Mutation(
        "learning-em-runs-at-twice-epsilon",
        "dpgui/tasks/learning.py",
        "release = yield from em_threshold(values, pos, neg, spec.domain.size, direction, spec.epsilon, rng)",
        "release = yield from em_threshold(values, pos, neg, spec.domain.size, direction, 2 * spec.epsilon, "
        "rng)",
        "em-threshold runs at 2ε while ε is charged",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-treelog-delta-not-required",
        "dpgui/tasks/interior.py",
        '    if spec.delta <= 0:\n        return "TreeLog is',
        '    if spec.delta < 0:\n        return "TreeLog is',
        "TreeLog (and HeavyPaths, ip-reduction-treelog) no longer refused at δ = 0",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-treelog-min-n-not-refused",
        "dpgui/tasks/interior.py",
        "    if params.meets_requirement:\n        return ()\n    need = params.n_required",
        "    if True:\n        return ()\n    need = params.n_required",
        "TreeLog no longer refused below its n_required",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-treelog-cost-drops-delta",
        "dpgui/tasks/interior.py",
        "        cost=_approximate_cost,\n        predicted_error=_treelog_error,",
        "        cost=_pure_cost,\n        predicted_error=_treelog_error,",
        "TreeLog charged ε alone, δ dropped",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-ip-treelog-cost-drops-delta",
        "dpgui/tasks/interior.py",
        '(InteriorSolver.TREELOG, Guarantee.APPROXIMATE, _approximate_cost, "TreeLog"),',
        '(InteriorSolver.TREELOG, Guarantee.APPROXIMATE, _pure_cost, "TreeLog"),',
        "threshold learning via TreeLog charged ε alone, δ dropped",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-heavypaths-guarantee-pure",
        "dpgui/tasks/interior.py",
        'guarantee=Guarantee.APPROXIMATE,\n        summary="Sparse-vector',
        'guarantee=Guarantee.PURE,\n        summary="Sparse-vector',
        "HeavyPaths labelled pure ε-DP",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-ip-auto-direction",
        "dpgui/tasks/interior.py",
        'if str(spec.parameter("direction", DIRECTION.default)) != "le":',
        'if str(spec.parameter("direction", DIRECTION.default)) not in ("le", "auto"):',
        "the interior-point reduction runs under direction auto (it releases 'x <= t' whatever the data)",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-ip-treelog-unusable-skipped",
        "dpgui/tasks/interior.py",
        "        if solver is InteriorSolver.TREELOG:\n            reason",
        "        if solver is InteriorSolver.EM:\n            reason",
        "threshold learning via TreeLog no longer refused at δ = 0 or on a grid TreeLog cannot take",
        WIRING_TESTS,
    ),
    Mutation(
        "interior-box-min-n-not-refused",
        "dpgui/tasks/interior.py",
        "    if params.error_rate < 1:\n        return ()",
        "    if params.error_rate < 2:\n        return ()",
        "the quantile box no longer refused where it guarantees nothing",
        WIRING_TESTS,
    ),
    Mutation(
        "adaptive-privtree-runs-at-twice-epsilon",
        "dpgui/tasks/adaptive.py",
        "histogram, data.count(), spec.epsilon, rng, tree_share=share",
        "histogram, data.count(), 2 * spec.epsilon, rng, tree_share=share",
        "PrivTree runs at 2ε while ε is charged",
        WIRING_TESTS,
    ),
    Mutation(
        "adaptive-privtree-bound-full-epsilon",
        "dpgui/tasks/adaptive.py",
        "params = PrivTreeParameters.for_epsilon(share * spec.epsilon)",
        "params = PrivTreeParameters.for_epsilon(spec.epsilon)",
        "PrivTree's stated bound with the tree's test at the full ε (too small)",
        WIRING_TESTS,
    ),
    Mutation(
        "registry-approximate-labelled-pure",
        "dpgui/tasks/registry.py",
        "if self.guarantee is Guarantee.APPROXIMATE and self.pure_when(spec):",
        "if self.guarantee is Guarantee.APPROXIMATE or self.pure_when(spec):",
        "every approximate-DP algorithm's run labelled pure ε-DP",
        WIRING_TESTS,
    ),
    Mutation(
        "registry-zcdp-labelled-pure",
        "dpgui/tasks/registry.py",
        "return Guarantee.PURE if self.cost(spec).is_pure else Guarantee.APPROXIMATE",
        "return Guarantee.PURE",
        "a zCDP run at δ > 0 labelled pure ε-DP",
        WIRING_TESTS,
    ),
    Mutation(
        "registry-recorded-curve-drops-delta",
        "dpgui/tasks/registry.py",
        "return PrivacyCurve(steps=(DpSteps(cost),))",
        "return PrivacyCurve(steps=(DpSteps(PrivacyCost(cost.epsilon)),))",
        "the ledger records an (ε, δ) release as pure ε (its δ left out of the composition)",
        WIRING_TESTS,
    ),
    Mutation(
        "preflight-epsilon-above-max",
        "dpgui/tasks/preflight.py",
        "MIN_EPSILON <= spec.epsilon <= MAX_EPSILON",
        "MIN_EPSILON <= spec.epsilon",
        "ε above 100 (a guarantee that says nothing) accepted before the charge",
        WIRING_TESTS,
    ),
    Mutation(
        "preflight-fill-above-upper",
        "dpgui/tasks/preflight.py",
        "if fill is not None and not domain.lower <= fill <= domain.upper:",
        "if fill is not None and not domain.lower <= fill:",
        "a fill value above the upper bound accepted (imputed cells released at the bound)",
        WIRING_TESTS,
    ),
    Mutation(
        "review-budget-after-not-subtracted",
        "dpgui/tasks/review.py",
        "epsilon = max(self.remaining_before.epsilon - self.cost.epsilon, 0.0)",
        "epsilon = max(self.remaining_before.epsilon, 0.0)",
        "the review states the ε left after the release as the ε left before it",
        WIRING_TESTS,
    ),
    Mutation(
        "review-guarantee-unresolved",
        "dpgui/tasks/review.py",
        'f"({self.algorithm.guarantee_for(self.spec).value})",',
        'f"({self.algorithm.guarantee.value})",',
        "the review states the registered guarantee, not this run's (one-level RecConcave as approximate)",
        WIRING_TESTS,
    ),
    Mutation(
        "review-cost-states-no-delta",
        "dpgui/tasks/review.py",
        'f"ε = {self.cost.epsilon:.6g}, δ = {self.cost.delta:.3g}" + self._unspent_delta(),',
        'f"ε = {self.cost.epsilon:.6g}, δ = 0" + self._unspent_delta(),',
        "the review states δ = 0 for a release that charges δ",
        WIRING_TESTS,
    ),
    Mutation(
        "review-queries-file-unnamed",
        "dpgui/tasks/review.py",
        '    files += [f"{name} file {Path(path).name}" for name, path in named_files(spec, algorithm)]\n',
        "",
        "the review no longer names the queries file that sets a distance release's price",
        REVIEW_GATE_TESTS,
    ),
    Mutation(
        "review-gate-accepts-failures",
        "dpgui/cli/review_gate.py",
        "if any(review.failures for review in reviews) and not accept_warnings:",
        "if any(review.failures for review in reviews) and accept_warnings:",
        "CLI: a failed review check no longer refuses without --accept-warnings",
        REVIEW_GATE_TESTS,
    ),
    Mutation(
        "review-gate-over-budget-passed",
        "dpgui/cli/review_gate.py",
        "    if refusal is not None:  # exit 3",
        "    if False:  # exit 3",
        "CLI: a release the budget cannot hold passes its review (refused only at the reservation)",
        REVIEW_GATE_TESTS,
    ),
    Mutation(
        "release-cmd-review-always-accepted",
        "dpgui/cli/release_cmd.py",
        "reviewed = review_gate.review_or_refuse(spec, dataset, ledger, args.accept_warnings)",
        "reviewed = review_gate.review_or_refuse(spec, dataset, ledger, True)",
        "CLI release: charged and run although a review check failed and --accept-warnings was not given",
        REVIEW_GATE_TESTS,
    ),
    Mutation(
        "batch-cmd-review-one-refusal-ignored",
        "dpgui/cli/review_gate.py",
        "    return _printed_and_passed(texts, [review for _, review in reviews], accept_warnings)",
        "    return _printed_and_passed(texts, [review for _, review in reviews][:1], accept_warnings)",
        "CLI plan: charged and run although a later release's review check failed",
        REVIEW_GATE_TESTS,
    ),
    Mutation(
        "release-job-cancel-after-touch-refunded",
        "dpgui/privacy/ledger.py",
        "self._append(EventType.COMMITTED, ReservationUpdate(reservation.id, reason=NO_RESULT_REASON))",
        "self._append(EventType.REFUNDED, ReservationUpdate(reservation.id))",
        "app: a run cancelled or failed after it read the data is refunded",
        JOB_TESTS,
    ),
    Mutation(
        "release-job-no-touched-line",
        "dpgui/jobs/release_job.py",
        "        self._ledger.mark_touched(self._reservation)\n",
        "",
        "app: no fsynced touched line before the first read (a crash then refunds a run that read the data)",
        JOB_TESTS,
    ),
    Mutation(
        "release-job-results-before-commit",
        "dpgui/jobs/release_job.py",
        "        try:\n            release: Release = finish(",
        "        self.partial.emit(table)\n        try:\n            release: Release = finish(",
        "app: the released table emitted before its commit",
        JOB_TESTS,
    ),
    Mutation(
        "release-job-finish-now-lost",
        "dpgui/jobs/release_job.py",
        "request = (yield Progress(0.0, WAITING_FOR_ABANDONED_FIT)) or request",
        "request = yield Progress(0.0, WAITING_FOR_ABANDONED_FIT)",
        "app: Finish now pressed while a table run waits for an abandoned fit is lost at the next wait step",
        JOB_TESTS,
    ),
    Mutation(
        "plan-job-one-never-started-kept",
        "dpgui/jobs/plan_job.py",
        "for never_started in self._reservations[self.index + 1 :]:",
        "for never_started in self._reservations[self.index + 2 :]:",
        "app plan: the next release, never started, stays reserved after a cancel",
        JOB_TESTS,
    ),
    Mutation(
        "plan-job-refunds-the-running-release",
        "dpgui/jobs/plan_job.py",
        "for never_started in self._reservations[self.index + 1 :]:",
        "for never_started in self._reservations[self.index :]:",
        "app plan: the release that ran (committed, or touched the data) refunded with the rest",
        JOB_TESTS,
    ),
    Mutation(
        "plan-job-cancel-before-start-kept",
        "dpgui/jobs/plan_job.py",
        "        if self.index < 0:\n            self._refund_the_rest()",
        "        if self.index < -1:\n            self._refund_the_rest()",
        "app plan: a plan cancelled before it started keeps every reservation",
        JOB_TESTS,
    ),
    Mutation(
        "plan-job-commit-failure-keeps-rest",
        "dpgui/jobs/plan_job.py",
        "        except Exception as error:\n            self._refund_the_rest()\n",
        "        except Exception as error:\n",
        "app plan: a commit that fails leaves the later releases reserved",
        JOB_TESTS,
    ),
    Mutation(
        "cancellable-batch-unchecked",
        "dpgui/privacy/cancellable.py",
        "            self.check()\n            parts.append(",
        "            parts.append(",
        "a cancel during a long noise draw waits for the whole draw",
        CANCEL_TESTS,
    ),
    Mutation(
        "cancellable-abandoned-not-recorded",
        "dpgui/privacy/cancellable.py",
        "            _abandon(future)\n",
        "",
        "work a cancel gave up is not recorded: the next model fit overlaps it",
        CANCEL_TESTS,
    ),
    Mutation(
        "cancellable-fit-not-cancellable",
        "dpgui/privacy/cancellable.py",
        "return functools.partial(rng.check, during) if isinstance(rng, CancellableRandom) else None",
        "return None",
        "a model fit ignores the cancel of its run",
        CANCEL_TESTS,
    ),
    Mutation(
        "batch-delta-share-undivided",
        "dpgui/planner/batch.py",
        "share = delta_total / len(sharing) if sharing and delta_total > 0 else 0.0",
        "share = delta_total if sharing and delta_total > 0 else 0.0",
        "plan: every release given the plan's whole δ (their δs sum to more than the budget)",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "batch-epsilon-split-over-budget",
        "dpgui/planner/batch.py",
        "scale = epsilon_total / math.fsum(best) * (1 - 1e-12)",
        "scale = epsilon_total / math.fsum(best) * (1 + 1e-3)",
        "plan: the releases' ε sum to more than the plan's budget",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "batch-total-largest-release",
        "dpgui/planner/batch.py",
        "total = basic_composition(r.cost for r in releases)",
        "total = max((r.cost for r in releases), key=lambda cost: cost.epsilon)",
        "plan: its total stated as its largest release, not their composition",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "domains-other-off-by-default",
        "dpgui/data/domains_file.py",
        'entry.get("other", True)',
        'entry.get("other", False)',
        'DOMAINS.json: a categorical column without "other" gets no catch-all cell',
        DOMAINS_FILE_TESTS,
    ),
    Mutation(
        "project-raw-sha256",
        "dpgui/release/project.py",
        "return cls(path, keyed_fingerprint(sha256), encoding)",
        "return cls(path, sha256, encoding)",
        "project file: the private file's raw SHA-256 saved (a fingerprint anyone can test a guess against)",
        PROJECT_TESTS,
    ),
    Mutation(
        "project-spec-delta-dropped",
        "dpgui/release/project.py",
        '"delta": spec.delta,',
        '"delta": 0.0,',
        "project file: a reopened task's δ is 0",
        PROJECT_TESTS,
    ),
    # -- session 29 (h29b): the app's own privacy-relevant logic (dpgui/ui): domains suggested from the public
    # sample only, the (ε, δ) and parameters a form sends, the review before every charge, the budget shown,
    # what an export holds, a cancel that cancels; each runs the tests/ui files that cover its page --
    Mutation(
        "ui-public-sample-twin-of-private-accepted",
        "dpgui/ui/main_window.py",
        "if self.dataset is not None and self.dataset.sha256 == sample.sha256:",
        "if False and self.dataset is not None and self.dataset.sha256 == sample.sha256:",
        "app: the private file opened as the public sample (domains then suggested from the private data)",
        UI_DOMAIN_TESTS,
    ),
    Mutation(
        "ui-private-twin-of-public-accepted",
        "dpgui/ui/main_window.py",
        "if self.public is None or self.public.sha256 != sha256:",
        "if True:",
        "app: the public sample's bytes opened as the private data (its suggested domains are then private)",
        UI_DOMAIN_TESTS,
    ),
    Mutation(
        "ui-domains-kept-for-new-private-file",
        "dpgui/ui/main_window.py",
        "        self.declared.clear()  # a new private file: its domains are declared afresh\n",
        "",
        "app: a new private file keeps the domains declared for the last one",
        UI_DOMAIN_TESTS,
    ),
    Mutation(
        "ui-suggestion-drops-typed-unit",
        "dpgui/ui/domain_rows.py",
        'return (*bounds, current[4] if len(current) > 4 else "")',
        'return (*bounds, "")',
        "app: a public suggestion wipes the unit the custodian typed",
        UI_DOMAIN_TESTS,
    ),
    Mutation(
        "ui-typed-bins-ignored",
        "dpgui/ui/domain_rows.py",
        "bins = _parse_bins(self.bins.text(), self.column)",
        "bins = None",
        "app: the number of bins typed is ignored (the release runs on another grid than declared)",
        UI_DOMAIN_TESTS,
    ),
    Mutation(
        "ui-typed-unit-dropped",
        "dpgui/ui/domain_rows.py",
        "unit=self.unit.text(), binned=binned",
        'unit="", binned=binned',
        "app: the declared unit never reaches the spec (plots and manifest lose it)",
        UI_DOMAIN_TESTS,
    ),
    Mutation(
        "ui-other-bucket-always-on",
        "dpgui/ui/domain_rows.py",
        "return CategoricalDomain(names, self.other.isChecked())",
        "return CategoricalDomain(names, True)",
        "app: undeclared categories counted as 'other' although the box is unchecked",
        UI_DOMAIN_TESTS,
    ),
    Mutation(
        "ui-multi-column-domains-reversed",
        "dpgui/ui/task_page.py",
        "domains = tuple(self._declared_domain(column) for column in columns)",
        "domains = tuple(self._declared_domain(column) for column in reversed(columns))",
        "app: a several-column task's declared domains given to the wrong columns",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-spec-epsilon-default",
        "dpgui/ui/main_window.py",
        "return self.task_page.spec(cost.epsilon, cost.delta)",
        "return self.task_page.spec(1.0, cost.delta)",
        "app: the release runs and is charged at the default ε = 1, not the ε typed",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-cost-half-epsilon",
        "dpgui/ui/budget_page.py",
        "return PrivacyCost(self.epsilon.value(), delta)",
        "return PrivacyCost(self.epsilon.value() / 2, delta)",
        "app: the Budget page sends ε/2, not the ε typed",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-cost-delta-dropped",
        "dpgui/ui/budget_page.py",
        "return PrivacyCost(self.epsilon.value(), delta)",
        "return PrivacyCost(self.epsilon.value(), 0.0)",
        "app: the Budget page sends δ = 0 whatever δ is typed",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-parameters-sent-at-defaults",
        "dpgui/ui/parameter_form.py",
        "(spec.name, _value(self.editors[spec.name], spec.kind))",
        "(spec.name, spec.default)",
        "app: every algorithm parameter sent at its default instead of the value typed",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-file-set-parameter-sent",
        "dpgui/ui/parameter_form.py",
        "return isinstance(source, QLineEdit) and bool(source.text().strip())",
        "return False",
        "app: a parameter its named file sets (the query count) sent as well, so the core refuses the run",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-algorithm-choice-ignored",
        "dpgui/ui/task_page.py",
        "return AUTO if item is None else item.data(Qt.ItemDataRole.UserRole)",
        "return AUTO",
        "app: the algorithm chosen is ignored and auto runs instead",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-positive-label-dropped",
        "dpgui/ui/task_page.py",
        "positive=self.positive.text().strip() or None if labelled else None,",
        "positive=None,",
        "app: the positive label typed for a learning task is ignored (the default labels count)",
        UI_FORM_TESTS,
    ),
    Mutation(
        "ui-run-button-skips-review",
        "dpgui/ui/main_window.py",
        "self.run_page.run_button.clicked.connect(self.review_release)",
        "self.run_page.run_button.clicked.connect(self.start_release)",
        "app: the Run page's button charges and runs without the review",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-run-action-skips-review",
        "dpgui/ui/main_window.py",
        "        self.go_to(RUN)\n        self.review_release()",
        "        self.go_to(RUN)\n        self.start_release()",
        "app: Run release (Ctrl+R) charges and runs without the review",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-charge-after-queries-changed",
        "dpgui/ui/main_window.py",
        "                priced=reviewed,\n",
        "                priced=None,\n",
        "app: a queries file changed while the review was open is charged at its new price, not the reviewed",
        PUBLIC_FILE_TESTS,
    ),
    Mutation(
        "ui-review-ledger-moved-shown",
        "dpgui/ui/main_window.py",
        "self.dataset.n_rows != prepared.n or self.ledger.head() != head:",
        "self.dataset.n_rows != prepared.n:",
        "app: a review composed before the ledger moved (a new total, another charge) is shown as current",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-stale-review-charged",
        "dpgui/ui/main_window.py",
        "if self.current_spec() != spec or self.dataset.n_rows != prepared.n or self.ledger.head() != head:",
        "if False:",
        "app: a review prepared for an earlier task is shown, and its Charge runs the task as changed since",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-over-budget-unchecked",
        "dpgui/tasks/ledger_review.py",
        "refusal = over_budget(prepared, ledger, dataset_id)",
        "refusal = None",
        "app: a release that does not fit the budget left is reviewed as chargeable",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-remaining-wrong-account",
        "dpgui/tasks/ledger_review.py",
        "    remaining = ledger.state(dataset_id, prepared.account).remaining",
        "    remaining = ledger.state(dataset_id).remaining",
        "app: the review states the replace-one budget left for a release charged to the labels-only account",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-other-specs-data-check-reused",
        "dpgui/ui/main_window.py",
        "return check if reviewed_spec == spec and dataset is self.dataset else None",
        "return check",
        "app: a charge reuses the data check of a review of another task or file",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-failed-check-not-acknowledged",
        "dpgui/ui/review_sheet.py",
        "not refused and (not self.needs_acknowledging or self.acknowledge.isChecked())",
        "not refused",
        "review sheet: Charge and run enabled although a check failed and was not acknowledged",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-data-warnings-not-acknowledged",
        "dpgui/ui/review_sheet.py",
        "self.needs_acknowledging = bool(self.failures or data_warnings)",
        "self.needs_acknowledging = bool(self.failures)",
        "review sheet: Charge and run enabled although the private data's check warned, unacknowledged",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-over-budget-chargeable",
        "dpgui/ui/review_sheet.py",
        "refused = self.over_budget is not None or self.no_total",
        "refused = self.no_total",
        "review sheet: Charge and run enabled for a release that does not fit the budget left",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-no-total-chargeable",
        "dpgui/ui/review_sheet.py",
        "refused = self.over_budget is not None or self.no_total",
        "refused = self.over_budget is not None",
        "review sheet: Charge and run enabled with no total budget set (the ledger then refuses)",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-review-preflight-skipped",
        "dpgui/ui/main_window.py",
        "    preflight(spec.with_algorithm(prepared.algorithm.name), dataset.n_rows)\n",
        "",
        "app: a task the charge's pre-flight refuses (a grid of one point) is reviewed as if it could run",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-refusal-names-one-problem",
        "dpgui/ui/main_window.py",
        "    further = error.further if isinstance(error, DataRefused) else ()\n",
        "    further = ()\n",
        "app: a data check's refusal names its first problem and counts the others",
        (f"{_U}test_review_sheet.py",),
    ),
    Mutation(
        "preflight-step-finer-than-floats",
        "dpgui/tasks/preflight.py",
        "    if domain.granularity < MIN_STEP_ULPS * math.ulp(widest):\n",
        "    if domain.granularity < MIN_STEP_ULPS * math.ulp(widest) / 1e6:\n",
        "pre-flight: a grid step finer than float64 resolves at the bounds (duplicate released values)",
        ("tests/tasks/test_preflight_step_finer_than_floats.py",),
    ),
    Mutation(
        "ui-number-box-drops-exponent",
        "dpgui/ui/number_box.py",
        '    cleaned = text.strip().replace(decimal_point, ".")\n',
        '    cleaned = "".join(c for c in text if c.isdigit() or c == decimal_point)\n',
        "number box: '1e-5' read as 15, the digits alone (QDoubleSpinBox's own reading)",
        ("tests/ui/test_number_box.py",),
    ),
    Mutation(
        "ui-total-of-zero-accepted",
        "dpgui/ui/main_window.py",
        "        if epsilon is None or epsilon <= 0:\n",
        "        if epsilon is None:\n",
        "app: a total budget of ε = 0 set from the dialog",
        ("tests/ui/test_main_window.py",),
    ),
    Mutation(
        "table-too-fine-column-exit-4",
        "dpgui/tasks/table.py",
        "granularity',\n                    parameter=True,\n",
        "granularity',\n",
        "table: a column too fine for the named algorithm exits 4 (a precondition), not 2 (a usage error)",
        ("tests/cli/test_table_grid_too_large_is_a_usage_error.py",),
    ),
    Mutation(
        "ui-plan-review-later-failures-ignored",
        "dpgui/ui/review_sheet.py",
        "self.failures = tuple(check for _, review in self.reviews for check in review.failures)",
        "self.failures = tuple(check for _, review in self.reviews[:1] for check in review.failures)",
        "review sheet: a plan's failed checks counted for its first release only",
        UI_REVIEW_TESTS,
    ),
    Mutation(
        "ui-plan-review-refusal-dropped",
        "dpgui/tasks/ledger_review.py",
        "    refusal = ledger.refusal_all(dataset_id, requests)",
        "    refusal = None",
        "app: a plan that does not fit the budget is reviewed as chargeable",
        UI_PLAN_TESTS,
    ),
    Mutation(
        "ui-plan-review-budget-not-carried",
        "dpgui/tasks/ledger_review.py",
        "(name, build_review(prepared, left_after(prepared.account, index), refusal,",
        "(name, build_review(prepared, left_after(prepared.account, 0), refusal,",
        "app: a plan's review states each release's budget before it as if the earlier ones were not charged",
        UI_PLAN_TESTS,
    ),
    Mutation(
        "ui-plan-run-skips-review",
        "dpgui/ui/main_window.py",
        "self.budget_page.plan_view.run_requested.connect(self.review_plan)",
        "self.budget_page.plan_view.run_requested.connect(self.start_plan)",
        "app: Run plan charges and runs every release without the review",
        UI_PLAN_TESTS,
    ),
    Mutation(
        "ui-plan-stale-split-runnable",
        "dpgui/ui/plan_view.py",
        '"""Recompute the split (in the pool) for the plan as edited."""\n        self.batch = None\n',
        '"""Recompute the split (in the pool) for the plan as edited."""\n',
        "plan view: while a new split is computed, Run plan runs the old one (not the budget shown)",
        UI_PLAN_TESTS,
    ),
    Mutation(
        "ui-plan-delta-ignored",
        "dpgui/ui/plan_view.py",
        "dataclasses.replace(r, spec=dataclasses.replace(r.spec, delta=delta)) for r in self.releases",
        "r for r in self.releases",
        "plan view: the plan's δ typed is not given to its releases",
        UI_PLAN_TESTS,
    ),
    Mutation(
        "ui-plan-epsilon-default",
        "dpgui/ui/plan_view.py",
        "budget = PrivacyCost(self.epsilon.value(), delta)",
        "budget = PrivacyCost(1.0, delta)",
        "plan view: the plan split at the default ε = 1, not the ε typed",
        UI_PLAN_TESTS,
    ),
    Mutation(
        "ui-bar-without-pending",
        "dpgui/ui/budget_panel.py",
        "self.bar.show_budget(total, state.spent.epsilon + state.pending.epsilon, this)",
        "self.bar.show_budget(total, state.spent.epsilon, this)",
        "budget bar: the running releases' reservations left out of what is used",
        UI_BUDGET_TESTS,
    ),
    Mutation(
        "ui-budget-shown-labels-only-account",
        "dpgui/ui/main_window.py",
        "        state = self.ledger.state(self.record.id)\n"
        "        self.budget_panel.show_state(state, release)",
        "        state = self.ledger.state(self.record.id, Account.LABELS_ONLY)\n"
        "        self.budget_panel.show_state(state, release)",
        "app: the budget panel shows the labels-only account instead of the dataset's budget",
        UI_BUDGET_TESTS,
    ),
    Mutation(
        "ui-labels-only-shows-replace-one",
        "dpgui/ui/main_window.py",
        "self.ledger.state(self.record.id, Account.LABELS_ONLY),",
        "self.ledger.state(self.record.id),",
        "app: the Budget page's labels-only spend shows the replace-one account's",
        UI_BUDGET_TESTS,
    ),
    Mutation(
        "ui-running-cost-counted-twice",
        "dpgui/ui/main_window.py",
        "release = self.budget_page.cost() if self.current_job is None else None",
        "release = self.budget_page.cost()",
        "app: during a run the bar adds the Budget page's cost on top of the running reservation",
        UI_BUDGET_TESTS,
    ),
    Mutation(
        "ui-timeline-unresolved-not-spent",
        "dpgui/ui/budget_timeline.py",
        "SPENT = frozenset({ReservationStatus.COMMITTED, ReservationStatus.UNRESOLVED})",
        "SPENT = frozenset({ReservationStatus.COMMITTED})",
        "timeline: an unresolved reservation (a crashed run) not counted as spent",
        UI_BUDGET_TESTS,
    ),
    Mutation(
        "ui-timeline-labels-only-on-it",
        "dpgui/ui/budget_page.py",
        "self.timeline.show_timeline([e for e in entries if e.account is Account.REPLACE_ONE], total)",
        "self.timeline.show_timeline(list(entries), total)",
        "timeline: the labels-only account's spend drawn against the replace-one total",
        UI_BUDGET_TESTS,
    ),
    Mutation(
        "ui-delta-raise-unconfirmed",
        "dpgui/ui/main_window.py",
        "(total.epsilon > current.epsilon or total.delta > current.delta)",
        "(total.epsilon > current.epsilon)",
        "app: a raise of the total's δ alone is not confirmed",
        UI_BUDGET_TESTS,
    ),
    Mutation(
        "ui-export-private-check-dropped",
        "dpgui/ui/main_window.py",
        "self._start_export(ReleaseExport(self.release, folder, plots, self._private_in(folder)))",
        "self._start_export(ReleaseExport(self.release, folder, plots, None))",
        "app: a release exported into the folder holding the private data",
        UI_EXPORT_TESTS,
    ),
    Mutation(
        "ui-plan-export-beside-data",
        "dpgui/ui/main_window.py",
        "refuse_near_private_files(folder, self._release_data.get(item.release.release_id))",
        "refuse_near_private_files(folder, None)",
        "app: a plan exported into the folder holding the private data",
        UI_EXPORT_TESTS,
    ),
    Mutation(
        "ui-export-replaces-without-asking",
        "dpgui/ui/export_requests.py",
        "    private: Path | None\n"
        '    """The private file the folder must not hold (``staging.prepare_out``)."""\n'
        "    overwrite: bool = False",
        "    private: Path | None\n"
        '    """The private file the folder must not hold (``staging.prepare_out``)."""\n'
        "    overwrite: bool = True",
        "export: an earlier release in the folder replaced without asking",
        UI_EXPORT_TESTS,
    ),
    Mutation(
        "ui-export-screen-plot-with-custodian-layer",
        "dpgui/ui/review_page.py",
        "            export = release_plot()\n",
        "            export = self.plot\n",
        "export: the report's plot is the on-screen one, with the custodian-only true data when shown",
        UI_EXPORT_TESTS,
    ),
    Mutation(
        "ui-custodian-layer-shown-by-default",
        "dpgui/ui/review_page.py",
        "self.custodian_box.setChecked(False)  # custodian-only layers start hidden for every release",
        "self.custodian_box.setChecked(True)",
        "review page: the custodian-only true data drawn without being asked for",
        UI_EXPORT_TESTS,
    ),
    Mutation(
        "ui-custodian-layer-from-another-file",
        "dpgui/ui/review_page.py",
        "return source if keyed_fingerprint(source.sha256) == release.dataset.fingerprint else None",
        "return source",
        "review page: the custodian layer drawn from another private file than the release's",
        UI_EXPORT_TESTS,
    ),
    Mutation(
        "ui-chosen-release-not-exported",
        "dpgui/ui/main_window.py",
        "        self.release = release\n        self.review_page.show_release(release)\n"
        "        self._enable_export()\n\n    def _on_failed",
        "        self.review_page.show_release(release)\n        self._enable_export()\n\n    def _on_failed",
        "app: a release picked in the list is shown but Export writes the one shown before",
        UI_EXPORT_TESTS,
    ),
    Mutation(
        "ui-cancel-does-not-cancel",
        "dpgui/ui/main_window.py",
        "            self.current_job.cancel()\n",
        "            pass\n",
        "app: Cancel (button, Ctrl+.) does not stop the run",
        UI_CANCEL_TESTS,
    ),
    Mutation(
        "ui-file-opens-under-a-run",
        "dpgui/ui/main_window.py",
        "if self.open_job is not None or self.current_job is not None:",
        "if self.open_job is not None:",
        "app: a private file opened while a release runs replaces the data under it",
        UI_CANCEL_TESTS,
    ),
    # -- session 28 (h28c): what a user gets from the core: auto's simulations, the table planner, the plan
    # file, budget and number words, the CLI's flags and --public, plan runs and exports, plain words --
    Mutation(
        "sim-shapes-ranked-by-worst",
        "dpgui/tasks/simulation.py",
        "return float(np.exp(np.mean(np.log(np.maximum(errors, floor)))))",
        "return float(np.max(np.maximum(errors, floor)))",
        "auto: an algorithm's simulated error is its worst shape's, not the shapes' geometric mean",
        SIMULATION_TESTS,
    ),
    Mutation(
        "sim-cdf-error-against-share-below",
        "dpgui/tasks/simulation.py",
        'at_or_below = through[np.searchsorted(indices, points, "right")]',
        'at_or_below = through[np.searchsorted(indices, points, "left")]',
        "auto: a simulated CDF's error measured against the share strictly below each point, not at or below",
        SIMULATION_TESTS,
    ),
    Mutation(
        "sim-counted-at-calibration-rows",
        "dpgui/tasks/simulation.py",
        "return [*run(spec, n, first, 18, shape).errors, *extra]",
        "return [*run(spec, min(n, CALIBRATION_ROWS), first, 18, shape).errors, *extra]",
        "auto: a CDF or quantiles task above 20,000 rows simulated at 20,000 rows, not at its n",
        SIMULATION_TESTS,
    ),
    Mutation(
        "sim-quantiles-by-worst",
        "dpgui/tasks/simulation.py",
        "return float(np.mean(np.maximum(np.maximum(below - targets, targets - at_or_below), 0))) / n",
        "return float(np.max(np.maximum(np.maximum(below - targets, targets - at_or_below), 0))) / n",
        "auto: quantiles ranked by their worst quantile, not the misclassified points per quantile",
        SIMULATION_TESTS,
    ),
    Mutation(
        "sim-race-repeats-the-first-releases",
        "dpgui/tasks/simulation.py",
        "RACE_SEED = 119",
        "RACE_SEED = 18",
        "auto: a race's extra releases repeat the first pass's seeded ones instead of adding new ones",
        SIMULATION_TESTS,
    ),
    Mutation(
        "sim-race-not-remembered",
        "dpgui/tasks/simulation.py",
        "_race_trials[spec, n] = RACE_TRIALS",
        "pass",
        "auto: a raced estimate forgotten, so the review shows another number than auto ranked by",
        ("tests/tasks/test_runner.py", *SIMULATION_TESTS),
    ),
    Mutation(
        "joint-exp-linear-underflow",
        "dpgui/algorithms/joint_exp.py",
        "LINEAR_SPAN = 600.0",
        "LINEAR_SPAN = 750.0",
        "JointExp: sums in linear space past float64's range, some tuples' probability rounded to zero",
        QUANTILE_TESTS,
    ),
    Mutation(
        "joint-exp-gaps-snapped-loosely",
        "dpgui/algorithms/joint_exp.py",
        "close = np.flatnonzero(np.abs(snapped[:j] - gaps[j]) <= 1e-9 * abs(gaps[j]))",
        "close = np.flatnonzero(np.abs(snapped[:j] - gaps[j]) <= 0.5 * abs(gaps[j]))",
        "JointExp: gap targets merged when they differ (another utility than the quantiles asked)",
        QUANTILE_TESTS,
    ),
    Mutation(
        "sim-atoms-smoothed",
        "dpgui/tasks/simulation.py",
        "single = self.counts[picked] == 1",
        "single = self.counts[picked] >= 1",
        "simulation: a public value held many times (a heaped wage) smoothed away instead of kept an atom",
        SIMULATION_TESTS,
    ),
    Mutation(
        "table-error-gaussian-mean-abs",
        "dpgui/tasks/table_error.py",
        "mean_abs = math.sqrt(2 / math.pi) * scale",
        "mean_abs = scale",
        "table planner: a Gaussian's mean absolute noise taken as sigma, not sqrt(2/pi) sigma",
        TABLE_ERROR_TESTS,
    ),
    Mutation(
        "table-error-independent-scale-undivided",
        "dpgui/tasks/table_error.py",
        "scale = L1_SENSITIVITY * d / spec.epsilon",
        "scale = L1_SENSITIVITY / spec.epsilon",
        "table planner: independent marginals predicted at the whole ε per column (split over d forgotten)",
        TABLE_ERROR_TESTS,
    ),
    Mutation(
        "table-error-mst-pair-always-measured",
        "dpgui/tasks/table_error.py",
        "chance = (d - 1) / math.comb(d, 2)",
        "chance = 1.0",
        "table planner: every pair predicted as measured by MST, not (d - 1) / C(d, 2) of them",
        TABLE_ERROR_TESTS,
    ),
    Mutation(
        "table-error-unmeasured-free",
        "dpgui/tasks/table_error.py",
        "errors.append(1.0 if plan is None else plan.measured * plan.tv + (1 - plan.measured))",
        "errors.append(0.0 if plan is None else plan.measured * plan.tv + (1 - plan.measured))",
        "table planner: a workload marginal never measured jointly counts as TV 0, not 1",
        TABLE_ERROR_TESTS,
    ),
    Mutation(
        "table-error-aim-worst-resolution",
        "dpgui/tasks/table_error.py",
        "plans.append(min(options, key=lambda plan: plan.tv))",
        "plans.append(max(options, key=lambda plan: plan.tv))",
        "table planner: AIM's pair predicted at the resolution with more error, not less",
        TABLE_ERROR_TESTS,
    ),
    Mutation(
        "plan-file-weight-ignored",
        "dpgui/planner/plan_file.py",
        "return PlannedRelease(name, spec, weight, target)",
        "return PlannedRelease(name, spec, 1.0, target)",
        "plan file: a release's weight read as 1",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "plan-file-delta-dropped",
        "dpgui/planner/plan_file.py",
        "            delta=delta,\n",
        "            delta=0.0,\n",
        "plan file: the plan's δ not given to its releases",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "plan-file-other-by-default",
        "dpgui/planner/plan_file.py",
        'other = entry.get("other", False)',
        'other = entry.get("other", True)',
        "plan file: a categorical release without other = true counts undeclared categories as 'other'",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "plan-file-weight-not-saved",
        "dpgui/planner/plan_file.py",
        'lines.append(f"weight = {_number(release.weight)}")',
        'lines.append("weight = 1.0")',
        "plan file: a saved plan loses its releases' weights",
        PLANNER_TEST_DIRS,
    ),
    Mutation(
        "budget-words-remaining-delta-total",
        "dpgui/privacy/budget_words.py",
        "δ not yet booked: {remaining.delta:.3g} of {total.delta:.3g}",
        "δ not yet booked: {total.delta:.3g} of {total.delta:.3g}",
        "budget: under tight composition the δ not yet booked stated as the whole total δ",
        BUDGET_WORDS_TESTS,
    ),
    Mutation(
        "numbers-trailing-zeros-of-whole",
        "dpgui/numbers.py",
        'return text.rstrip("0").rstrip(".") if "." in text else text',
        'return text.rstrip("0").rstrip(".")',
        "numbers: a value rounded to a whole number loses its trailing zeros (1000.4 shown as 1)",
        NUMBERS_TESTS,
    ),
    Mutation(
        "flags-foreign-accepted",
        "dpgui/cli/algorithm_flags.py",
        "foreign = set(given) - taken",
        "foreign = set(given) - taken - set(given)",
        "CLI: a flag the chosen algorithm does not take silently ignored instead of refused",
        CLI_TESTS,
    ),
    Mutation(
        "flags-values-dropped",
        "dpgui/cli/algorithm_flags.py",
        "return dataclasses.replace(spec, parameters=(*spec.parameters, *given.items())) if given else spec",
        "return spec",
        "CLI: every algorithm flag's value silently ignored (the release runs at the defaults)",
        CLI_TESTS,
    ),
    Mutation(
        "flags-auto-unused-accepted",
        "dpgui/cli/algorithm_flags.py",
        "unused = set(given_parameters(args)) - {parameter.name for parameter in chosen.parameters}",
        "unused = set(given_parameters(args)) & {parameter.name for parameter in chosen.parameters}",
        "CLI: with auto, a flag the chosen algorithm does not take accepted (and one it takes refused)",
        CLI_TESTS,
    ),
    Mutation(
        "distance-public-ignored",
        "dpgui/cli/release_distance.py",
        "public=release_cmd.public_sample(args),",
        "public=None,",
        "CLI distance: --public silently ignored",
        CLI_TESTS,
    ),
    Mutation(
        "sanitize-public-ignored",
        "dpgui/cli/release_sanitize.py",
        "public=release_cmd.public_sample(args),",
        "public=None,",
        "CLI cdf/quantiles/histogram/synthetic: --public silently ignored",
        CLI_TESTS,
    ),
    Mutation(
        "table-public-ignored",
        "dpgui/cli/release_table.py",
        "    if public:\n",
        "    if public and False:\n",
        "CLI table: --public silently ignored instead of refused",
        CLI_TESTS,
    ),
    Mutation(
        "table-time-limit-above-max-seconds",
        "dpgui/cli/release_table.py",
        "min(float(args.max_seconds), TIME_LIMIT.default)",
        "max(float(args.max_seconds), TIME_LIMIT.default)",
        "CLI table: AIM's time limit the larger of --max-seconds and its default, not the smaller",
        CLI_TESTS,
    ),
    Mutation(
        "plan-cmd-public-ignored",
        "dpgui/cli/plan_cmd.py",
        "public=public_sample(args),",
        "public=None,",
        "CLI plan: --public silently ignored (the public-data algorithms planned as without it)",
        CLI_TESTS,
    ),
    Mutation(
        "budget-set-delta-dropped",
        "dpgui/cli/budget_cmd.py",
        "PrivacyCost(args.epsilon, args.delta), args.note",
        "PrivacyCost(args.epsilon, 0.0), args.note",
        "CLI budget set: --delta ignored (the total's δ set to 0)",
        CLI_TESTS,
    ),
    Mutation(
        "budget-json-spent-basic-is-spent",
        "dpgui/cli/budget_cmd.py",
        '"spent_basic": _cost_json(state.spent_basic if state.spent_basic is not None else state.spent),',
        '"spent_basic": _cost_json(state.spent),',
        "CLI budget show --json: spent_basic stated as the accountant's figure",
        CLI_TESTS,
    ),
    Mutation(
        "preflight-auto-flags-unchecked",
        "dpgui/cli/preflight.py",
        "    refuse_flags_auto_ignores(prepared.algorithm, args)\n",
        "",
        "CLI: a flag auto's choice does not take no longer refused before the charge",
        CLI_TESTS,
    ),
    Mutation(
        "preflight-limits-on-auto",
        "dpgui/cli/preflight.py",
        "predicted = estimate(concrete, n)",
        "predicted = estimate(spec, n)",
        "CLI: the time and memory limits checked for auto, not for the algorithm auto chose",
        CLI_TESTS,
    ),
    Mutation(
        "outputs-upper-bound-sentence-omitted",
        "dpgui/tasks/outputs.py",
        "if domain.binned or float(domain.upper) - float(last) <= 1e-9 * float(domain.granularity):",
        "if domain.binned or float(domain.upper) - float(last) <= float(domain.granularity):",
        "released table: the sentence that values above the last grid point count at it left out",
        WIRING_TESTS,
    ),
    Mutation(
        "outputs-statistic-columns-swapped",
        "dpgui/tasks/outputs.py",
        '("statistic", "column", "value"),',
        '("statistic", "value", "column"),',
        "released table: a median's or interior point's columns labelled value and column the wrong way",
        WIRING_TESTS,
    ),
    Mutation(
        "release-exported-parameter-path",
        "dpgui/release/release.py",
        "(name, Path(str(value)).name if taken[name].path and value else value)",
        "(name, value)",
        "export: a file parameter stated by its full path (the custodian's folders), not its name",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "batch-export-budget-after-first",
        "dpgui/release/batch_export.py",
        "after = releases[-1].release.budget_after",
        "after = releases[0].release.budget_after",
        "plan export: the budget after the plan stated as after its first release",
        RELEASE_TEST_DIRS,
    ),
    Mutation(
        "batch-run-next-release-kept",
        "dpgui/tasks/batch_run.py",
        "unsettled = index + 1  # from here run_reserved settles",
        "unsettled = index + 2  # from here run_reserved settles",
        "plan run: after a failed release, the next one (never started) stays reserved",
        BATCH_RUN_TESTS,
    ),
    Mutation(
        "batch-run-stopped-before-release-kept",
        "dpgui/tasks/batch_run.py",
        "unsettled = index  # reservations[unsettled:]",
        "unsettled = index + 1  # reservations[unsettled:]",
        "plan run: stopped while the next release's budget is composed, that release stays reserved (spent)",
        ("tests/tasks/test_plan_stopped_between_releases.py",),
    ),
    Mutation(
        "plan-job-busy-ledger-unsettled",
        "dpgui/jobs/plan_job.py",
        "        except Exception as error:  # before the worker (ledger busy): nothing read, refunded\n"
        "            self._on_failed(error)\n",
        "        except Exception:\n            raise\n",
        "app's plan: a ledger busy before the next release leaves it reserved and the plan silently running",
        ("tests/jobs/test_plan_job.py",),
    ),
    Mutation(
        "text-encoding-guessed-from-content",
        "dpgui/data/text_format.py",
        'return "utf-8", None if _decodes(head) else _code_page_guess(head, path)',
        'return ("utf-8", None) if _decodes(head) else (_code_page_guess(head, path),) * 2',
        "text files: the code page guessed from the content decodes every record (one record flips the rest)",
        ("tests/data/test_one_record_keeps_the_others_text.py", "tests/data/test_text_format.py"),
    ),
    Mutation(
        "secure-selection-floating-point",
        "dpgui/privacy/random.py",
        "        chosen = _opendp_noisy_max()(log_weights[candidates].tolist())  # type: ignore[operator]\n"
        "        return int(candidates[chosen])\n",
        "        return super().choose_index(log_weights)\n",
        "selection: private draws use floating-point Gumbel noise (a candidate 41 below the best: never)",
        ("tests/privacy/test_exact_selection.py",),
    ),
    Mutation(
        "cancellable-selection-floating-point",
        "dpgui/privacy/cancellable.py",
        "        self.check()\n        return self.inner.choose_index(log_weights)\n",
        "        return super().choose_index(log_weights)\n",
        "app's runs: selection through the cancellable generator falls back to floating-point Gumbel noise",
        ("tests/privacy/test_exact_selection.py",),
    ),
    Mutation(
        "piecewise-wrapped-overlap",
        "dpgui/privacy/exponential.py",
        "(np.any(ends[:-1] == last) or np.any(",
        "(False or np.any(",
        "exponential mechanism: a piece ending at 2^64 - 1, then another, wraps around to an overlap",
        ("tests/privacy/test_exponential.py",),
    ),
    Mutation(
        "one-column-empty-lines-skipped",
        "dpgui/data/loaders.py",
        "        skip_blank_lines=text_format.skip_blank_lines,\n",
        "",
        "loader: a one-column file's empty lines (records with a missing cell) are skipped: n counts them",
        ("tests/data/test_a_missing_cell_is_still_a_record.py",),
    ),
    Mutation(
        "one-column-empty-lines-skipped-out-of-core",
        "dpgui/data/backends/embedded.py",
        "                    skip_blank_lines=self.text_format.skip_blank_lines,\n",
        "",
        "out-of-core engine: a one-column file's empty lines are skipped by the scans (n counts them)",
        ("tests/data/test_a_missing_cell_is_still_a_record.py",),
    ),
    Mutation(
        "sheet-cells-typed-by-column",
        "dpgui/data/loaders.py",
        "        frame = pd.read_excel(workbook, sheet_name=0, dtype=object)",
        "        frame = pd.read_excel(workbook, sheet_name=0)",
        "workbooks: a column typed from all its cells (one empty cell turns TRUE and FALSE into 1.0 and 0.0)",
        ("tests/data/test_category_of_a_cell_is_its_own.py",),
    ),
    Mutation(
        "text-missing-spellings-kept",
        "dpgui/data/loaders.py",
        "    values = values.mask(values.isin(MISSING_SPELLINGS))  # see below",
        "    values = values  # see below",
        "text files: beside an integer of 2^63 or more, other records' empty and NA cells read as text",
        ("tests/data/test_category_of_a_cell_is_its_own.py",),
    ),
    Mutation(
        "first-record-surplus-fields-read",
        "dpgui/data/loaders.py",
        "    if header and len(first) > len(header):",
        "    if header and len(first) > len(header) and False:",
        "text files: surplus fields on the first record make pandas shift every column of every record",
        ("tests/data/test_loaders.py",),
    ),
    Mutation(
        "sheet-empty-rows-dropped",
        "dpgui/data/loaders.py",
        "    frame = frame.iloc[: filled[-1] + 1 if filled.size else 0].reset_index(drop=True)",
        '    frame = frame.dropna(how="all").reset_index(drop=True)',
        "workbooks: an empty row between filled ones (a record with every cell missing) is dropped",
        ("tests/data/test_a_missing_cell_is_still_a_record.py", "tests/data/test_loaders.py"),
    ),
    Mutation(
        "column-kind-from-cells",
        "dpgui/ui/task_page.py",
        "        return column in self._numeric if declared is None else declared",
        "        return column in self._numeric",
        "app: a column's kind follows its cells over the declaration (one stray word refuses its bounds)",
        ("tests/ui/test_declared_kind.py",),
    ),
    Mutation(
        "labels-account-alone",
        "dpgui/privacy/ledger.py",
        "    return frozenset({account, Account.REPLACE_ONE})",
        "    return frozenset({account})",
        "ledger: the labels-only account counts its own releases alone (a label loses up to twice the total)",
        ("tests/privacy",),
    ),
    Mutation(
        "review-after-not-composed",
        "dpgui/privacy/ledger.py",
        "        return _left(total, self._compose([*live, *adding], total))",
        "        return _left(total, self._compose(live, total))",
        "review: the budget left after a release leaves the release out of the composition",
        ("tests/tasks/test_review_composes_the_budget_after.py",),
    ),
    Mutation(
        "declared-encoding-ignored",
        "dpgui/data/text_format.py",
        "    if declared is not None:\n        return declared, None\n",
        "",
        "text files: a declared code page is dropped and the file reads as UTF-8 with Windows-1252 bytes",
        ("tests/data/test_declared_encoding.py", "tests/ui/test_declared_encoding_page.py"),
    ),
    Mutation(
        "declared-encoding-over-bom",
        "dpgui/data/text_format.py",
        "            return encoding, None\n    if declared is not None:",
        "            return declared or encoding, None\n    if declared is not None:",
        "text files: a declared code page overrides the byte-order mark (the header reads as mojibake)",
        ("tests/data/test_declared_encoding.py",),
    ),
    Mutation(
        "declared-encoding-not-scanned",
        "dpgui/data/backends/embedded.py",
        "        return sniff_text(self.path, self.encoding)",
        "        return sniff_text(self.path)",
        "out-of-core engine: the declared encoding is not used by the scan (categories read as mojibake)",
        ("tests/data/test_declared_encoding.py",),
    ),
    Mutation(
        "declared-encoding-not-in-manifest",
        "dpgui/release/manifest.py",
        '    return {} if encoding is None else {"declared_text_encoding": encoding}',
        "    return {}",
        "manifest: a declared text encoding is not stated",
        ("tests/cli/test_release_with_declared_encoding.py",),
    ),
    Mutation(
        "declared-encoding-lost-by-project",
        "dpgui/release/project.py",
        '        return FileRef(Path(node["path"]), node["fingerprint"], node.get("encoding"))',
        '        return FileRef(Path(node["path"]), node["fingerprint"])',
        "project files: a reopened project reads its files without their declared encoding",
        ("tests/ui/test_declared_encoding_page.py",),
    ),
    Mutation(
        "text-fallback-strict",
        "dpgui/data/text_format.py",
        'return FALLBACK_ERRORS if _is_utf8(self.encoding) else "strict"',
        'return "strict"',
        "text files: a byte that is not UTF-8 is not read as Windows-1252 in its own cell",
        ("tests/data/test_one_record_keeps_the_others_text.py", "tests/data/test_text_format.py"),
    ),
    Mutation(
        "text-cells-read-by-column",
        "dpgui/data/loaders.py",
        "    return canonical_cells(frame, text_format.decimal_marks)\n",
        "    return frame\n",
        "text files: a cell's category read as pandas typed its whole column (one record moves every other)",
        ("tests/data/test_category_of_a_cell_is_its_own.py",),
    ),
    Mutation(
        "ledger-head-behind-fork-unchecked",
        "dpgui/privacy/ledger_store.py",
        "if recorded.seq < ours.seq and recorded.hash != self._hashes[recorded.seq]:",
        "if False:",
        "ledger file: a longer ledger forked from its head file (another copy's history) goes unnoticed",
        ("tests/privacy/test_ledger_head.py",),
    ),
    Mutation(
        "ledger-dataset-latest-hash-only",
        "dpgui/privacy/ledger.py",
        "            lambda seen: seen.sha256 == sha256,\n",
        "            lambda seen: seen.sha256 == sha256 and seen == self._datasets[seen.id].record,\n",
        "ledger: bytes a dataset had before an edit open as a new dataset with a fresh budget",
        ("tests/privacy/test_ledger.py",),
    ),
    Mutation(
        "ledger-dataset-latest-path-only",
        "dpgui/privacy/ledger.py",
        "            lambda seen: seen.path == path,\n",
        "            lambda seen: seen.path == path and seen == self._datasets[seen.id].record,\n",
        "ledger: a path a dataset left for a copy opens, once edited, as a new dataset with a fresh budget",
        ("tests/privacy/test_ledger.py",),
    ),
    Mutation(
        "release-job-priced-again",
        "dpgui/tasks/runner.py",
        "        if asked == spec:\n            return reviewed\n",
        "        if asked == spec:\n            pass\n",
        "app: Charge and run prices the release again, so a public file changed since the review is charged",
        (f"{_U}test_distance_views.py",),
    ),
    Mutation(
        "batch-run-private-inputs-unchecked",
        "dpgui/tasks/batch_run.py",
        "        refuse_private_inputs(run.prepared, record)\n",
        "        pass\n",
        "plan run: a release reading the private file as its queries or public sample is not refused",
        BATCH_RUN_TESTS,
    ),
    Mutation(
        "spec-cdf-not-snapped-up",
        "dpgui/tasks/spec.py",
        "snapped = tuple(d.snapped_up() if isinstance(d, NumericDomain) else d for d in self.domains)",
        "snapped = tuple(d for d in self.domains)",
        "CDF task: values snapped to the nearest grid point, so cdf(v) is not the share at or below v",
        WIRING_TESTS,
    ),
    Mutation(
        "plain-words-neighbours-add-remove",
        "dpgui/tasks/plain_words.py",
        "here, by replacing one record.",
        "here, by adding or removing one record.",
        "glossary: the neighbouring relation stated as add/remove, not replace-one",
        PLAIN_WORDS_TESTS,
    ),
    Mutation(
        "plain-words-independent-approximate",
        "dpgui/tasks/plain_words.py",
        '"Pure ε-DP; keeps every column',
        '"When δ > 0 is acceptable; keeps every column',
        "plain words: independent marginals (pure ε-DP) said to need δ > 0",
        PLAIN_WORDS_TESTS,
    ),
    # Session 29 (h29a): the core modules around the releases: the worker threads, the loaded dataset and
    # its errors, the command line's exit codes and commands, where the state lives, the progress helpers.
    Mutation(
        "worker-cancel-only-before-start",
        "dpgui/jobs/worker.py",
        "                if self._cancel.is_set():\n",
        "                if self._cancel.is_set() and not started:\n",
        "worker: a cancel honoured only before the first step (a running job cannot be stopped)",
        WORKER_TESTS,
    ),
    Mutation(
        "worker-finish-now-never-sent",
        "dpgui/jobs/worker.py",
        "request = FINISH_NOW if started and not sent and self._finish.is_set() else None",
        "request = FINISH_NOW if started and sent and self._finish.is_set() else None",
        "worker: Finish now never reaches the run (AIM goes on to its last round)",
        WORKER_TESTS,
    ),
    Mutation(
        "worker-progress-always-full",
        "dpgui/jobs/worker.py",
        "self.signals.progress.emit(step.fraction, step.message)",
        "self.signals.progress.emit(1.0, step.message)",
        "worker: every step reported as 100% done",
        WORKER_TESTS,
    ),
    Mutation(
        "worker-partial-dropped",
        "dpgui/jobs/worker.py",
        "if step.partial is not None:",
        "if step.partial is None:",
        "worker: a step's partial result (the live plot) never emitted, None emitted instead",
        WORKER_TESTS,
    ),
    Mutation(
        "worker-result-dropped",
        "dpgui/jobs/worker.py",
        "self.signals.finished.emit(stop.value)",
        "self.signals.finished.emit(None)",
        "worker: the run's result not delivered (finished carries None)",
        WORKER_TESTS,
    ),
    Mutation(
        "worker-error-reported-as-result",
        "dpgui/jobs/worker.py",
        "self.signals.failed.emit(error)",
        "self.signals.finished.emit(None)",
        "worker: an error swallowed, the run reported as finished",
        WORKER_TESTS,
    ),
    Mutation(
        "worker-switch-interval-raised",
        "dpgui/jobs/worker.py",
        "if sys.getswitchinterval() > GUI_SWITCH_INTERVAL:",
        "if sys.getswitchinterval() != GUI_SWITCH_INTERVAL:",
        "worker: the thread switch interval raised to 0.5 ms when it was lower (a slower GUI)",
        WORKER_TESTS,
    ),
    Mutation(
        "pool-scan-cancel-not-passed",
        "dpgui/jobs/pool_job.py",
        "                worker.is_cancelled,\n",
        "                lambda: False,\n",
        "background job: a cancel not passed on to a scanning engine (the scan runs to its end)",
        WORKER_TESTS,
    ),
    Mutation(
        "pool-scan-progress-backwards",
        "dpgui/jobs/pool_job.py",
        'signals.progress.emit(fraction, f"{activity}: {fraction:.0%}")',
        'signals.progress.emit(1 - fraction, f"{activity}: {fraction:.0%}")',
        "background job: a scan's progress bar going backwards (1 - fraction)",
        WORKER_TESTS,
    ),
    Mutation(
        "pool-draw-cancel-is-failure",
        "dpgui/jobs/pool_job.py",
        "return isinstance(error, Cancelled | ScanCancelled | DrawCancelled)",
        "return isinstance(error, Cancelled | ScanCancelled)",
        "background job: a cancel between two noise draws reported as a failure",
        WORKER_TESTS,
    ),
    Mutation(
        "pool-finish-now-cancels",
        "dpgui/jobs/pool_job.py",
        "        self._worker.finish_now()\n",
        "        self._worker.cancel()\n",
        "background job: Finish now cancels the run (its result lost)",
        WORKER_TESTS,
    ),
    Mutation(
        "open-scan-cancel-not-passed",
        "dpgui/jobs/open_job.py",
        "cancelled=monitor.cancelled,",
        "cancelled=lambda: False,",
        "open job: a cancel not passed on to the engine's row count (the open cannot be stopped)",
        WORKER_TESTS,
    ),
    Mutation(
        "open-cancel-also-failed",
        "dpgui/jobs/open_job.py",
        "            self.cancelled.emit()\n            return\n",
        "            self.cancelled.emit()\n",
        "open job: a cancelled open also reported as failed (two outcomes)",
        WORKER_TESTS,
    ),
    Mutation(
        "open-compose-error-fails-open",
        "dpgui/jobs/open_job.py",
        "    except LedgerError:\n",
        "    except KeyError:\n",
        "open job: a ledger that cannot be read while composing ahead fails the open",
        WORKER_TESTS,
    ),
    Mutation(
        "latest-stale-outcome-shown",
        "dpgui/jobs/background.py",
        "if outcome.ticket != self._latest:",
        "if outcome.ticket > self._latest:",
        "planner previews: an older call's outcome shown after a newer call was made",
        WORKER_TESTS,
    ),
    Mutation(
        "latest-drop-ignored",
        "dpgui/jobs/background.py",
        '"""Forget the running call: its outcome will not be emitted."""\n        self._latest += 1\n',
        '"""Forget the running call: its outcome will not be emitted."""\n',
        "planner previews: a dropped call's outcome still shown",
        WORKER_TESTS,
    ),
    Mutation(
        "latest-error-swallowed",
        "dpgui/jobs/background.py",
        "return Outcome(ticket, None, error)",
        "return Outcome(ticket, None, None)",
        "planner previews: an error swallowed, the call reported done with no value",
        WORKER_TESTS,
    ),
    Mutation(
        "dataset-n-rows-off-by-one",
        "dpgui/data/dataset.py",
        "return len(self.frame)",
        "return len(self.frame) - 1",
        "dataset: the row count n one short (the header line subtracted twice)",
        DATA_CORE_TESTS,
    ),
    Mutation(
        "dataset-name-full-path",
        "dpgui/data/dataset.py",
        '"""The file name, as used in messages and the manifest."""\n        return self.path.name\n',
        '"""The file name, as used in messages and the manifest."""\n        return str(self.path)\n',
        "dataset: messages and the manifest name the private file by its full path (the custodian's folders)",
        DATA_CORE_TESTS,
    ),
    Mutation(
        "engines-auto-threshold-mib",
        "dpgui/data/engines.py",
        "AUTO_MIN_BYTES = 1 << 30\n",
        "AUTO_MIN_BYTES = 1 << 20\n",
        "engine choice: auto scans every file over 1 MiB out of core instead of over 1 GiB",
        DATA_CORE_TESTS,
    ),
    Mutation(
        "engines-auto-ram-half",
        "dpgui/data/backends/__init__.py",
        "return min(AUTO_MIN_BYTES, physical_memory() // 4)",
        "return min(AUTO_MIN_BYTES, physical_memory() // 2)",
        "engine choice: auto loads files up to half the RAM in memory, not a quarter",
        DATA_CORE_TESTS,
    ),
    Mutation(
        "errors-row-zero-based",
        "dpgui/data/errors.py",
        'return f"{file_name}, row {position + 1}, column {str(column)!r}"',
        'return f"{file_name}, row {position}, column {str(column)!r}"',
        "data errors: a bad cell's row named 0-based (one row above the one to fix)",
        DATA_CORE_TESTS,
    ),
    Mutation(
        "errors-folder-refused",
        "dpgui/data/errors.py",
        "if path.exists() and not path.is_file() and not path.is_dir():",
        "if path.exists() and not path.is_file():",
        "data errors: a Parquet folder refused as not a regular file",
        DATA_CORE_TESTS,
    ),
    Mutation(
        "monitor-cancel-never",
        "dpgui/data/backends/monitor.py",
        "        return self._cancelled()\n",
        "        return False\n",
        "scan monitor: the watching run's cancel never asked (a scan cannot be stopped)",
        WORKER_TESTS,
    ),
    Mutation(
        "monitor-keeps-first-cancel",
        "dpgui/data/backends/monitor.py",
        "self._progress, self._cancelled = progress, cancelled",
        "self._progress = progress",
        "scan monitor: a new run's cancel not watched (the engine asks nobody)",
        WORKER_TESTS,
    ),
    Mutation(
        "exit-ledger-busy-as-budget",
        "dpgui/cli/errors.py",
        "except (LedgerReadOnly, LedgerBusy) as refusal:",
        "except LedgerReadOnly as refusal:",
        "CLI: a busy ledger reported as a budget refusal (exit 3) instead of an error to retry (exit 2)",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "exit-os-error-no-file",
        "dpgui/cli/errors.py",
        'where = error.filename if error.filename is not None else ""',
        'where = ""',
        "CLI: a file error's message does not name the file",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "main-handler-unguarded",
        "dpgui/cli/main.py",
        "return run_guarded(lambda: args.handler(args))",
        "return args.handler(args)",
        "CLI: a command's input error ends in a traceback and exit 1, not one line and exit 2",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "arguments-negative-exponent-refused",
        "dpgui/cli/arguments.py",
        r"([eE][-+]?{DIGITS})?$|^-(inf",
        r"$|^-(inf",
        "CLI: --bounds -1e3 0 refused (a negative number in scientific notation read as an option)",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "query-point-reversed",
        "dpgui/cli/query_cmd.py",
        'return [float(x) for x in text.split(",")]',
        'return [float(x) for x in reversed(text.split(","))]',
        "CLI query distance: --point's coordinates taken in the reverse column order",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "query-data-units-normalised",
        "dpgui/cli/query_cmd.py",
        "answers.append(structure.answer_in_data_units(queries))",
        "answers.append(structure.answer(queries))",
        "CLI query distance: the answer in data units stated in normalised units",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "learning-label-as-feature",
        "dpgui/cli/release_learning.py",
        "columns=(args.feature,),",
        "columns=(args.label,),",
        "CLI threshold/point: the label column learned from as the feature",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "rectangle-features-reversed",
        "dpgui/cli/release_rectangle.py",
        "        columns=features,",
        "        columns=features[::-1],",
        "CLI rectangle: the features paired with each other's bounds (columns in reverse order)",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "algorithms-flag-is-parameter-name",
        "dpgui/cli/algorithms_cmd.py",
        "flag = flag_of(parameter.name)",
        "flag = parameter.name",
        "CLI algorithms: a parameter listed by its name, not the flag that sets it",
        CLI_CORE_TESTS,
    ),
    Mutation(
        "paths-home-env-ignored",
        "dpgui/paths.py",
        "override = os.environ.get(HOME_ENV)",
        'override = os.environ.get("DPGUI_DIR")',
        "paths: DPGUI_HOME ignored (the ledger and settings kept in the platform's folder)",
        PATHS_TESTS,
    ),
    Mutation(
        "paths-group-permissions-kept",
        "dpgui/paths.py",
        "if stat.S_IMODE(path.stat().st_mode) & 0o077:",
        "if stat.S_IMODE(path.stat().st_mode) & 0o007:",
        "paths: a state folder readable by its group left as it is (the ledger names the private files)",
        PATHS_TESTS,
    ),
    Mutation(
        "progress-map-steps-request-dropped",
        "dpgui/algorithms/progress.py",
        "request, pending = (pending if request is None else request), None",
        "request, pending = pending, None",
        "progress: a Finish now sent into a named or shared run lost on its way",
        PROGRESS_TESTS,
    ),
    Mutation(
        "progress-map-steps-run-not-closed",
        "dpgui/algorithms/progress.py",
        "        run.close()\n",
        "        pass\n",
        "progress: closing a named or shared run leaves the inner run open (its cleanup never runs)",
        PROGRESS_TESTS,
    ),
    # Session 29 (lead): the command line's learning, rectangle, query and fingerprint commands, exit codes.
    Mutation(
        "learning-delta-dropped",
        "dpgui/cli/release_learning.py",
        "        delta=args.delta,\n",
        "        delta=0.0,\n",
        "CLI threshold/point: --delta ignored (an approximate learner run and charged at δ = 0)",
        CLI_TESTS,
    ),
    Mutation(
        "learning-positive-ignored",
        "dpgui/cli/release_learning.py",
        "        positive=args.positive,\n",
        "        positive=None,\n",
        "CLI threshold/point: --positive ignored (the label read with the default 0/1 meaning)",
        CLI_TESTS,
    ),
    Mutation(
        "learning-public-ignored",
        "dpgui/cli/release_learning.py",
        "        public=release_cmd.public_sample(args),\n",
        "        public=None,\n",
        "CLI threshold/point: --public silently ignored",
        CLI_TESTS,
    ),
    Mutation(
        "learning-epsilon-doubled",
        "dpgui/cli/release_learning.py",
        "        epsilon=args.epsilon,\n",
        "        epsilon=2 * args.epsilon,\n",
        "CLI threshold/point: twice the ε asked for run and charged",
        CLI_TESTS,
    ),
    Mutation(
        "learning-missing-policy-ignored",
        "dpgui/cli/release_learning.py",
        "MissingPolicy(MissingKind(args.missing), args.fill)",
        "MissingPolicy(MissingKind.IMPUTE, args.fill)",
        "CLI threshold/point: --missing fail ignored (missing cells imputed)",
        CLI_TESTS,
    ),
    Mutation(
        "rectangle-positive-ignored",
        "dpgui/cli/release_rectangle.py",
        "        positive=args.positive,\n",
        "        positive=None,\n",
        "CLI rectangle: --positive ignored",
        CLI_TESTS,
    ),
    Mutation(
        "rectangle-public-ignored",
        "dpgui/cli/release_rectangle.py",
        "        public=release_cmd.public_sample(args),\n",
        "        public=None,\n",
        "CLI rectangle: --public silently ignored",
        CLI_TESTS,
    ),
    Mutation(
        "rectangle-epsilon-doubled",
        "dpgui/cli/release_rectangle.py",
        "        epsilon=args.epsilon,\n",
        "        epsilon=2 * args.epsilon,\n",
        "CLI rectangle: twice the ε asked for run and charged",
        CLI_TESTS,
    ),
    Mutation(
        "rectangle-first-feature-only",
        "dpgui/cli/release_rectangle.py",
        "    features = args.features\n",
        "    features = args.features[:1]\n",
        "CLI rectangle: only the first of --features learned",
        CLI_TESTS,
    ),
    Mutation(
        "query-data-units-dropped",
        "dpgui/cli/query_cmd.py",
        "    if structure.in_data_units:",
        "    if False:",
        "CLI query distance: the answers in the columns' units never printed",
        CLI_TESTS,
    ),
    Mutation(
        "query-wrong-columns",
        "dpgui/cli/query_cmd.py",
        "queries = load_queries(args.queries, structure.columns)",
        "queries = load_queries(args.queries, structure.columns[::-1])",
        "CLI query distance: the queries file's columns read in reverse order",
        CLI_TESTS,
    ),
    Mutation(
        "exit-precondition-as-usage",
        "dpgui/cli/errors.py",
        "return EXIT_USAGE if failure.parameters_unusable else EXIT_PRECONDITION",
        "return EXIT_USAGE",
        "CLI: a precondition refusal (too few records) exits 2 instead of 4",
        CLI_TESTS,
    ),
    Mutation(
        "exit-tampered-as-usage",
        "dpgui/cli/errors.py",
        'print(f"dpgui: the ledger cannot be trusted: {damage}", file=sys.stderr)\n'
        "        return EXIT_BUDGET",
        'print(f"dpgui: the ledger cannot be trusted: {damage}", file=sys.stderr)\n        return EXIT_USAGE',
        "CLI: a tampered ledger exits 2 instead of 3",
        CLI_TESTS,
    ),
    Mutation(
        "exit-budget-as-ok",
        "dpgui/cli/errors.py",
        '        print(f"dpgui: budget refused: {refusal}", file=sys.stderr)\n        return EXIT_BUDGET',
        '        print(f"dpgui: budget refused: {refusal}", file=sys.stderr)\n        return EXIT_OK',
        "CLI: an overspend refusal exits 0, as if released",
        CLI_TESTS,
    ),
    Mutation(
        "exit-interrupt-as-ok",
        "dpgui/cli/errors.py",
        "        return EXIT_INTERRUPTED",
        "        return EXIT_OK",
        "CLI: Ctrl-C exits 0, as if the release had finished",
        CLI_TESTS,
    ),
    Mutation(
        "exit-cancel-message-dropped",
        "dpgui/cli/errors.py",
        '        print("dpgui: cancelled (a run that had read the private data stays charged)", '
        "file=sys.stderr)\n",
        "",
        "CLI: Ctrl-C ends silently, without saying the run stays charged",
        CLI_TESTS,
    ),
    Mutation(
        "fingerprint-raw-sha",
        "dpgui/cli/fingerprint_cmd.py",
        'print(f"{keyed_fingerprint(sha256_source(args.file))}  {args.file.name}")',
        'print(f"{sha256_source(args.file)}  {args.file.name}")',
        "CLI fingerprint: the file's raw SHA-256 printed instead of the keyed fingerprint manifests state",
        CLI_TESTS,
    ),
    Mutation(
        "review-lattice-advice-dropped",
        "dpgui/tasks/review.py",
        "step = None if public is None else coarser_public_step(domain, public)",
        "step = None",
        "review: a grid finer than every public sample value no longer names the coarser step",
        ("tests/tasks/test_review.py",),
    ),
    # Session 33: the sparse vector's test in exact arithmetic.
    Mutation(
        "svt-float-comparison",
        "dpgui/privacy/sparse_vector.py",
        "above = Fraction(value) - self._threshold >= self._threshold_noise - noise",
        "above = float(value) + noise >= float(self._threshold) + self._threshold_noise",
        "sparse vector: value + noise compared with threshold + noise in floating point (rounding differs)",
        ("tests/algorithms/distance/test_sparse_vector_test_is_exact.py",),
    ),
    Mutation(
        "huang-roth-svt-float-quotient",
        "dpgui/algorithms/distance/huang_roth.py",
        "return abs(Fraction(guess) * n * RESOLUTION - grid_sums) / (coordinates * RESOLUTION)",
        "return Fraction(abs(guess - grid_sums / (n * RESOLUTION)) / (coordinates / n))",
        "Huang-Roth: the sparse vector's test value as a float quotient (moves by 1 + 2^-52 for neighbours)",
        ("tests/algorithms/distance/test_sparse_vector_test_is_exact.py",),
    ),
    # Session 33: a fuzz run's findings.
    Mutation(
        "loaders-workbook-header-unchecked",
        "dpgui/data/loaders.py",
        '    ".xlsx": _excel_names,\n',
        "",
        "loaders: a workbook's repeated column name no longer refused (pandas releases it as 'x.1')",
        ("tests/data/test_loaders.py",),
    ),
    Mutation(
        "text-format-bom-overrides-declaration",
        "dpgui/data/text_format.py",
        "if declared is not None and _family(declared) != family:",
        "if declared is not None and False:",
        "text files: a declared encoding the byte-order mark contradicts read by the mark, the manifest "
        "stating the declaration",
        ("tests/data/test_declared_encoding.py",),
    ),
    Mutation(
        "aim-batch-growth-ignored",
        "dpgui/algorithms/marginal_table.py",
        "grown_by = model.size_mb(cliques) - before if this_round else 0.0",
        "grown_by = 0.0",
        "AIM: a last round's later picks sized against the model before the round (its growth ignored)",
        ("tests/algorithms/test_marginal_table.py",),
    ),
    Mutation(
        "auto-refusal-unnamed",
        "dpgui/tasks/runner.py",
        "if len(names) == len(refusals)",
        "if True",
        "auto's refusal: a reason only some algorithms give no longer names them",
        ("tests/tasks/test_auto_refusal_names_the_algorithms.py",),
    ),
    Mutation(
        "public-sample-read-twice",
        "dpgui/data/public.py",
        "        _load.remember(dataset, encoding)\n",
        "",
        "public sample: the frame read again on first use (on the GUI thread) instead of the worker's read",
        ("tests/ui/test_public_sample_read_off_the_gui_thread.py",),
    ),
    Mutation(
        "public-sample-menu-read-not-dropped",
        "dpgui/ui/main_window.py",
        "        self.public_reader.drop()\n",
        "",
        "app: a public sample still read from the menu replaces the one a project loaded meanwhile",
        ("tests/ui/test_public_sample_read_off_the_gui_thread.py",),
    ),
    Mutation(
        "checks-infinity-unexplained",
        "dpgui/data/checks.py",
        "    if is_infinite(value):\n",
        "    if False:\n",
        "data check: a cell refused as 'inf' no longer says it read as infinity (INF, 1e309)",
        ("tests/data/test_checks.py",),
    ),
    Mutation(
        "ledger-unreturned-reservation-kept",
        "dpgui/privacy/ledger.py",
        "            self._refund_unreturned(reservations)\n",
        "            pass\n",
        "ledger: Ctrl-C after a reservation's line was written leaves the run that never started charged",
        ("tests/privacy/test_ledger_head.py",),
    ),
    Mutation(
        "ledger-head-left-behind",
        "dpgui/privacy/ledger_store.py",
        "            if self._head_behind():\n",
        "            if False:\n",
        "ledger: a head left behind by a crash stays behind, so removing the last line goes unseen",
        ("tests/privacy/test_ledger_head.py",),
    ),
    Mutation(
        "checks-clipping-unwarned",
        "dpgui/data/checks.py",
        "if isinstance(domain, NumericDomain) and check.out_of_bounds > OUTSIDE_WARNING * check.rows:",
        "if isinstance(domain, NumericDomain) and check.out_of_bounds > check.rows:",
        "data check: a declaration that clips most of a column to its bounds passes without a warning",
        ("tests/data/test_checks.py",),
    ),
)


def problems(root: Path = ROOT) -> list[str]:
    """Why a mutation no longer applies (its old text is missing or ambiguous), one line each."""
    found = []
    names = [m.name for m in MUTATIONS]
    found += [f"duplicate mutation name {n!r}" for n in sorted(set(names)) if names.count(n) > 1]
    for mutation in MUTATIONS:
        path = root / mutation.path
        if not path.is_file():
            found.append(f"{mutation.name}: {mutation.path} does not exist")
            continue
        count = path.read_text(encoding="utf-8").count(mutation.old)
        if count != 1:
            found.append(f"{mutation.name}: old text found {count} times in {mutation.path} (need exactly 1)")
        if mutation.old == mutation.new:
            found.append(f"{mutation.name}: old and new text are identical")
    return found


def _copy_repository(destination: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".ruff_cache", "*.pyc")
    # tests read benchmarks/*.json; the command-line tests also check docs/ and the README
    for name in ("dpgui", "tests", "resources", "benchmarks", "docs"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, destination / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, destination / name)


def _pytest(copy: Path, folders: tuple[str, ...]) -> tuple[str, float]:
    """'caught' (tests fail), 'survived' (tests pass) or 'timeout', and the seconds taken."""
    env = {**_environment(), "PYTHONPATH": str(copy), "DPGUI_TEST_TIME_LIMIT": str(TEST_TIME_LIMIT_SECONDS)}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *folders]
    start = time.monotonic()
    try:
        result = subprocess.run(command, cwd=copy, env=env, capture_output=True, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start
    return ("survived" if result.returncode == 0 else "caught"), time.monotonic() - start


def _environment() -> dict[str, str]:
    import os

    return {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


def _check_isolation(copy: Path) -> None:
    """The copy's dpgui must be the one imported (an editable install elsewhere must not shadow it)."""
    env = {**_environment(), "PYTHONPATH": str(copy)}
    probe = [sys.executable, "-c", "import dpgui; print(dpgui.__file__)"]
    imported = subprocess.run(probe, cwd=copy, env=env, capture_output=True, text=True, check=True).stdout
    if not Path(imported.strip()).resolve().is_relative_to(copy.resolve()):
        raise SystemExit(f"the copy imports dpgui from {imported.strip()}, not from {copy}")


def run(selected: list[Mutation]) -> list[tuple[Mutation, str, float]]:
    results = []
    with tempfile.TemporaryDirectory(prefix="planted-errors-") as tmp:
        copy = Path(tmp)
        _copy_repository(copy)
        _check_isolation(copy)
        folders = tuple(dict.fromkeys(folder for m in selected for folder in m.tests))
        baseline, seconds = _pytest(copy, folders)
        print(f"baseline (no mutation): {'passes' if baseline == 'survived' else baseline} ({seconds:.0f} s)")
        if baseline != "survived":
            raise SystemExit("the unmutated tests do not pass; fix them before planting errors")
        for mutation in selected:
            target = copy / mutation.path
            original = target.read_text(encoding="utf-8")
            target.write_text(original.replace(mutation.old, mutation.new, 1), encoding="utf-8")
            try:
                outcome, seconds = _pytest(copy, mutation.tests)
            finally:
                target.write_text(original, encoding="utf-8")
            print(f"{mutation.name:32} {outcome:9} {seconds:6.0f} s  {mutation.description}", flush=True)
            results.append((mutation, outcome, seconds))
    return results


Result = tuple[Mutation, str, float]
_ROW = re.compile(
    r"^\| `(?P<name>[^`]+)` \| .* \| (?P<outcome>caught|survived|timeout) \| (?P<seconds>\d+) \|"
)


def earlier_results(text: str) -> list[Result]:
    """The rows of a committed ``planted_errors.md`` whose mutation is still listed."""
    by_name = {m.name: m for m in MUTATIONS}
    found = [match for line in text.splitlines() if (match := _ROW.match(line))]
    return [(by_name[m["name"]], m["outcome"], float(m["seconds"])) for m in found if m["name"] in by_name]


def merged(earlier: list[Result], latest: list[Result]) -> list[Result]:
    """Every listed mutation's latest result, in the list's order (a run with ``--only`` rewrites its
    own rows and keeps the others)."""
    by_name = {m.name: (m, outcome, seconds) for m, outcome, seconds in [*earlier, *latest]}
    return [by_name[m.name] for m in MUTATIONS if m.name in by_name]


def markdown(results: list[Result]) -> str:
    caught = sum(outcome == "caught" for _, outcome, _ in results)
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Planted errors: latest run",
        "",
        f"Written by `python tools/planted_errors.py --write` on {when}: each one-line mutation is applied",
        "alone to a temporary copy of the repository, then `pytest -x -q` runs its test folders on it (the",
        f"privacy, algorithm and task tests, `{' '.join(TEST_DIRS)}`; for an error outside the mechanisms",
        "also the export, data and command-line tests; for the planner's formulas the planner tests; for the",
        "data's grids, engines and missing values, and an export's files and report, the data, release or",
        "task tests; for the app's jobs the job tests; for the review gate the command-line tests that run",
        "it). A mutation is *caught* when the tests fail. A run with `--only` rewrites its own rows",
        "and keeps the others. The list itself lives in `tools/planted_errors.py`;",
        "`tests/tools/test_planted_errors.py` checks in CI that every mutation still applies. Constants that",
        "are conservative rather than wrong (not planted) are listed in the script's docstring.",
        "",
        f"**{caught} of {len(results)} caught.**",
        "",
        "| mutation | file | result | seconds | planted error |",
        "| --- | --- | --- | ---: | --- |",
    ]
    for mutation, outcome, seconds in results:
        lines.append(
            f"| `{mutation.name}` | `{mutation.path}` | {outcome} | {seconds:.0f} | {mutation.description} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only check that every mutation applies")
    parser.add_argument("--write", action="store_true", help="write tools/planted_errors.md")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutations")
    args = parser.parse_args(argv)
    found = problems()
    for problem in found:
        print(f"DOES NOT APPLY: {problem}")
    if args.check or found:
        return 1 if found else 0
    selected = [m for m in MUTATIONS if not args.only or m.name in args.only]
    unknown = set(args.only or ()) - {m.name for m in MUTATIONS}
    if unknown:
        parser.error(f"unknown mutations: {', '.join(sorted(unknown))}")
    results = run(selected)
    survivors = [m.name for m, outcome, _ in results if outcome != "caught"]
    print(
        f"{len(results) - len(survivors)} of {len(results)} caught"
        + (f"; NOT caught: {survivors}" if survivors else "")
    )
    if args.write:
        table = ROOT / "tools" / "planted_errors.md"
        earlier = earlier_results(table.read_text(encoding="utf-8")) if table.exists() else []
        table.write_text(markdown(merged(earlier, results)), encoding="utf-8")
    return 1 if survivors else 0


if __name__ == "__main__":
    raise SystemExit(main())
