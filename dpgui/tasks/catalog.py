"""Imports every module that registers algorithms, so the registry is complete once this is loaded."""

from dpgui.tasks import (
    distance,  # noqa: F401
    interior,  # noqa: F401
    learning,  # noqa: F401
    median,  # noqa: F401
    sanitize,  # noqa: F401
    sanitize_papers,  # noqa: F401
    table,  # noqa: F401
)

# isort: split
# Registered after the modules above (it imports one of them), so the registry's order is the same
# whoever imports first.
from dpgui.tasks import adaptive  # noqa: F401
