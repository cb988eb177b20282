"""dpgui: differentially private releases of a sensitive dataset, by pointing and clicking."""

__version__ = "0.1.0"
APP_NAME = "dpgui"
