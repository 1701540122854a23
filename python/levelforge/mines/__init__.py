"""levelforge.mines (being built)."""
