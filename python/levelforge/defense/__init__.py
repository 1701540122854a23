"""levelforge.defense (being built)."""
