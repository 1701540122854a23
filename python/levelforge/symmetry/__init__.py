"""levelforge.symmetry (being built)."""
