"""Background work for the GUI: a generic generator worker and the release job built on it."""
