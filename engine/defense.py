"""Tower-defense kernels: distance field, routes, cut cells, the fixed-tick wave simulation.

Grids are flat arrays of ``height * width`` cells, cell ``i = y * width + x``; neighbours
are visited in the fixed order up, left, right, down. All state lives in flat arrays laid
out by the index constants below; callers (``levelforge.defense``) allocate them once.
"""
import numpy as np
from numba import njit

from .grid import bfs_distance

# --- integer parameters (iparams, int64) ---
P_WIDTH = 0
P_BEACON = 1
P_DAMAGE = 2
P_INTERVAL = 3        # ticks between two shots of one cannon
P_SPAWN_INTERVAL = 4  # ticks between two spawns
N_IPARAMS = 5

# --- float parameters (fparams, float64) ---
F_RANGE2 = 0          # squared cannon range, in cells
F_HEAT = 1            # heat added by one shot
F_OVERHEAT = 2        # heat at which a cannon stops until it has cooled to zero
F_COOL = 3            # heat lost per tick
N_FPARAMS = 4

# --- cannon state (cn, int64[max_cannons, N_CN]) and cn_heat (float64[max_cannons]) ---
C_CELL = 0
C_TIMER = 1           # ticks until the cannon may fire again (0 = ready)
C_OVERHEATED = 2
C_STOPS_WAVE = 3      # overheat stops in the current wave
C_SHOTS_WAVE = 4
C_STOPS_TOTAL = 5     # cumulative over the run
C_SHOTS_TOTAL = 6
N_CN = 7

# --- enemy state (en, int32[max_ships, N_EN]) and en_prog (float64[max_ships]) ---
E_CUR = 0             # cell the ship last reached
E_NXT = 1             # cell it is sailing to
E_HP = 2
E_STATUS = 3
E_ENTRY = 4           # entrance index saved at spawn (0 = A, 1 = B)
N_EN = 5
S_WAITING = 0
S_ALIVE = 1
S_KILLED = 2
S_LEAKED = 3

# --- wave counters (ctr, int64[N_CTR]) ---
K_TICK = 0            # ticks simulated in this wave
K_SPAWNED = 1
K_ALIVE = 2
K_HEALTH = 3
K_KILLS = 4
K_LEAK_A = 5
K_LEAK_B = 6
K_STATUS = 7
N_CTR = 8
W_RUNNING = 0
W_WON = 1
W_LOST = 2


@njit(cache=True)
def next_steps(dist, width, nxt):
    """For every cell, the neighbour a ship steps to: the smallest distance, ties broken
    up, left, right, down (first strictly smaller wins). -1 at the target and where
    unreachable."""
    n = dist.shape[0]
    for c in range(n):
        d = dist[c]
        if d <= 0:
            nxt[c] = -1
            continue
        best = -1
        x = c % width
        if c >= width:
            nb = c - width
            if dist[nb] >= 0 and dist[nb] < d:
                d = dist[nb]
                best = nb
        if x > 0:
            nb = c - 1
            if dist[nb] >= 0 and dist[nb] < d:
                d = dist[nb]
                best = nb
        if x < width - 1:
            nb = c + 1
            if dist[nb] >= 0 and dist[nb] < d:
                d = dist[nb]
                best = nb
        if c + width < n:
            nb = c + width
            if dist[nb] >= 0 and dist[nb] < d:
                d = dist[nb]
                best = nb
        nxt[c] = best


@njit(cache=True)
def trace_route(nxt, start, out):
    """Follow ``nxt`` from ``start``; writes the cells (start .. target) to ``out`` and
    returns their number (1 when ``start`` has no next step)."""
    n = 0
    c = start
    while c >= 0 and n < out.shape[0]:
        out[n] = c
        n += 1
        c = nxt[c]
    return n


@njit(cache=True)
def cut_cells(blocked, width, target, is_source, cut, st, it, stack):
    """Mark in ``cut`` (uint8) every free cell whose blocking disconnects a source from
    ``target``: articulation points of the free-cell graph relative to the target, found
    by one iterative DFS rooted at the target (Hopcroft-Tarjan low links). A reachable
    source is itself a cut cell; the target never is; unreachable sources are ignored.

    Work arrays on the padded grid of ``(height + 2) * (width + 2)`` cells (a blocked
    border, so no bounds checks): ``st`` int32 ``[padded, 4]`` (discovery time, low link,
    DFS parent, sources in the subtree; one cache line per cell) and ``it`` int8 (next
    neighbour to try); ``stack`` int32, one slot per cell. Returns the number of cut cells.
    """
    n = blocked.shape[0]
    h = n // width
    pw = width + 2
    for i in range(pw):
        st[i, 0] = -2
        st[(h + 1) * pw + i, 0] = -2
    for y in range(h):
        row = (y + 1) * pw
        st[row, 0] = -2
        st[row + pw - 1, 0] = -2
        src = y * width
        for x in range(width):
            c = row + 1 + x
            cut[src + x] = 0
            if blocked[src + x]:
                st[c, 0] = -2
            else:
                st[c, 0] = -1
                st[c, 3] = 1 if is_source[src + x] else 0
                it[c] = 0
    t = (target // width + 1) * pw + target % width + 1
    st[t, 0] = 0
    st[t, 1] = 0
    st[t, 2] = -1
    st[t, 3] = 0
    it[t] = 0
    clock = 1
    stack[0] = t
    sp = 1
    while sp > 0:
        v = stack[sp - 1]
        kk = it[v]
        lowv = st[v, 1]
        pv = st[v, 2]
        descended = False
        while kk < 4:
            if kk == 0:
                nb = v - pw
            elif kk == 1:
                nb = v - 1
            elif kk == 2:
                nb = v + 1
            else:
                nb = v + pw
            kk += 1
            d = st[nb, 0]
            if d == -2:
                continue
            if d == -1:
                st[nb, 0] = clock
                st[nb, 1] = clock
                st[nb, 2] = v
                clock += 1
                stack[sp] = nb
                sp += 1
                descended = True
                break
            if nb != pv and d < lowv:
                lowv = d
        it[v] = kk
        st[v, 1] = lowv
        if descended:
            continue
        sp -= 1
        if pv >= 0:
            if lowv < st[pv, 1]:
                st[pv, 1] = lowv
            ns = st[v, 3]
            st[pv, 3] += ns
            if pv != t and ns > 0 and lowv >= st[pv, 0]:
                cut[(pv // pw - 1) * width + pv % pw - 1] = 1
    count = 0
    for y in range(h):
        row = (y + 1) * pw + 1
        src = y * width
        for x in range(width):
            i = src + x
            if i != target and is_source[i] and st[row + x, 0] >= 0:
                cut[i] = 1
            count += cut[i]
    return count


@njit(cache=True)
def reset_wave(cn, cn_heat, n_cannons, en, en_prog, ctr, health):
    """Clear per-wave state: heat, fire timers, overheat stops; no ship spawned yet."""
    for c in range(n_cannons):
        cn[c, C_TIMER] = 0
        cn[c, C_OVERHEATED] = 0
        cn[c, C_STOPS_WAVE] = 0
        cn[c, C_SHOTS_WAVE] = 0
        cn_heat[c] = 0.0
    for i in range(en.shape[0]):
        en[i, E_STATUS] = S_WAITING
        en_prog[i] = 0.0
    for k in range(N_CTR):
        ctr[k] = 0
    ctr[K_HEALTH] = health


@njit(cache=True)
def find_target(cx, cy, range2, width, en, en_prog, n_spawned, dist):
    """The ship a cannon at cell ``(cx, cy)`` aims at and hits: among living ships within
    range (Euclidean, cannon centre to the ship's fractional position), the one with the
    least path left to the beacon; ties go to the earlier spawn. -1 when none."""
    best = -1
    best_left = 0.0
    for i in range(n_spawned):
        if en[i, E_STATUS] != S_ALIVE:
            continue
        cur = en[i, E_CUR]
        nx = en[i, E_NXT]
        p = en_prog[i]
        x0 = cur % width
        y0 = cur // width
        x1 = nx % width
        y1 = nx // width
        dx = x0 + p * (x1 - x0) - cx
        dy = y0 + p * (y1 - y0) - cy
        if dx * dx + dy * dy > range2:
            continue
        left = dist[nx] + (1.0 - p)
        if best < 0 or left < best_left:
            best = i
            best_left = left
    return best


@njit(cache=True)
def simulate(iparams, fparams, kind_hp, kind_speed, sp_kind, sp_entry, entrances,
             dist, nxt, cn, cn_heat, n_cannons, en, en_prog, ctr, max_ticks):
    """Advance a wave by at most ``max_ticks`` fixed ticks; returns ``ctr[K_STATUS]``.

    One tick: spawn (ship ``i`` at tick ``i * spawn_interval`` on its entrance), move every
    living ship in spawn order (a ship reaching the beacon leaks: health -1, counted for
    the entrance saved at spawn; health 0 ends the wave lost at once), then every cannon in
    placement order cools, and if ready and not overheated fires at ``find_target``. The
    wave is won when every ship has spawned and none is left.
    """
    width = iparams[P_WIDTH]
    beacon = iparams[P_BEACON]
    damage = iparams[P_DAMAGE]
    interval = iparams[P_INTERVAL]
    spawn_interval = iparams[P_SPAWN_INTERVAL]
    range2 = fparams[F_RANGE2]
    heat_shot = fparams[F_HEAT]
    overheat = fparams[F_OVERHEAT]
    cool = fparams[F_COOL]
    n_spawn = sp_kind.shape[0]
    done = 0
    while done < max_ticks and ctr[K_STATUS] == W_RUNNING:
        done += 1
        tick = ctr[K_TICK]
        # spawn
        s = ctr[K_SPAWNED]
        if s < n_spawn and tick >= s * spawn_interval:
            entry = sp_entry[s]
            cell = entrances[entry]
            en[s, E_CUR] = cell
            en[s, E_NXT] = nxt[cell]
            en[s, E_HP] = kind_hp[sp_kind[s]]
            en[s, E_STATUS] = S_ALIVE
            en[s, E_ENTRY] = entry
            en_prog[s] = 0.0
            ctr[K_SPAWNED] = s + 1
            ctr[K_ALIVE] += 1
        n_spawned = ctr[K_SPAWNED]
        # move
        for i in range(n_spawned):
            if en[i, E_STATUS] != S_ALIVE:
                continue
            p = en_prog[i] + kind_speed[sp_kind[i]]
            if p >= 1.0:
                p -= 1.0
                cur = en[i, E_NXT]
                en[i, E_CUR] = cur
                if cur == beacon:
                    en[i, E_STATUS] = S_LEAKED
                    ctr[K_ALIVE] -= 1
                    ctr[K_HEALTH] -= 1
                    if en[i, E_ENTRY] == 0:
                        ctr[K_LEAK_A] += 1
                    else:
                        ctr[K_LEAK_B] += 1
                    if ctr[K_HEALTH] <= 0:
                        ctr[K_STATUS] = W_LOST
                        ctr[K_TICK] = tick + 1
                        return W_LOST
                    continue
                en[i, E_NXT] = nxt[cur]
            en_prog[i] = p
        # fire
        for c in range(n_cannons):
            h = cn_heat[c] - cool
            if h < 0.0:
                h = 0.0
            cn_heat[c] = h
            if cn[c, C_OVERHEATED]:
                if h > 0.0:
                    continue
                cn[c, C_OVERHEATED] = 0
            if cn[c, C_TIMER] > 0:
                cn[c, C_TIMER] -= 1
                if cn[c, C_TIMER] > 0:
                    continue
            cell = cn[c, C_CELL]
            tgt = find_target(cell % width, cell // width, range2, width, en, en_prog,
                              n_spawned, dist)
            if tgt < 0:
                continue
            en[tgt, E_HP] -= damage
            if en[tgt, E_HP] <= 0:
                en[tgt, E_STATUS] = S_KILLED
                ctr[K_ALIVE] -= 1
                ctr[K_KILLS] += 1
            cn[c, C_SHOTS_WAVE] += 1
            cn[c, C_SHOTS_TOTAL] += 1
            cn[c, C_TIMER] = interval
            h += heat_shot
            cn_heat[c] = h
            if h >= overheat:
                cn[c, C_OVERHEATED] = 1
                cn[c, C_STOPS_WAVE] += 1
                cn[c, C_STOPS_TOTAL] += 1
        ctr[K_TICK] = tick + 1
        if ctr[K_SPAWNED] == n_spawn and ctr[K_ALIVE] == 0:
            ctr[K_STATUS] = W_WON
    return ctr[K_STATUS]


@njit(cache=True)
def wave_batch(iparams, fparams, kind_hp, kind_speed, sp_kind, sp_entry, entrances,
               reefs, cells, is_cannon, health, out, blocked, dist, nxt, pad, queue,
               cn, cn_heat, en, en_prog, ctr):
    """Simulate one whole wave for each row of buildings and write its result to ``out``.

    Row ``r``: ``cells[r]`` (int32, -1 = none) are built in order on top of ``reefs``,
    ``is_cannon[r]`` says which are cannons (they fire in that order); the wave starts with
    ``health[r]``. ``out[r]`` = status, health left, kills, leaks A, leaks B, ticks.
    The rows are assumed legal (no route sealed). Work arrays are reused for every row.
    """
    width = iparams[P_WIDTH]
    beacon = iparams[P_BEACON]
    n = reefs.shape[0]
    for r in range(cells.shape[0]):
        for i in range(n):
            blocked[i] = reefs[i]
        n_cannons = np.int64(0)  # int64 from the start: simulate and reset_wave compile once
        for k in range(cells.shape[1]):
            c = cells[r, k]
            if c < 0:
                continue
            blocked[c] = 1
            if is_cannon[r, k]:
                cn[n_cannons, C_CELL] = c
                n_cannons += 1
        bfs_distance(blocked, width, beacon, dist, pad, queue)
        next_steps(dist, width, nxt)
        reset_wave(cn, cn_heat, n_cannons, en, en_prog, ctr, health[r])
        status = simulate(iparams, fparams, kind_hp, kind_speed, sp_kind, sp_entry, entrances,
                          dist, nxt, cn, cn_heat, n_cannons, en, en_prog, ctr,
                          np.int64(1 << 40))
        out[r, 0] = status
        out[r, 1] = ctr[K_HEALTH]
        out[r, 2] = ctr[K_KILLS]
        out[r, 3] = ctr[K_LEAK_A]
        out[r, 4] = ctr[K_LEAK_B]
        out[r, 5] = ctr[K_TICK]
