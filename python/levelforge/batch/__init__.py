"""levelforge.batch (being built)."""
