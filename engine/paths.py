"""Kernels of the symmetry line puzzles: a counting DFS over self-avoiding lattice paths.

A board of ``n <= 128`` points is given as ``adj`` (int32 ``[n, 4]``): the neighbours of
each point in the order up, left, right, down, -1 where there is no point or the edge
is forbidden. ``req`` (uint8 ``[n]``) marks required points. The visited set is a
bitmask of two uint64 words (``vis[0]`` points 0-63, ``vis[1]`` points 64-127).

A path starts at ``start`` and ends the moment it reaches ``goal`` (it never passes
through the goal). A node of the search is a point moved onto; before extending a
partial path the kernels prune it unless some component of the unvisited points (goal
excluded) next to the head touches the goal and holds every remaining required point,
each of them keeping two free neighbours (it must be entered and left). The test is
sound: it never cuts a branch that holds a solution.

``stats`` receives ``[count, nodes, status]``; status 0 = search complete (count exact),
1 = stopped at ``limit`` solutions, 2 = stopped at ``max_nodes`` (count is a lower bound),
3 = stopped because ``stats[S_HALT]`` was set from outside (a time limit or a cancel:
levelforge.cancel's watchdog sets it while the kernel runs without the GIL).
"""
import numpy as np
from numba import njit

COMPLETE = 0
AT_LIMIT = 1
NODE_CAP = 2
HALTED = 3
S_HALT = 3  # the slot of ``stats`` looked at every 1024 nodes

_ONE = np.uint64(1)
_M63 = 63


@njit(cache=True)
def _is_visited(vis, p):
    return (vis[p >> 6] >> np.uint64(p & _M63)) & _ONE


@njit(cache=True)
def _visit(vis, p):
    vis[p >> 6] |= _ONE << np.uint64(p & _M63)


@njit(cache=True)
def _leave(vis, p):
    vis[p >> 6] &= ~(_ONE << np.uint64(p & _M63))


@njit(cache=True)
def _viable(adj, head, goal, vis, req, n_left, stamp, epoch, queue):
    """True unless the partial path ending at ``head`` (visited) can no longer be completed.

    The rest of the path runs through one component of the unvisited points (goal
    excluded) next to the head and ends at the goal. So some component next to the head
    must touch the goal and hold every remaining required point (or, with none left,
    the head may touch the goal), and each of those required points needs two free
    neighbours (unvisited or the head) to be entered and left. A required point whose
    only two free neighbours include the head must come next: two such points prune.
    """
    stamp[head] = epoch
    qt = 0
    need_head = 0
    for k0 in range(4):
        s = np.int64(adj[head, k0])  # the bit helpers always take int64: one compile each
        if s < 0:
            continue
        if s == goal:
            if n_left == 0:
                return True
            continue
        if stamp[s] == epoch or _is_visited(vis, s):
            continue
        # flood one component of unvisited points (goal excluded) from s
        stamp[s] = epoch
        qh = qt
        queue[qt] = s
        qt += 1
        touches_goal = False
        seen = 0
        dead = False
        while qh < qt:
            c = queue[qh]
            qh += 1
            if req[c]:
                seen += 1
                free = 0
                by_head = 0
                for j in range(4):
                    r = np.int64(adj[c, j])
                    if r >= 0:
                        if r == head:
                            free += 1
                            by_head = 1
                        elif not _is_visited(vis, r):
                            free += 1
                if free < 2:
                    dead = True
                elif free == 2 and by_head:
                    # c must be the next point; two such points cannot both be
                    need_head += 1
                    if need_head > 1:
                        return False
            for k in range(4):
                q = np.int64(adj[c, k])
                if q < 0:
                    continue
                if q == goal:
                    touches_goal = True
                    continue
                if stamp[q] == epoch or _is_visited(vis, q):
                    continue
                stamp[q] = epoch
                queue[qt] = q
                qt += 1
        if touches_goal and seen == n_left and not dead:
            return True
    return False


@njit(cache=True)
def _reset(vis, stamp, req, start, goal):
    """Clear the visited bitmask and the stamps; return the required points other than
    start and goal."""
    vis[0] = 0
    vis[1] = 0
    n_left = 0
    for i in range(stamp.shape[0]):
        stamp[i] = 0
        if req[i] and i != start and i != goal:
            n_left += 1
    return n_left


@njit(cache=True, nogil=True)
def count_paths(adj, start, goal, req, limit, max_nodes, sols, sol_len,
                vis, stack_pt, stack_k, stamp, queue, stats):
    """Count solutions up to ``limit`` (stop at ``limit``) or ``max_nodes`` search nodes.

    The first ``min(count, sols.shape[0])`` solutions are written to ``sols[i, :sol_len[i]]``.
    ``vis`` (uint64[2]), ``stack_pt``/``stack_k`` (int32[n]), ``stamp`` (int64[n]) and
    ``queue`` (int32[n]) are work arrays. Results go to ``stats`` (see module doc).
    """
    n_left = _reset(vis, stamp, req, start, goal)
    epoch = np.int64(1)  # int64 (not a literal): one specialisation of _viable to compile
    count = 0
    nodes = 1
    status = COMPLETE
    _visit(vis, start)
    if start == goal:
        if n_left == 0:
            if sols.shape[0] > 0:
                sols[0, 0] = start
                sol_len[0] = 1
            count = 1
            if count >= limit:
                status = AT_LIMIT
        stats[0] = count
        stats[1] = nodes
        stats[2] = status
        return count
    if not _viable(adj, start, goal, vis, req, n_left, stamp, epoch, queue):
        stats[0] = 0
        stats[1] = nodes
        stats[2] = COMPLETE
        return 0
    depth = 0
    stack_pt[0] = start
    stack_k[0] = 0
    while depth >= 0:
        c = np.int64(stack_pt[depth])
        k = stack_k[depth]
        if k == 4:
            _leave(vis, c)
            if req[c] and c != start:
                n_left += 1
            depth -= 1
            continue
        stack_k[depth] = k + 1
        q = np.int64(adj[c, k])  # int64 like start: the helpers compile once
        if q < 0 or _is_visited(vis, q):
            continue
        nodes += 1
        if q == goal:
            if n_left == 0:
                if count < sols.shape[0]:
                    for i in range(depth + 1):
                        sols[count, i] = stack_pt[i]
                    sols[count, depth + 1] = goal
                    sol_len[count] = depth + 2
                count += 1
                if count >= limit:
                    status = AT_LIMIT
                    break
            continue
        if nodes >= max_nodes:
            status = NODE_CAP
            break
        if (nodes & 1023) == 0 and stats[S_HALT] != 0:
            status = HALTED
            break
        _visit(vis, q)
        if req[q]:
            n_left -= 1
        epoch += 1
        if not _viable(adj, q, goal, vis, req, n_left, stamp, epoch, queue):
            _leave(vis, q)
            if req[q]:
                n_left += 1
            continue
        depth += 1
        stack_pt[depth] = q
        stack_k[depth] = 0
    stats[0] = count
    stats[1] = nodes
    stats[2] = status
    return count


@njit(cache=True)
def branch_profile(adj, start, goal, req, path, plen, vis, stamp, queue, out):
    """Open choices a solver meets walking ``path[:plen]`` (a solution) from the start.

    At each step (head = ``path[i]``, ``i < plen - 1``) counts the legal moves (unvisited
    neighbour over an allowed edge) and the viable ones (moves the DFS pruning keeps).
    ``out`` receives ``[steps with >= 2 legal moves, steps with >= 2 viable moves,
    sum of viable moves minus one over all steps]``.
    """
    n_left = _reset(vis, stamp, req, start, goal)
    epoch = 0
    out[0] = 0
    out[1] = 0
    out[2] = 0
    _visit(vis, start)
    for i in range(plen - 1):
        c = path[i]
        legal = 0
        viable = 0
        for k in range(4):
            q = np.int64(adj[c, k])
            if q < 0 or _is_visited(vis, q):
                continue
            legal += 1
            if q == goal:
                if n_left == 0:
                    viable += 1
                continue
            _visit(vis, q)
            if req[q]:
                n_left -= 1
            epoch += 1
            if _viable(adj, q, goal, vis, req, n_left, stamp, epoch, queue):
                viable += 1
            _leave(vis, q)
            if req[q]:
                n_left += 1
        if legal >= 2:
            out[0] += 1
        if viable >= 2:
            out[1] += 1
        if viable >= 1:
            out[2] += viable - 1
        nxt = np.int64(path[i + 1])
        _visit(vis, nxt)
        if req[nxt] and nxt != goal:
            n_left -= 1
