"""AIM, MST and independent marginals: the budget the code requests composes to the spec's, the selection
scores have the replace-one sensitivity the mechanism is told, and the tables look like their data."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms.pgm import coarsen
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom
from tests.exact import gaussian_zcdp, log_probabilities
from tests.recording import RecordingRandom as ObservingRandom
from tests.recording import chosen_law


class RecordingRandom(SeededRandom):
    """Seeded randomness that records every noise scale the code asks for."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.sigmas: list[float] = []
        self.scales: list[float] = []

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        self.sigmas.append(sigma)
        return super().discrete_gaussian(sigma, size)

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        self.scales.append(scale)
        return super().discrete_laplace(scale, size)


@pytest.fixture
def selections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, float]]:
    """(epsilon, sensitivity) of every exponential mechanism the table algorithms run."""
    seen: list[tuple[float, float]] = []
    real = mt.exponential_mechanism

    def recording(scores, epsilon, rng, sensitivity=1.0):
        seen.append((epsilon, sensitivity))
        return real(scores, epsilon, rng, sensitivity=sensitivity)

    monkeypatch.setattr(mt, "exponential_mechanism", recording)
    return seen


def _data(n: int = 3000, seed: int = 0) -> tuple[np.ndarray, list[int]]:
    """Four columns with a strong chain a -> b -> c and an independent d."""
    generator = np.random.default_rng(seed)
    a = generator.integers(0, 4, n)
    b = (a + (generator.random(n) < 0.2)) % 4
    c = (b + (generator.random(n) < 0.2)) % 4
    d = generator.integers(0, 3, n)
    return np.stack([a, b, c, d], axis=1), [4, 4, 4, 3]


def _marginals(rows: np.ndarray, sizes: list[int]) -> mt.Marginals:
    def count(cliques):
        out = []
        for clique in cliques:
            shape = tuple(sizes[i] for i in clique)
            flat = np.ravel_multi_index(tuple(rows[:, i] for i in clique), shape)
            out.append(np.bincount(flat, minlength=math.prod(shape)).reshape(shape))
        return out

    return count


def _tv2(true: np.ndarray, synthetic: np.ndarray, sizes: list[int]) -> float:
    errors = []
    for clique in itertools.combinations(range(len(sizes)), 2):
        (t,), (s,) = _marginals(true, sizes)([clique]), _marginals(synthetic, sizes)([clique])
        errors.append(0.5 * np.abs(t / t.sum() - s / s.sum()).sum())
    return float(np.mean(errors))


def _zcdp(rng: RecordingRandom, selections: list[tuple[float, float]]) -> float:
    measured = math.fsum(gaussian_zcdp(math.sqrt(2), sigma).rho for sigma in rng.sigmas)
    return measured + math.fsum(eps**2 / 8 for eps, _ in selections)


def test_mst_spends_exactly_rho_in_thirds_with_replace_one_constants(selections):
    rows, sizes = _data()
    rng, rho = RecordingRandom(1), 0.5
    release = run_to_end(mt.mst_table(sizes, _marginals(rows, sizes), len(rows), rho, 500, rng))
    d = len(sizes)
    assert len(rng.sigmas) == d + d - 1 and len(selections) == d - 1
    # 1-way: rho/3 over d marginals; sigma = 1/sqrt(rho_i) (L2 = sqrt 2), not the papers' 1/sqrt(2 rho_i)
    assert rng.sigmas[0] == pytest.approx(1 / math.sqrt(rho / 3 / d))
    assert rng.sigmas[-1] == pytest.approx(1 / math.sqrt(rho / 3 / (d - 1)))
    assert all(s == 2 for _, s in selections)
    assert _zcdp(rng, selections) == pytest.approx(rho, rel=1e-9)
    assert release.total_cost == pytest.approx(rho, rel=1e-9)
    assert release.rows.shape == (500, d)


def test_mst_on_two_columns_takes_the_only_edge_for_free_and_measures_with_halves(selections):
    rows, sizes = _data()
    rows, sizes = rows[:, :2], sizes[:2]
    rng, rho = RecordingRandom(4), 0.5
    release = run_to_end(mt.mst_table(sizes, _marginals(rows, sizes), len(rows), rho, 300, rng))
    assert not selections  # the one pair is the tree whatever the data: no mechanism runs
    assert rng.sigmas == [pytest.approx(1 / math.sqrt(rho / 4))] * 2 + [pytest.approx(1 / math.sqrt(rho / 2))]
    assert _zcdp(rng, selections) == pytest.approx(rho, rel=1e-9)
    assert release.total_cost == pytest.approx(rho, rel=1e-9) == release.spent_by_noise
    assert [(s.clique, s.epsilon, s.cost) for s in release.selected] == [((0, 1), 0.0, 0.0)]


def test_aim_on_one_column_runs_no_mechanism_and_measures_all_of_rho(selections):
    rows, sizes = _data()
    rows, sizes = rows[:, :1], sizes[:1]
    rng, rho = RecordingRandom(5), 0.3
    release = run_to_end(mt.aim_table(sizes, _marginals(rows, sizes), len(rows), rho, 200, rng))
    assert not selections and release.selected and all(s.cost == 0 for s in release.selected)
    rounds_rho = rho - math.fsum(mt.one_way_budgets(sizes, rho, mt.ONE_WAY_SHARE))
    # the first round measures its whole share, the selection's part included
    assert rng.sigmas[1] == pytest.approx(mt.gaussian_sigma(rounds_rho / mt.ROUNDS_PER_COLUMN))
    assert _zcdp(rng, selections) == pytest.approx(rho, rel=1e-6) and _zcdp(rng, selections) <= rho
    assert release.spent_by_noise == pytest.approx(rho, rel=1e-6)


def test_aim_spends_at_most_rho_and_uses_sensitivity_twice_the_largest_weight(selections):
    rows, sizes = _data()
    rng, rho = RecordingRandom(2), 0.2
    release = run_to_end(
        mt.aim_table(sizes, _marginals(rows, sizes), len(rows), rho, len(rows), rng, max_rounds=3)
    )
    weights = mt.aim_weights(mt.downward_closure(mt.workload(4, 2)), mt.workload(4, 2))
    assert selections and all(s == 2 * weights.max() for _, s in selections)
    spent = _zcdp(rng, selections)
    assert spent <= rho and spent == pytest.approx(rho, rel=1e-6)
    assert release.total_cost == pytest.approx(spent, rel=1e-9)
    assert len(release.selected) <= 3


def test_independent_is_pure_epsilon_with_scale_2d_over_epsilon():
    rows, sizes = _data()
    rng = RecordingRandom(3)
    release = run_to_end(mt.independent_table(sizes, _marginals(rows, sizes), len(rows), 0.8, 100, rng))
    assert rng.scales == [pytest.approx(2 * 4 / 0.8)] * 4 and not rng.sigmas
    assert math.fsum(2 / scale for scale in rng.scales) == pytest.approx(0.8)  # L1 sensitivity 2 each
    assert release.accounting is mt.Accounting.PURE and release.total_cost == pytest.approx(0.8)


def _neighbours(rows: np.ndarray, sizes: list[int]):
    """Every dataset made by replacing row 0 with another record."""
    for record in itertools.product(*(range(s) for s in sizes)):
        other = rows.copy()
        other[0] = record
        yield other


def test_aim_selection_is_epsilon_dp_exactly_on_a_tiny_domain_and_needs_the_factor_two():
    sizes = [2, 2, 2]
    rows = np.array([[0, 1, 1], [1, 1, 0], [0, 0, 0], [1, 1, 1], [0, 0, 1]])
    work = mt.workload(3, 2)
    candidates = mt.downward_closure(work)
    weights = mt.aim_weights(candidates, work)
    counts = np.array([mt.cells(sizes, c) for c in candidates], float)
    model = {c: np.full(tuple(sizes[i] for i in c), 7.0 / mt.cells(sizes, c)) for c in candidates}
    eps, sigma = 1.0, 0.5

    def scores(data: np.ndarray) -> np.ndarray:
        true = _marginals(data, sizes)(candidates)
        errors = np.array([np.abs(t - model[c]).sum() for t, c in zip(true, candidates, strict=True)])
        return mt.aim_scores(errors, weights, sigma, counts)

    def log_p(data: np.ndarray, sensitivity: float) -> np.ndarray:
        return log_probabilities(eps * scores(data) / (2 * sensitivity))

    def worst(sensitivity: float) -> float:
        base = log_p(rows, sensitivity)
        return max(np.abs(log_p(other, sensitivity) - base).max() for other in _neighbours(rows, sizes))

    assert worst(2 * weights.max()) <= eps + 1e-12
    moves = np.max([np.abs(scores(other) - scores(rows)) for other in _neighbours(rows, sizes)], axis=0)
    assert (moves <= 2 * weights + 1e-9).all()
    assert moves.max() == pytest.approx(2 * weights.max())  # the papers' w_r would understate it


def test_mst_edge_scores_move_by_at_most_two():
    sizes = [3, 2, 2]
    rows = np.array([[2, 1, 0], [0, 0, 0], [1, 1, 1], [0, 0, 1]])
    pairs = list(itertools.combinations(range(3), 2))
    model = {p: np.full(tuple(sizes[i] for i in p), 1.5) for p in pairs}

    def scores(data: np.ndarray) -> np.ndarray:
        true = _marginals(data, sizes)(pairs)
        return np.array([np.abs(t - model[p]).sum() for t, p in zip(true, pairs, strict=True)])

    moves = [np.abs(scores(other) - scores(rows)).max() for other in _neighbours(rows, sizes)]
    assert max(moves) == pytest.approx(mt.L1_SENSITIVITY)


def test_joint_models_keep_the_correlations_independent_marginals_lose():
    rows, sizes = _data(4000)
    n, marginals = len(rows), _marginals(rows, sizes)
    mst = run_to_end(mt.mst_table(sizes, marginals, n, 1.0, n, SeededRandom(4)))
    independent = run_to_end(mt.independent_table(sizes, marginals, n, 5.0, n, SeededRandom(5)))
    assert mst.rows.min() >= 0 and (mst.rows.max(axis=0) < np.array(sizes)).all()
    assert _tv2(rows, mst.rows, sizes) < 0.5 * _tv2(rows, independent.rows, sizes)


def test_simplex_projection_keeps_the_total_and_no_negative_count():
    projected = mt.project_to_simplex(np.array([5.0, -3.0, 10.0, 1.0]), 12.0)
    assert projected.sum() == pytest.approx(12.0) and (projected >= 0).all()
    assert projected[1] == 0 and projected[2] > projected[0] > projected[3]


# --- AIM's coarsened candidates (merged adjacent bins of ordered columns) -----------------------------


def _coarse_data() -> tuple[np.ndarray, list[int]]:
    """Two ordered 4-cell columns and a 2-cell one, small enough to enumerate every neighbour."""
    rows = np.array([[0, 1, 0], [3, 2, 1], [1, 1, 0], [2, 3, 1], [0, 0, 0], [3, 3, 1], [1, 0, 1]])
    return rows, [4, 4, 2]


def test_coarse_candidates_merge_only_ordered_columns_larger_than_the_level():
    candidates = mt.coarse_candidates([(0,), (0, 1), (0, 2), (1, 2)], [4, 4, 2], [True, False, True], [2])
    assert candidates == [
        ((0,), None),
        ((0, 1), None),
        ((0, 1), (2, 4)),
        ((0, 2), None),
        ((0, 2), (2, 2)),
        ((1, 2), None),
    ]


def test_a_coarsened_marginal_still_has_l2_sensitivity_sqrt_two_under_replace_one():
    rows, sizes = _coarse_data()
    base = coarsen(_marginals(rows, sizes)([(0, 1)])[0], (2, 2))
    moves = [
        np.linalg.norm((coarsen(_marginals(other, sizes)([(0, 1)])[0], (2, 2)) - base).ravel())
        for other in _neighbours(rows, sizes)
    ]
    assert max(moves) == pytest.approx(math.sqrt(mt.L2_SQUARED))


def _first_log_weights(rows: np.ndarray, sizes: list[int], rng: ObservingRandom) -> tuple[np.ndarray, float]:
    """The log-weights AIM's first exponential mechanism samples from (as the code passes them to the
    random source) and that mechanism's epsilon."""
    release = run_to_end(
        mt.aim_table(sizes, _marginals(rows, sizes), len(rows), 0.5, 5, rng, max_rounds=1, levels=(2,))
    )
    return rng.log_weights[0], release.selected[0].epsilon


def test_aim_first_selection_over_coarse_candidates_is_epsilon_dp_given_the_same_measurements(monkeypatch):
    """Replace one record; the noise of the 1-way measurements is steered so both runs publish the same
    1-way values (the same past). Every candidate's log-weight, coarse ones included, then moves by at
    most eps / 2 (its score by at most the sensitivity the code states, 2 w_max), so the laws differ by at
    most eps; the bound is reached, so an understated sensitivity fails here. On 7 rows every cell's
    count is under 3 sigma: merging rare cells (post-processing of the same steered 1-way values in both
    runs) is turned off so that the candidates stay those of the declared cells."""
    monkeypatch.setattr(mt, "FIT_ITERS", 20)
    monkeypatch.setattr(mt, "RARE_SIGMAS", 0.0)
    rows, sizes = _coarse_data()
    ones = _marginals(rows, sizes)([(j,) for j in range(3)])
    base, eps = _first_log_weights(rows, sizes, ObservingRandom(zero=True))
    candidates = mt.coarse_candidates(mt.downward_closure(mt.workload(3, 2)), sizes, [True] * 3, [2])
    assert base.size == len(candidates) and any(bins for _, bins in candidates)
    worst_weight, worst_law = 0.0, 0.0
    for other in itertools.islice(_neighbours(rows, sizes), 0, None, 2):
        offsets = [
            b - a for a, b in zip(_marginals(other, sizes)([(j,) for j in range(3)]), ones, strict=True)
        ]
        steered = ObservingRandom(zero=True, noise=[int(v) for v in np.concatenate(offsets)])
        weights, other_eps = _first_log_weights(other, sizes, steered)
        assert other_eps == eps
        worst_weight = max(worst_weight, float(np.abs(weights - base).max()))
        worst_law = max(
            worst_law, float(np.abs(np.log(chosen_law(weights)) - np.log(chosen_law(base))).max())
        )
    assert eps / 2 * 0.9 <= worst_weight <= eps / 2 + 1e-9
    assert worst_law <= eps + 1e-9


def test_aim_with_coarse_candidates_spends_exactly_rho_at_sigma_one_over_sqrt_rho(selections, monkeypatch):
    monkeypatch.setattr(mt, "COARSE_FROM_TV", 0.0)  # coarse candidates at every round
    rows, sizes = _data()
    rng, rho = RecordingRandom(6), 0.05
    release = run_to_end(
        mt.aim_table(sizes, _marginals(rows, sizes), len(rows), rho, 100, rng, max_rounds=4, levels=(2,))
    )
    assert any(m.bins is not None for m in release.measured)  # a coarse marginal was measured
    for m, sigma in zip(release.measured, rng.sigmas, strict=True):
        assert m.scale == sigma and m.cost == pytest.approx(gaussian_zcdp(math.sqrt(2), sigma).rho)
    assert _zcdp(rng, selections) == pytest.approx(rho, rel=1e-6) and _zcdp(rng, selections) <= rho


def test_coarse_candidates_are_offered_only_while_the_declared_cells_are_too_noisy(selections):
    """sqrt(2/pi) sigma cells / (2 n) >= COARSE_FROM_TV: at a large budget every pair is measured at its
    declared cells; at a small one the same data and levels give coarse measurements."""
    assert mt.coarse_offered(10.0, np.array([100.0, 2000.0]), 20000).tolist() == [False, True]
    assert mt.coarse_offered(25.0, 100.0, 100) and not mt.coarse_offered(0.1, 100.0, 100)
    rows, sizes = _data()
    for rho, coarse in ((50.0, False), (0.001, True)):
        run = mt.aim_table(
            sizes, _marginals(rows, sizes), len(rows), rho, 9, RecordingRandom(6), max_rounds=6, levels=(2,)
        )
        release = run_to_end(run)
        assert any(m.bins is not None for m in release.measured) is coarse, rho


class TickingClock:
    """A clock that moves ``step`` seconds each time it is read: every AIM round then takes the same time."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_aim_time_limit_ends_the_rounds_early_and_the_last_one_spends_exactly_what_is_left(selections):
    rows, sizes = _data()
    rho = 0.2
    unlimited = run_to_end(mt.aim_table(sizes, _marginals(rows, sizes), len(rows), rho, 500, SeededRandom(4)))
    rng = RecordingRandom(4)
    limited = run_to_end(
        mt.aim_table(
            sizes, _marginals(rows, sizes), len(rows), rho, 500, rng, time_limit=30.0, clock=TickingClock(5)
        )
    )
    # the start reads 5 s; a round reads the clock at its start, around its selection and at its end: 15 s,
    # of which the 5 s selecting are left out of the limit's clock (10 s). Round k begins at 20k - 10 s, after
    # 15k - 10 s less the selections; with its longest round and the final refit it expects 15k - 10 + 2 * 10
    # s: over 30 s first at k = 2
    assert limited.time_limited and not unlimited.time_limited
    # round 2, cut short, measures one marginal per column (final_picks): 1 + 4 selections
    assert len(limited.selected) == 1 + len(sizes) < len(unlimited.selected)
    _assert_one_last_batch(limited.selected[1:])
    spent = _zcdp(rng, selections[-len(limited.selected) :])
    assert spent <= rho and spent == pytest.approx(rho, rel=1e-6)  # the last round took what was left
    assert limited.total_cost == pytest.approx(rho, rel=1e-6)


def test_the_time_the_exponential_mechanism_takes_is_left_out_of_the_time_limit(monkeypatch):
    """Privacy review, session 34: the exact sampler's time depends on the private scores (one dominant score
    takes longer), and the rounds' clock decides the released number of rounds. A selection that takes an
    hour changes nothing."""
    rows, sizes = _data()

    def selections(selection_seconds: float) -> int:
        clock = TickingClock(5)
        select = mt._aim_pick

        def slow(*args, **kwargs):
            clock.now += selection_seconds
            return select(*args, **kwargs)

        monkeypatch.setattr(mt, "_aim_pick", slow)
        run = mt.aim_table(
            sizes, _marginals(rows, sizes), len(rows), 0.2, 500, SeededRandom(4), time_limit=60.0, clock=clock
        )
        return len(run_to_end(run).selected)

    # 15k - 10 + 2 * 10 s (see the test above) is over 60 s first at k = 4: 3 + 4 selections
    assert selections(3600.0) == selections(0.0) == 3 + len(sizes)


def test_a_last_round_cut_short_sizes_each_candidate_once_not_once_per_pick(monkeypatch):
    """Recomputing every candidate's junction tree after each pick took 94 s of a 30 s limit on a 30-column
    table (a fuzz run): the round sizes each candidate once, then one tree per pick (the model so far)."""
    rows, sizes = _data()
    calls: list[int] = []
    real = mt.GraphicalModel.size_mb

    def counted(self, cliques):
        calls.append(len(cliques))
        return real(self, cliques)

    monkeypatch.setattr(mt.GraphicalModel, "size_mb", counted)
    run = mt.aim_table(
        sizes,
        _marginals(rows, sizes),
        len(rows),
        0.2,
        500,
        SeededRandom(4),
        time_limit=30.0,
        clock=TickingClock(5),
    )
    release = run_to_end(run)
    closure = len(mt.downward_closure(mt.workload(len(sizes), 2)))
    picks = release.last_picks
    assert release.time_limited and picks == len(sizes) > 1
    before = len(release.selected) - picks  # one pick a round before the last
    rounds = before + 1
    # per round each candidate once; in the last round also the check that the model is small enough to
    # batch (BATCH_MODEL_MB), the model before the picks and the model so far before each later pick
    assert len(calls) == rounds * closure + 2 + (picks - 1)


def _assert_one_last_batch(batch) -> None:
    """A last round cut short: distinct marginals, each at the same share of what was left."""
    assert len({(s.clique, s.bins) for s in batch}) == len(batch) > 1
    assert all(s.cost == pytest.approx(batch[0].cost) and s.epsilon == batch[0].epsilon for s in batch)


@pytest.mark.parametrize(
    ("remaining", "round_rho", "columns", "picks"),
    [(1.0, 0.3, 10, 3), (1.0, 0.01, 4, 4), (0.1, 0.3, 4, 1), (1.0, 0.0, 4, 1), (0.9, 0.3, 10, 3)],
)
def test_a_last_round_cut_short_measures_what_the_rounds_left_would_have_at_most_one_per_column(
    remaining, round_rho, columns, picks
):
    assert mt.final_picks(remaining, round_rho, columns) == picks


def test_aim_time_limit_does_not_count_the_time_spent_reading_the_data():
    """How long counting takes depends on the file's bytes, so the time limit must not see it: a count that
    takes 1,000 s leaves the rounds of a 100 s limit untouched."""
    rows, sizes = _data()
    clock, count = TickingClock(1), _marginals(rows, sizes)

    def slow_count(cliques):
        clock.now += 1000
        return count(cliques)

    release = run_to_end(
        mt.aim_table(sizes, slow_count, len(rows), 0.2, 500, SeededRandom(4), time_limit=100.0, clock=clock)
    )
    assert not release.time_limited and len(release.selected) > 1


def test_finish_now_sent_after_a_round_makes_the_next_round_the_last_and_spends_what_is_left(selections):
    """The app's Finish now: FINISH_NOW sent into the run after round 2 makes round 3 the last, which spends
    exactly what is left over one marginal per column (the total stays rho); sent at the very start, round
    1 is the last."""
    from dpgui.algorithms.marginal_table import AimRound
    from dpgui.algorithms.progress import FINISH_NOW

    rows, sizes = _data()
    rho = 0.2

    def finished_after(rounds: int, rng) -> mt.TableRelease:
        seen = 0

        def finish_after_the_rounds(step) -> str | None:
            nonlocal seen
            seen += isinstance(step.partial, AimRound)
            return FINISH_NOW if seen == rounds else None

        run = mt.aim_table(sizes, _marginals(rows, sizes), len(rows), rho, 500, rng)
        return run_to_end(run, finish_after_the_rounds)

    unlimited = run_to_end(mt.aim_table(sizes, _marginals(rows, sizes), len(rows), rho, 500, SeededRandom(4)))
    rng = RecordingRandom(4)
    finished = finished_after(2, rng)
    assert finished.finished_on_request and not unlimited.finished_on_request
    assert len(finished.selected) == 2 + len(sizes) < len(unlimited.selected)
    _assert_one_last_batch(finished.selected[2:])
    spent = _zcdp(rng, selections[-len(finished.selected) :])
    assert spent <= rho and spent == pytest.approx(rho, rel=1e-6)
    assert finished.total_cost == pytest.approx(rho, rel=1e-6)
    at_once = finished_after(0, SeededRandom(4))
    assert len(at_once.selected) == len(sizes) and at_once.finished_on_request


def test_aim_follows_its_stated_schedule(selections):
    """McKenna et al. 2022, Alg. 1, with this module's constants: the 1-way measurements take a quarter of
    rho; every round gives 0.9 of its budget to the measurement and 0.1 to the selection; annealing halves
    sigma and doubles epsilon; a round is the last once what remains is at most twice a round's cost. The
    budget tests above pass any of these changed (the total stays rho): this one fails."""
    rows, sizes = _data()
    rng, rho, d = RecordingRandom(5), 0.3, len(sizes)
    run = mt.aim_table(sizes, _marginals(rows, sizes), len(rows), rho, 100, rng)
    release = run_to_end(run)
    one_way = [gaussian_zcdp(math.sqrt(2), sigma).rho for sigma in rng.sigmas[:d]]
    assert math.fsum(one_way) == pytest.approx(0.25 * rho, rel=1e-9)
    rounds = [
        (gaussian_zcdp(math.sqrt(2), sigma).rho, eps**2 / 8, sigma, eps)
        for sigma, (eps, _) in zip(rng.sigmas[d:], selections, strict=True)
    ]
    *before, last = rounds
    used = math.fsum(one_way)
    for measure, select, _, _ in before:
        assert measure / (measure + select) == pytest.approx(0.9, rel=1e-9)
        assert rho - used > 2 * (measure + select) * (1 - 1e-9)  # not yet the last round
        used += measure + select
    steps = [(b[2] / a[2], b[3] / a[3]) for a, b in itertools.pairwise(before)]
    assert all(step == pytest.approx((1, 1)) or step == pytest.approx((0.5, 2)) for step in steps)
    assert any(step == pytest.approx((0.5, 2)) for step in steps)  # the run annealed at least once
    last_measure, last_select = last[:2]
    assert last_measure / (last_measure + last_select) == pytest.approx(0.9, rel=1e-6)
    assert used + last_measure + last_select == pytest.approx(rho, rel=1e-6)
    assert release.total_cost == pytest.approx(rho, rel=1e-6)


def test_aims_scores_and_mst_compression_use_their_papers_constants():
    """AIM's expected improvement w (error - sqrt(2/pi) sigma cells) (s4.2); MST keeps the cells whose noisy
    1-way count is at least 3 sigma (McKenna et al. 2021, s4); a coarse pair is offered from an expected
    noise TV of 0.1."""
    scores = mt.aim_scores(np.array([50.0]), np.array([2.0]), 4.0, np.array([10.0]))
    assert scores[0] == pytest.approx(2.0 * (50.0 - math.sqrt(2 / math.pi) * 4.0 * 10.0))
    kept = mt.compress(np.array([29.9, 30.0, 31.0, 5.0]), 10.0).mapping
    assert kept.tolist() == [2, 0, 1, 2]  # 30 and 31 kept, 29.9 and 5 merged into the rare cell
    cells_at_the_threshold = 0.1 * 2 * 1000 / (math.sqrt(2 / math.pi) * 5.0)
    assert mt.coarse_offered(5.0, cells_at_the_threshold * 1.01, 1000)
    assert not mt.coarse_offered(5.0, cells_at_the_threshold * 0.99, 1000)


def test_aim_anneals_when_the_estimate_moved_less_than_the_expected_noise():
    """McKenna et al. 2022, Alg. 1: anneal once the chosen marginal's estimate moved by at most
    sqrt(2/pi) sigma n_r in L1, the expected L1 norm of its measurement's noise. Doubling or halving that
    threshold changes when AIM anneals: both sides of it are checked."""
    sigma, cells = 3.0, 40.0
    threshold = math.sqrt(2 / math.pi) * sigma * cells
    assert mt.barely_moved(0.7 * threshold, sigma, cells)
    assert mt.barely_moved(threshold, sigma, cells)
    assert not mt.barely_moved(1.4 * threshold, sigma, cells)


def test_a_last_round_cut_short_on_a_large_model_measures_one_marginal(monkeypatch):
    """Over BATCH_MODEL_MB the batch's size checks, marginals and final fit would run far past the time
    limit: Finish now at the start then measures one marginal with all that is left, as Algorithm 1."""
    from dpgui.algorithms.progress import FINISH_NOW

    monkeypatch.setattr(mt, "BATCH_MODEL_MB", 0.0)
    rows, sizes = _data()
    counts = _marginals(rows, sizes)
    run = mt.aim_table(sizes, counts, len(rows), 0.2, 500, SeededRandom(4), clock=lambda: 0.0)
    release = run_to_end(run, lambda step: FINISH_NOW)
    assert release.finished_on_request
    assert len(release.selected) == 1 and release.last_picks == 1
    assert release.total_cost == pytest.approx(0.2, rel=1e-6)


def test_aim_offers_no_marginal_with_a_column_that_holds_one_value():
    """An audit's table had a column holding "only" in every row: AIM chose pairs with it (their error is
    the other column's, already measured) and spent rounds of its time limit on them."""
    rows, sizes = _data()
    rows = np.column_stack([rows, np.zeros(len(rows), dtype=rows.dtype)])  # the constant fifth column
    sizes = [*sizes, 3]
    release = run_to_end(
        mt.aim_table(sizes, _marginals(rows, sizes), len(rows), 0.5, 200, SeededRandom(3), max_rounds=8)
    )
    assert len(release.selected) >= 4
    assert all(s.clique == (4,) or 4 not in s.clique for s in release.selected)
    assert mt.nearly_constant(np.array([5000.0, 3.0, -2.0]), 10.0)
    assert not mt.nearly_constant(np.array([5000.0, 300.0, -2.0]), 10.0)  # control: two cells hold rows
