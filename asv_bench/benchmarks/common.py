"""Fixed seeds and sizes shared by the benchmarks (numpy/scipy asv_bench style)."""
SEED = 20261130
SEEDS_100 = list(range(1000, 1100))
