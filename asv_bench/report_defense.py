"""Print the defense figures the issue asks for as a markdown table.

    python asv_bench/report_defense.py

Uses the asv benchmark classes (same grids, seeds and warm-up), takes the best of several
repeats (the machine is shared; medians are shown too) and measures the campaign probe
last. The scipy baseline is measured in the same run.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchmarks import bench_defense as b  # noqa: E402


def measure(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return min(times), statistics.median(times)


def main():
    rows = []
    d = b.DistanceField()
    d.setup()
    ours = measure(d.time_distance_field, 30)
    scipy_t = measure(d.time_scipy_csgraph_shortest_path, 5)
    rows.append(("distance_field 1000x1000, 25% reefs", f"{ours[0]:.1f} ms (median "
                 f"{ours[1]:.1f})", "<= 15 ms"))
    rows.append(("scipy.sparse.csgraph.shortest_path (same grid, same run)",
                 f"{scipy_t[0]:.1f} ms (median {scipy_t[1]:.1f})", "baseline"))
    rows.append(("ratio scipy shortest_path / distance_field (best times)",
                 f"{scipy_t[0] / ours[0]:.1f}x", "about 10x"))
    bfo = measure(d.time_scipy_csgraph_breadth_first_order, 5)
    rows.append(("scipy.sparse.csgraph.breadth_first_order (order only, no distances)",
                 f"{bfo[0]:.1f} ms (median {bfo[1]:.1f}); ratio {bfo[0] / ours[0]:.1f}x",
                 "second baseline"))
    c = b.CutCells()
    c.setup()
    cut = measure(c.time_cut_cells, 15)
    rows.append(("cut_cells same grid, 100 sources", f"{cut[0]:.1f} ms (median {cut[1]:.1f})",
                 "<= 50 ms"))
    s = b.Simulation()
    s.setup()
    game = measure(s.time_three_wave_game, 200)
    kern = measure(s.time_three_wave_kernel, 200)
    rows.append(("three-wave game via Defense API, per wave", f"{game[0] * 1000 / 3:.0f} us "
                 f"(median {game[1] * 1000 / 3:.0f})", "report"))
    rows.append(("three waves in the kernel (wave_batch), per wave",
                 f"{kern[0] * 1000 / 3:.0f} us (median {kern[1] * 1000 / 3:.0f})", "report"))
    p = b.Probes()
    p.setup()
    pairs = measure(p.time_pair_probe, 5)
    rows.append((f"pair probe ({p.pairs.legal_pairs} pairs, wave 1, in-process)",
                 f"{pairs[0]:.0f} ms (median {pairs[1]:.0f})", "<= 1 s"))
    load = os.getloadavg()[0]
    camp = measure(p.time_campaign_probe_2_workers, 2)
    from levelforge.defense import probe_campaign
    c = probe_campaign(p.scenario, (0, 1), pairs=p.pairs)
    rows.append((f"full campaign probe ({c.final_sequences:,} sequences reach wave 3, played "
                 "for seeds 0 and 1), 2 worker processes (incl. start-up)",
                 f"{camp[0] / 1000:.2f} s (median {camp[1] / 1000:.2f})", "<= 30 s"))
    print("| figure | measured | target |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")
    print()
    print(f"CPU: {os.cpu_count()} cores shared with other work (1-min load average "
          f"{load:.2f} before the campaign run); best of several repeats, medians in brackets.")


if __name__ == "__main__":
    main()
