# cython: language_level=3
"""Private compiled core of dobbm: exact open-card alpha-beta search."""

from libc.stdint cimport uint64_t, uint32_t, int8_t, uint8_t, int64_t

cdef struct TTEntry:
    # 32 bytes: a two-entry bucket fills one 64-byte cache line
    uint64_t key[2]     # key of the trick start by relative ranks (see canonical_key)
    uint32_t gen        # search generation that wrote it (other generations are empty)
    int8_t lower        # bounds on the future points from this trick start
    int8_t upper
    uint8_t depth       # cards left in all hands
    uint8_t spare
    uint64_t exact      # the cards present (zero-point cards packed): with key, the position

cdef struct Pos:
    uint64_t hands[4]   # seat 0 is the declarer, then clockwise
    uint64_t trickmask  # cards in the unfinished trick
    # the small fields in bytes: a node copies the position (64 bytes, not 88)
    int8_t trick[4]     # cards of the unfinished trick, in play order
    int8_t leader
    int8_t ncards       # cards in the unfinished trick
    int8_t win          # index in ``trick`` of the card winning it so far (when ncards > 0)
    int8_t has_trick    # the declarer has won a trick (Match rule)
    int pts             # points in the declarer's finished tricks
    int trick_pts       # points in the unfinished trick
    int rem_pts         # points still in the hands

cdef struct Ctx:
    TTEntry* tt
    uint64_t tt_mask    # entries in use - 1 (a power of two): a small part of the table first
    uint64_t tt_full    # number of entries - 1
    int64_t grow_at     # nodes after which the part in use grows (see tt_grow)
    uint32_t gen
    int bonus           # lay-away (Dobbm) or Dobb (Solo) points, the declarer's if they win a trick
    int64_t nodes       # since the table's generation began: of every root sharing it
    int64_t start_nodes # the most nodes MTD(f)'s start may take (see first_choice_bound)
    const Pos* root     # the position MTD(f) tests (see mtdf_bounded), or NULL
    int root_bound[36]  # by card of the root's mover: a bound on its value from the passes (see root_cards)
    int lead_history[4][36]   # history heuristic for leads: credit for cutoffs, debit for failures (see lead_credit)

cdef class Core:
    cdef Ctx ctx
    cdef Pos root
    cdef size_t n_entries
    cdef int64_t grow_after   # nodes after which a new table's search first grows its part in use
    cdef int64_t nodes_before # ctx.nodes when the root was set (earlier roots sharing the table)
    cdef void* tt_raw
    cdef int final            # final points after set_play played every trick
    cdef void new_root(self, int bonus, bint keep_table) noexcept
