"""A release's privacy curve in the most precise form its mechanism has, as the ledger records it.

Every release books an (epsilon, delta) cost. Some mechanisms know more: the tree of counts adds discrete
Laplace or discrete Gaussian noise to integer counts that move by at most 1 each between neighbours, so
its privacy loss distribution (PLD) is known exactly; a Gaussian round of a zCDP algorithm knows its rho.
The ledger stores this :class:`PrivacyCurve` beside the cost so that the accountant
(:mod:`dpgui.privacy.accountant`) can compose the releases tightly. A release without a curve counts as
its (epsilon, delta) (pure epsilon when delta is 0), which is exact for a mechanism that promises no more.

A mechanism made of several steps records each in its most precise form: noise rounds (a PLD), steps
known only by a pure epsilon (an exponential mechanism: each composes as the worst case of an epsilon-DP
mechanism), and steps known only by an (epsilon, delta) (a choosing mechanism). Their adaptive
composition is the mechanism's curve, which is tighter than the booked cost whenever the cost was found
by advanced composition, or sums steps whose PLDs compose better than their epsilons.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from dpgui.privacy.cost import PrivacyCost, round_up


class NoiseKind(StrEnum):
    """Additive noise with a known privacy loss distribution."""

    LAPLACE = "laplace"
    DISCRETE_LAPLACE = "discrete_laplace"
    GAUSSIAN = "gaussian"
    DISCRETE_GAUSSIAN = "discrete_gaussian"

    @property
    def is_gaussian(self) -> bool:
        return self in (NoiseKind.GAUSSIAN, NoiseKind.DISCRETE_GAUSSIAN)

    @property
    def is_discrete(self) -> bool:
        return self in (NoiseKind.DISCRETE_LAPLACE, NoiseKind.DISCRETE_GAUSSIAN)


@dataclass(frozen=True)
class NoiseRounds:
    """``count`` independent noisy answers, each moving by at most ``sensitivity`` between neighbours.

    ``scale`` is the Laplace scale b (density or mass proportional to exp(-|z| / b)) or the Gaussian sigma
    (proportional to exp(-z^2 / (2 sigma^2)); for the discrete Gaussian this is its parameter, not its
    standard deviation). Discrete noise needs an integer sensitivity.
    """

    noise: NoiseKind
    scale: float
    sensitivity: float = 1.0
    count: int = 1

    def __post_init__(self) -> None:
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ValueError(f"noise scale must be a finite number > 0, got {self.scale!r}")
        if not (math.isfinite(self.sensitivity) and self.sensitivity > 0):
            raise ValueError(f"sensitivity must be a finite number > 0, got {self.sensitivity!r}")
        if self.noise.is_discrete and self.sensitivity != int(self.sensitivity):
            raise ValueError(f"discrete noise needs an integer sensitivity, got {self.sensitivity!r}")
        if not (isinstance(self.count, int) and self.count >= 1):
            raise ValueError(f"count must be an integer >= 1, got {self.count!r}")

    @property
    def rho(self) -> float | None:
        """zCDP of the rounds: count * Delta^2 / (2 sigma^2) for Gaussian noise (Bun-Steinke 2016, Prop. 1.6;
        CKS 2020, Thm 4 for the discrete one); None for Laplace (use its pure epsilon)."""
        if not self.noise.is_gaussian:
            return None
        return round_up(self.count * self.sensitivity**2 / (2 * self.scale**2))

    @property
    def epsilon(self) -> float | None:
        """Pure epsilon of the rounds: count * Delta / b for Laplace noise; None for Gaussian noise."""
        if self.noise.is_gaussian:
            return None
        return round_up(self.count * self.sensitivity / self.scale)

    def to_json(self) -> dict[str, object]:
        return {
            "noise": self.noise.value,
            "scale": self.scale,
            "sensitivity": self.sensitivity,
            "count": self.count,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> NoiseRounds:
        return cls(
            NoiseKind(data["noise"]),
            float(data["scale"]),  # type: ignore[arg-type]
            float(data["sensitivity"]),  # type: ignore[arg-type]
            int(data["count"]),  # type: ignore[call-overload]
        )


@dataclass(frozen=True)
class DpSteps:
    """``count`` adaptive steps each known only to be ``cost``-DP: pure epsilon when its delta is 0 (an
    exponential mechanism), else (epsilon, delta) (a choosing mechanism). Each composes as the worst case
    of its guarantee (Kairouz, Oh, Viswanath 2015)."""

    cost: PrivacyCost
    count: int = 1

    def __post_init__(self) -> None:
        if not (isinstance(self.count, int) and self.count >= 1):
            raise ValueError(f"count must be an integer >= 1, got {self.count!r}")

    def to_json(self) -> dict[str, object]:
        return {"epsilon": self.cost.epsilon, "delta": self.cost.delta, "count": self.count}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DpSteps:
        return cls(PrivacyCost(float(data["epsilon"]), float(data["delta"])), int(data["count"]))  # type: ignore[arg-type, call-overload]


@dataclass(frozen=True)
class PrivacyCurve:
    """What a release knows beyond its (epsilon, delta): its steps in their most precise forms.

    ``noise`` are additive noise rounds (their composition is an exact privacy loss distribution);
    ``steps`` are steps known only by a pure epsilon or an (epsilon, delta). The mechanism is the adaptive
    composition of both. ``rho`` is a zCDP bound of the whole mechanism. Everything absent means the
    release only has its (epsilon, delta).
    """

    noise: tuple[NoiseRounds, ...] = ()
    rho: float | None = None
    steps: tuple[DpSteps, ...] = ()

    def __post_init__(self) -> None:
        if self.rho is not None and not (math.isfinite(self.rho) and self.rho >= 0):
            raise ValueError(f"rho must be a finite number >= 0, got {self.rho!r}")

    @classmethod
    def gaussian_rounds(cls, rounds: NoiseRounds) -> PrivacyCurve:
        """Gaussian noise: its PLD and its rho."""
        return cls((rounds,), rounds.rho)

    @classmethod
    def pure_steps(cls, epsilon: float, count: int = 1) -> PrivacyCurve:
        """``count`` adaptive steps each pure ``epsilon``-DP (exponential mechanisms and the like)."""
        return cls(steps=(DpSteps(PrivacyCost(epsilon), count),))

    @property
    def form(self) -> str:
        """The most precise form recorded: 'pld', 'zcdp', 'pure-epsilon' or 'epsilon-delta'."""
        if self.noise:
            return "pld"
        if self.rho is not None:
            return "zcdp"
        pure = self.steps and all(step.cost.is_pure for step in self.steps)
        return "pure-epsilon" if pure else "epsilon-delta"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"noise": [rounds.to_json() for rounds in self.noise]}
        if self.rho is not None:
            data["rho"] = self.rho
        if self.steps:
            data["steps"] = [step.to_json() for step in self.steps]
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> PrivacyCurve:
        """Parse a ledger payload; raises ValueError (or KeyError, TypeError) on a malformed one."""
        if not isinstance(data, dict):
            raise TypeError(f"a privacy curve is a JSON object, got {data!r}")
        noise, steps = data.get("noise", []), data.get("steps", [])
        if not isinstance(noise, list) or not isinstance(steps, list):
            raise TypeError(f"a curve's noise and steps are lists, got {data!r}")
        rho = data.get("rho")
        return cls(
            tuple(NoiseRounds.from_json(r) for r in noise),
            None if rho is None else float(rho),  # type: ignore[arg-type]
            tuple(DpSteps.from_json(step) for step in steps),
        )
