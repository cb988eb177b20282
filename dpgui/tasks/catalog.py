"""Imports every module that registers algorithms, so the registry is complete once this is loaded."""

from dpgui.tasks import median  # noqa: F401
