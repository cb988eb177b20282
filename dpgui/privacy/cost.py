"""Privacy costs and the composition theorems that add them up.

Every figure here is rounded *up* (OpenDP's convention): a cost shown to a custodian or charged to the
ledger is never smaller than the true one.

References
----------
* Basic composition: Dwork, Roth, "The Algorithmic Foundations of DP", Thm 3.16 (paper 000, Thm 2.3-2.4).
* Advanced composition: Dwork, Rothblum, Vadhan 2010 (paper 000, Thm 2.5; DR14 Thm 3.20).
* zCDP: Bun, Steinke 2016, Prop. 1.3 (rho to (eps, delta)), Lemma 2.3 (composition);
  discrete Gaussian: Canonne, Kamath, Steinke 2020, Thm 4.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass


def round_up(x: float) -> float:
    """The next float above ``x`` (for x > 0): a conservative guard against rounding down."""
    return math.nextafter(x, math.inf) if x > 0 else x


@dataclass(frozen=True)
class PrivacyCost:
    """An (epsilon, delta) guarantee; delta == 0 means pure DP."""

    epsilon: float
    delta: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.epsilon) and self.epsilon >= 0):
            raise ValueError(f"epsilon must be a finite number >= 0, got {self.epsilon!r}")
        if not (0 <= self.delta < 1):
            raise ValueError(f"delta must be in [0, 1), got {self.delta!r}")

    @property
    def is_pure(self) -> bool:
        return self.delta == 0

    def __add__(self, other: PrivacyCost) -> PrivacyCost:
        return basic_composition([self, other])

    def __str__(self) -> str:
        return f"ε={self.epsilon:.6g}" + ("" if self.is_pure else f", δ={self.delta:.3g}")


ZERO = PrivacyCost(0.0, 0.0)


def basic_composition(costs: Iterable[PrivacyCost]) -> PrivacyCost:
    """Sum of epsilons and of deltas (valid for adaptive composition)."""
    costs = list(costs)
    if not costs:
        return ZERO
    eps = math.fsum(c.epsilon for c in costs)
    delta = math.fsum(c.delta for c in costs)
    if len(costs) > 1:
        eps, delta = round_up(eps), round_up(delta)
    return PrivacyCost(eps, min(delta, math.nextafter(1.0, 0.0)))


def repeated(each: PrivacyCost, k: int) -> PrivacyCost:
    """Basic composition of k copies of one cost, in O(1): (k eps, k delta), rounded up."""
    if k < 1:
        raise ValueError("k must be >= 1")
    if k == 1:
        return each
    delta = min(round_up(k * each.delta), math.nextafter(1.0, 0.0))
    return PrivacyCost(round_up(k * each.epsilon), delta)


def advanced_composition(each: PrivacyCost, k: int, delta_slack: float) -> PrivacyCost:
    """k adaptive runs of an (eps, delta) mechanism: Dwork-Rothblum-Vadhan.

    eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), delta'' = k delta + delta'.
    Returns the better of this and basic composition.
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    if not 0 < delta_slack < 1:
        raise ValueError("delta_slack must be in (0, 1)")
    eps = each.epsilon
    basic = repeated(each, k)
    if eps >= math.log(2):  # k eps (e^eps - 1) >= k eps: advanced cannot win (and expm1 may overflow)
        return basic
    advanced = math.sqrt(2 * k * math.log(1 / delta_slack)) * eps + k * eps * math.expm1(eps)
    if advanced >= basic.epsilon:
        return basic
    return PrivacyCost(round_up(advanced), round_up(k * each.delta + delta_slack))


def advanced_composition_with_some_deltas(
    epsilon: float, k: int, approximate_runs: int, delta_each: float, delta_slack: float
) -> PrivacyCost:
    """k adaptive runs, each eps-DP, of which ``approximate_runs`` are (eps, delta_each)-DP and the rest pure.

    The advanced composition theorem holds for per-run deltas delta_i with delta'' = sum_i delta_i + delta'
    (DRV 2010; Kairouz-Oh-Viswanath 2015 for heterogeneous runs), so the pure runs add no delta. (Basic
    composition, when better, adds the same deltas without delta'.)
    """
    if not 0 <= approximate_runs <= k:
        raise ValueError("approximate_runs must lie in [0, k]")
    composed = advanced_composition(PrivacyCost(epsilon), k, delta_slack)
    return PrivacyCost(composed.epsilon, round_up(composed.delta + approximate_runs * delta_each))


def advanced_per_mechanism_epsilon(total_epsilon: float, k: int, delta_slack: float) -> float:
    """The largest per-mechanism epsilon whose k-fold advanced (or basic) composition fits ``total_epsilon``.

    Solved by bisection on the monotone map eps -> composed epsilon, so the answer is conservative.
    """
    if total_epsilon <= 0:
        raise ValueError("total_epsilon must be > 0")

    def composed(eps: float) -> float:
        return advanced_composition(PrivacyCost(eps), k, delta_slack).epsilon

    lo, hi = 0.0, total_epsilon
    for _ in range(200):
        mid = (lo + hi) / 2
        if composed(mid) <= total_epsilon:
            lo = mid
        else:
            hi = mid
    return lo


@dataclass(frozen=True)
class ZCDPCost:
    """A rho-zCDP guarantee (Bun-Steinke); composes by adding rho."""

    rho: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rho) and self.rho >= 0):
            raise ValueError(f"rho must be a finite number >= 0, got {self.rho!r}")

    def __add__(self, other: ZCDPCost) -> ZCDPCost:
        return ZCDPCost(round_up(self.rho + other.rho))

    def to_approx_dp(self, delta: float) -> PrivacyCost:
        """rho-zCDP implies (zcdp_epsilon(rho, delta), delta)-DP: the tight conversion of Canonne, Kamath
        and Steinke 2020 (Cor. 13), never above Bun-Steinke's rho + 2 sqrt(rho ln(1/delta)) (Prop. 1.3)."""
        return PrivacyCost(zcdp_epsilon(self.rho, delta), delta)


def zcdp_rho_for(cost: PrivacyCost) -> float:
    """The largest rho whose tight zCDP-to-(eps, delta) conversion (``zcdp_epsilon``, CKS 2020 Cor. 13)
    fits inside ``cost``: about 1.4x Bun-Steinke's rho at eps = 1, delta = 1e-6, so every zCDP mechanism
    adds about 15% less noise for the same guarantee.
    """
    if cost.delta <= 0:
        raise ValueError("zCDP mechanisms need delta > 0")
    return _tight_rho(cost.epsilon, cost.delta)


@functools.lru_cache(maxsize=4096)
def _tight_rho(epsilon: float, delta: float) -> float:
    """Bisection on rho for ``zcdp_delta(rho, epsilon) <= delta`` (increasing in rho), from Bun-Steinke's
    closed form (which fits: CKS is never above it) up to epsilon (eps >= rho for any rho-zCDP mechanism);
    then stepped down until the ledger's own conversion (``zcdp_epsilon``, rounded up) fits too."""
    log_term = math.log(1 / delta)
    root = math.sqrt(log_term + epsilon) - math.sqrt(log_term)
    lo, hi = root * root, epsilon
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if zcdp_delta(mid, epsilon) <= delta else (lo, mid)
    while lo > 0 and zcdp_epsilon(lo, delta) > epsilon:
        lo *= 1 - 1e-9
    return lo


def replace_one_from_add_remove(cost: PrivacyCost) -> PrivacyCost:
    """Replace-one is remove-then-add: (eps, delta) add/remove gives (2 eps, (1 + e^eps) delta)."""
    return PrivacyCost(round_up(2 * cost.epsilon), round_up((1 + math.exp(cost.epsilon)) * cost.delta))


def zcdp_delta(rho: float, epsilon: float) -> float:
    """The delta of rho-zCDP at ``epsilon``: Canonne, Kamath, Steinke 2020, Prop. 12 / Cor. 13.

    delta = inf over alpha > 1 of exp((alpha - 1)(alpha rho - eps)) / (alpha - 1) * (1 - 1/alpha)^alpha.
    Every alpha gives a valid bound, so the bisection for the minimiser (the root of the derivative
    (2 alpha - 1) rho - eps + ln(1 - 1/alpha)) can only err on the safe side.
    """
    if rho < 0 or epsilon < 0:
        raise ValueError("rho and epsilon must be >= 0")
    if rho == 0:
        return 0.0
    lo, hi = 1.01, (epsilon + 1) / (2 * rho) + 2  # alpha* >= (1 + eps / rho) / 2; 1.01 keeps log1p stable
    for _ in range(100):
        alpha = (lo + hi) / 2
        if (2 * alpha - 1) * rho - epsilon + math.log1p(-1 / alpha) < 0:
            lo = alpha
        else:
            hi = alpha
    alpha = (lo + hi) / 2
    log_delta = (alpha - 1) * (alpha * rho - epsilon) + alpha * math.log1p(-1 / alpha) - math.log(alpha - 1)
    return min(1.0, math.exp(log_delta))


def zcdp_epsilon(rho: float, delta: float) -> float:
    """The smallest epsilon with ``zcdp_delta(rho, epsilon) <= delta`` (CKS 2020), rounded up.

    Never above Bun-Steinke's rho + 2 sqrt(rho ln(1/delta)), the bisection's upper end.
    """
    if not 0 < delta < 1:
        raise ValueError("delta must be in (0, 1) to convert zCDP to (epsilon, delta)")
    if rho == 0:
        return 0.0
    lo, hi = 0.0, rho + 2 * math.sqrt(rho * math.log(1 / delta))
    for _ in range(100):
        mid = (lo + hi) / 2
        if zcdp_delta(rho, mid) <= delta:
            hi = mid
        else:
            lo = mid
    return round_up(hi)
