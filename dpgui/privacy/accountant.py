"""The ledger's accountant: a dataset's spent budget as the tight composition of its releases' curves.

Each release is booked with its (epsilon, delta) and, where its mechanism knows more, a
:class:`~dpgui.privacy.curve.PrivacyCurve` (its noise, hence its exact privacy loss distribution, or its
zCDP rho). :func:`compose` reports the spent budget as epsilon at the dataset's delta, the smallest of:

* basic composition (epsilons add, deltas add), when its delta fits the dataset's;
* the privacy loss distribution (PLD) accountant of Google's ``dp-accounting`` (Meiser-Mohammadi 2018;
  Koskela et al. 2020; Doroshenko et al. 2022, "Connect the dots"), with pessimistic discretisation so
  its epsilon is an upper bound. A release with noise composes its noise's PLD; one with only (epsilon,
  delta) composes the worst-case PLD of any (epsilon, delta)-DP mechanism (``from_privacy_parameters``;
  Kairouz, Oh, Viswanath 2015). Releases that only know a rho are summed in zCDP and converted with the
  tight conversion of Canonne, Kamath, Steinke 2020 (Prop. 12), the dataset's delta split between the
  two parts as well as a grid of splits allows (any split is valid by basic composition);
* pure zCDP, when every release has a zCDP bound (a pure epsilon is epsilon^2 / 2-zCDP, Bun-Steinke
  2016 Prop. 1.4): the sum of rhos converted with CKS 2020.

PLD composition is valid under adaptive composition (Zhu, Dong, Wang 2022: dominating pairs compose).
The answer is a pure function of the booked releases, so replaying the ledger reproduces it to the last
digit. ``dp-accounting`` is imported on first use (about 1 s, mostly scipy.stats; benchmarks/accounting.md):
a ledger with a pure total (delta 0) never needs it, since no accountant beats the sum of pure epsilons at
delta 0. The GUI starts the import in a background thread (:func:`preload_in_background`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache, reduce
from typing import Any

from dpgui.privacy.cost import ZERO, PrivacyCost, basic_composition, round_up, zcdp_epsilon
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve

VALUE_DISCRETIZATION = 1e-4
"""The PLD's grid of privacy-loss values (dp-accounting's default); rounding is pessimistic."""
TOLERANCE = 1e-9
"""Relative slack when comparing basic composition's delta with the dataset's (the ledger's, so that ten
deltas of 1e-7 fit in 1e-6 despite rounding up)."""
MATERIAL_SAVING = 0.01
"""The accountant's epsilon replaces basic composition's only when it is smaller by this fraction (1 %) or
more. A pure release measured at delta > 0 saves about delta (1 + e^-epsilon) in epsilon; charging that
would swap a clean (epsilon, 0) for (epsilon - 1e-3, delta) and help nobody."""
DELTA_SPLITS = tuple(10.0 ** (-k / 4) for k in range(1, 25))
"""Shares of the dataset's delta tried for the PLD part when PLD and zCDP parts are mixed."""


@dataclass(frozen=True)
class BookedRelease:
    """One release as the accountant sees it: its booked cost and, if recorded, its curve."""

    cost: PrivacyCost
    curve: PrivacyCurve | None = None

    @property
    def rho(self) -> float | None:
        """A zCDP bound of the release: its curve's rho, or epsilon^2 / 2 for a pure one; else None."""
        if self.curve is not None and self.curve.rho is not None:
            return self.curve.rho
        if self.cost.is_pure:
            return round_up(self.cost.epsilon**2 / 2)
        return None

    @property
    def zcdp_only(self) -> bool:
        """The release's best description is a rho (no noise to build a PLD from)."""
        curve = self.curve
        return curve is not None and not curve.noise and not curve.steps and curve.rho is not None


@dataclass(frozen=True)
class Composition:
    """A set of releases composed at the dataset's ``delta``.

    ``tight_epsilon`` is the accountant's answer (inf when no epsilon reaches ``delta``);
    ``zcdp_epsilon`` is the all-zCDP figure (None when a release has no zCDP bound or delta is 0).
    """

    delta: float
    basic: PrivacyCost
    tight_epsilon: float
    zcdp_epsilon: float | None

    @property
    def basic_fits(self) -> bool:
        return self.basic.delta <= self.delta * (1 + TOLERANCE)

    @property
    def spent(self) -> PrivacyCost:
        """The figure the ledger charges: never more than basic composition.

        Basic composition's own (epsilon, delta) unless the accountant saves a material fraction, or when the
        accountant cannot reach the dataset's delta (the charge then shows by how much delta is exceeded);
        otherwise the accountant's epsilon at the dataset's delta.
        """
        if self.basic_fits and self.tight_epsilon >= self.basic.epsilon * (1 - MATERIAL_SAVING):
            return self.basic
        if math.isinf(self.tight_epsilon):
            return self.basic
        return PrivacyCost(self.tight_epsilon, self.delta)

    @property
    def saving(self) -> float:
        """How much less epsilon than basic composition is charged (0 when basic wins)."""
        return max(0.0, self.basic.epsilon - self.spent.epsilon) if self.basic_fits else 0.0


def preload_in_background() -> threading.Thread:
    """Import dp-accounting in a daemon thread, so that the GUI thread's first composition does not wait."""

    def load() -> None:
        from dp_accounting.pld import privacy_loss_distribution  # noqa: F401

    thread = threading.Thread(target=load, name="dp-accounting preload", daemon=True)
    thread.start()
    return thread


def compose(releases: Iterable[BookedRelease], delta: float) -> Composition:
    """Compose ``releases`` (in the order given: the ledger's) and report epsilon at ``delta``.

    The PLDs are folded left to right, one release at a time, whatever is cached, so the answer for the
    same releases in the same order is the same to the last digit in any process.
    """
    return _compose(tuple(releases), delta)


@lru_cache(maxsize=256)
def _compose(items: tuple[BookedRelease, ...], delta: float) -> Composition:
    basic = basic_composition(item.cost for item in items)
    if not items:
        return Composition(delta, ZERO, 0.0, None)
    if delta <= 0:  # at delta 0 nothing beats the sum of pure epsilons; approximate DP never fits
        return Composition(delta, basic, basic.epsilon if basic.is_pure else math.inf, None)
    rhos = [item.rho for item in items]
    zcdp = None if any(r is None for r in rhos) else zcdp_epsilon(math.fsum(rhos), delta)  # type: ignore[arg-type]
    tight = _pld_epsilon(items, delta)
    if zcdp is not None:
        tight = min(tight, zcdp)
    return Composition(delta, basic, tight, zcdp)


def _pld_epsilon(items: tuple[BookedRelease, ...], delta: float) -> float:
    """PLD composition of the releases with a PLD, zCDP composition of the rest, delta split between them."""
    rho = math.fsum(item.curve.rho for item in items if item.zcdp_only)  # type: ignore[union-attr, misc]
    with_pld = tuple(item for item in items if not item.zcdp_only)
    if not with_pld:
        return zcdp_epsilon(rho, delta)
    pld = _composed_pld(with_pld)
    if rho == 0:
        return round_up(_epsilon_for_delta(pld, delta))
    best = math.inf
    for share in DELTA_SPLITS:
        best = min(best, _epsilon_for_delta(pld, share * delta) + zcdp_epsilon(rho, (1 - share) * delta))
    return round_up(best)


_PREFIXES: list[tuple[tuple[BookedRelease, ...], Any]] = []
"""The last few composed PLDs with their releases: a ledger that grows by one release extends its prefix."""
_PREFIX_MEMOS = 4
_PREFIX_LOCK = threading.Lock()


def _composed_pld(items: tuple[BookedRelease, ...]) -> Any:
    """The left fold of the releases' PLDs, continued from the longest remembered prefix."""
    start, pld = 0, None
    with _PREFIX_LOCK:
        for known, known_pld in _PREFIXES:
            if start < len(known) <= len(items) and items[: len(known)] == known:
                start, pld = len(known), known_pld
    for item in items[start:]:
        single = _release_pld(item)
        pld = single if pld is None else pld.compose(single)
    with _PREFIX_LOCK:
        _PREFIXES.append((items, pld))
        del _PREFIXES[:-_PREFIX_MEMOS]
    return pld


def _epsilon_for_delta(pld: Any, delta: float) -> float:
    return max(0.0, float(pld.get_epsilon_for_delta(delta)))


def _self_composed(pld: Any, times: int) -> Any:
    return pld if times == 1 else pld.self_compose(times)


@lru_cache(maxsize=512)
def _release_pld(item: BookedRelease) -> Any:
    """The composition of the release's steps (noise PLDs, worst-case PLDs of its pure and (epsilon,
    delta) steps), or without steps the worst-case PLD of an (epsilon, delta)-DP mechanism.

    Both dominate the release, so either may be composed. The steps' is taken unless, at the release's own
    delta > 0, it shows more than the booked epsilon: thousands of small steps (SanThresholds' 4c) gather
    the grid's pessimistic rounding (up to VALUE_DISCRETIZATION each) beyond what advanced composition
    booked. The choice depends on the booked release alone, so a replay makes the same one."""
    curve = item.curve
    booked = _worst_case_pld(item.cost, 1)
    if curve is None or not (curve.noise or curve.steps):
        return booked
    parts = [_noise_pld(rounds) for rounds in curve.noise]
    parts += [_worst_case_pld(step.cost, step.count) for step in curve.steps]
    steps = reduce(lambda a, b: a.compose(b), parts)
    if item.cost.delta > 0 and _epsilon_for_delta(steps, item.cost.delta) > item.cost.epsilon:
        return booked
    return steps


def _worst_case_pld(cost: PrivacyCost, times: int) -> Any:
    """``times`` adaptive runs of any (epsilon, delta)-DP mechanism (Kairouz, Oh, Viswanath 2015)."""
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld_lib

    parameters = common.DifferentialPrivacyParameters(cost.epsilon, cost.delta)
    single = pld_lib.from_privacy_parameters(parameters, value_discretization_interval=VALUE_DISCRETIZATION)
    return _self_composed(single, times)


def _noise_pld(rounds: NoiseRounds) -> Any:
    from dp_accounting.pld import privacy_loss_distribution as pld_lib

    step = VALUE_DISCRETIZATION
    match rounds.noise:
        case NoiseKind.LAPLACE:
            single = pld_lib.from_laplace_mechanism(
                rounds.scale, sensitivity=rounds.sensitivity, value_discretization_interval=step
            )
        case NoiseKind.DISCRETE_LAPLACE:
            single = pld_lib.from_discrete_laplace_mechanism(
                1 / rounds.scale, sensitivity=int(rounds.sensitivity), value_discretization_interval=step
            )
        case NoiseKind.GAUSSIAN:
            single = pld_lib.from_gaussian_mechanism(
                rounds.scale, sensitivity=rounds.sensitivity, value_discretization_interval=step
            )
        case NoiseKind.DISCRETE_GAUSSIAN:
            single = pld_lib.from_discrete_gaussian_mechanism(
                rounds.scale, sensitivity=int(rounds.sensitivity), value_discretization_interval=step
            )
    return _self_composed(single, rounds.count)
