"""Private learners: thresholds, points, label-private and public-data-assisted (papers 000, 001, 003)."""
