"""The layout the Sokoban search kernels share: counter slots of ``ctr``, search statuses,
limits of the packed heap key and of the transposition table's entries.
"""
import numpy as np

UNREACHABLE = 1 << 24  # push distance of a cell from which a goal cannot be reached
_BIG = np.int64(1) << 50
MAX_G = 32767  # pushes and f values must fit 15 bits of the packed heap key
# a transposition-table entry packs (search generation, hash fingerprint, node index)
_T_NODE_BITS = 27  # MAX_NODES = 2**27 states
_T_GEN_SHIFT = 40
_T_FP_BITS = _T_GEN_SHIFT - _T_NODE_BITS  # hash bits kept between node and generation
_T_NODE_MASK = (np.int64(1) << _T_NODE_BITS) - 1
_T_FP_MASK = ((np.int64(1) << _T_FP_BITS) - 1) << _T_NODE_BITS
MAX_GENERATION = (1 << 23) - 1  # then the table is cleared and generations restart

# counter slots of ``ctr`` (int64[N_COUNTERS])
C_NODES = 0      # nodes stored in the pool
C_HEAP = 1       # entries in the heap
C_TEPOCH = 2     # transposition-table generation
C_FILL = 3       # flood-fill epoch of ``stamp``
C_FILL2 = 4      # flood-fill epoch of ``stamp2``
C_GOAL = 5       # node index of the solved state, -1 before
C_EXPANDED = 6   # expanded nodes
C_STATUS = 7     # RUNNING / SOLVED / UNSOLVABLE / LIMIT
C_BOXES = 8      # box count of the running search
C_CAP = 9        # node cap of the running search
C_START = 10     # the player's actual start cell (for reconstruction)
C_WEIGHT = 11    # priority of the running search: 1 A*, w > 1 weighted A*, 0 greedy
C_STAGE = 12     # set by the caller: 0, or m > 0 for a packing stage (see _any_h)
C_HALT = 13      # set from outside (levelforge.cancel's watchdog): nonzero stops the kernel
C_TARGET = 14    # set by the caller: 0, or 1 + the normalised player cell a solved state
                 # must have (a target region: solution windows, see sokoban.optimize)
C_PARTIAL = 15   # set by the caller: nonzero for a push-optimal search that expands in
                 # part, with newest-first ties (see search_run)
C_BOUND = 16     # a push-optimal search's proved lower bound: the largest f it popped
                 # (0 before the first pop; set to 0 by the caller, see search_run)
C_UPPER = 17     # set by the caller: 0, or the pushes of a known solution (an incumbent):
                 # a push-optimal search then stores no state of f at least that and
                 # ends UNSOLVABLE once every state below it is searched (see search_run)
C_CHECKED = 18  # nodes below this index were stored before the pair database came:
# a push-optimal search checks each for three-box deadlocks whole when it is popped
N_COUNTERS = 19

RUNNING = 0
SOLVED = 1
UNSOLVABLE = 2
LIMIT = 3
GROW = 4  # search_run only: the node pool, heap or table needs more room (status unchanged)
HALTED = 5  # ctr[C_HALT] was set (a time limit or a cancel): the search is abandoned
PACK_PENALTY = 2  # pushes added to h per goal not yet packed (searches for any solution)

# slots of ``fctr`` (int64[N_FCOUNTERS]), the feature-space search's own counters (its
# packing order, cells and packing macro use them too)
F_NCELLS = 0   # cells created
F_CURSOR = 1   # the cell whose turn is next
F_OPEN = 2     # open states in all cells
F_FILL = 3     # flood-fill epoch of ``stamp3``
F_MACROS = 4   # packing macros made
F_DEFER = 5    # the cell of deferred states (-1 until one is made)
F_DEFERRED = 6  # open states in it
N_FCOUNTERS = 7
