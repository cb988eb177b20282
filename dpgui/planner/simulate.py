"""Simulation preview: the machinery lives in ``dpgui.tasks.simulation`` (``auto`` ranks by it too)."""

from dpgui.tasks.simulation import ERROR_MEASURES, Simulation, release_error, simulate

__all__ = ["ERROR_MEASURES", "Simulation", "release_error", "simulate"]
