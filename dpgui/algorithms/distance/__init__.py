"""Distance-query release (paper 004, Huang-Roth; spec 004): average distance from a query to the records."""
