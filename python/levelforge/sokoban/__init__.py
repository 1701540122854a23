"""levelforge.sokoban (being built)."""
