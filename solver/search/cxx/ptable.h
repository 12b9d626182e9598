// catbox native search core: rank-normalised table keys (a first partition of the states).
//
// A table entry keyed by table.h core_key (`norm`) covers the states that agree on the cells
// each seat can still fill (F_q), the usable copies and the trick fields. rank_key makes the
// classes larger: it also forgets *which* numbers are still alive, keeping only their order.
//
// Let L be the live numbers of st: those with a cell in some F_q (every other number is dead:
// no copy of it is ever played again, its cells are "used"). Let sigma map L onto 1..m in
// order. rank_state builds sigma(st): the live columns moved to 1..m (cells and hand counts;
// dead cards dropped), the columns m+1..n filled (red ones only when red is broken, L3a, so
// "broken" is kept), permissions, seats and trick counts unchanged, and the value of the card
// winning the current trick so far, w (W1: red counts bonus + n), replaced by the number of
// live numbers <= w (red keeps its bonus). Then for every live k: k > w exactly when sigma(k) >
// sigma(w), and a red card still beats every other colour (the bonus exceeds every number).
// Claim: st and sigma(st) have equal answers for every goal on tricks and paradoxes (win, para,
// pn; not S's groups, Sc3, which depend on the layout). Proof: by core_key's argument the
// answers of st depend only on the F_q, the usable copies, the trick fields and "red is
// broken", and sigma(st) has their images. Every play from either is of a live number; sigma
// maps the legal plays of one onto the other's (L1-L3 look at cells, hand counts, permissions,
// "broken"), keeps the colour of each (F2) and every comparison of W1 in this trick (the
// winner so far above) and every later one (monotone on L). By induction every line of st
// maps to a line of sigma(st) with the same trick winners and the same stuck seats (X1, X3).
// So two states with equal core_key of their sigma-images have equal answers: rank_key is
// core_key(sigma(st)).
//
// A stored best play (the table's hint) is kept in the sigma coordinates (rank_hint) and
// mapped back through the probing state's own live numbers (real_hint): the hint of a
// transposed state then names the play of the same rank.
#pragma once
#include <cstdint>

#include "core.h"
#include "table.h"

namespace catbox {

// the live numbers of st (bit k - 1 for number k): numbers with a cell some seat can fill
inline uint32_t live_numbers(const Ctx& cx, const State& st) {
    uint64_t alive = 0;
    for (int q = 0; q < cx.players; ++q)
        alive |= cx.hand_cols(st.hand[q]) & ~st.occ & cx.perm_cells(st, q);
    const int n = cx.n;
    const uint64_t row = (1ULL << n) - 1;
    return (uint32_t)((alive | alive >> n | alive >> 2 * n | alive >> 3 * n) & row);
}

// sigma(st) for the live numbers `live` (see above)
inline State rank_state(const Ctx& cx, const State& st, uint32_t live) {
    const int n = cx.n;
    const uint64_t col1 = cx.col[1];
    State s = st;
    uint64_t occ = 0;
    uint32_t hands[MAX_SEATS] = {};
    int j = 0;
    for (uint32_t m = live; m; m &= m - 1) {
        int k = lowbit(m);  // number k + 1 becomes number j + 1
        occ |= (st.occ >> k & col1) << j;
        for (int q = 0; q < cx.players; ++q) hands[q] |= (st.hand[q] >> (3 * k) & 7u) << (3 * j);
        ++j;
    }
    const uint64_t row = (1ULL << n) - 1;
    uint64_t dead = 0;  // the columns m+1..n: filled
    for (int c = 0; c < 4; ++c) dead |= (row & ~((1ULL << j) - 1)) << (c * n);
    if (!(st.occ & cx.red)) dead &= ~cx.red;  // L3a: "red is broken" kept
    s.occ = occ | dead;
    for (int q = 0; q < cx.players; ++q) s.hand[q] = hands[q];
    if (st.cnt && st.wval >= 0) {
        bool red = st.wval > n;
        int w = red ? st.wval - cx.rules.red_bonus : st.wval;
        int r = popcount(live & ((1u << w) - 1));  // live numbers <= w
        s.wval = (int8_t)(red ? cx.rules.red_bonus + r : r);
    }
    return s;
}

// core_key of sigma(st) (normalised); `live` gets st's live numbers for the hints. The key is
// the normalised key of a state with st's answers, so it may meet core_key's keys in one table.
inline Key rank_key(const Ctx& cx, const State& st, bool symmetric, uint32_t& live) {
    live = live_numbers(cx, st);
    if (live == (1u << cx.n) - 1) return core_key(cx, st, symmetric, false, true);  // sigma = id
    return core_key(cx, rank_state(cx, st, live), symmetric, false, true);
}

// a play (cell index) of st in sigma's coordinates, and back; -1 stays -1 (no hint), and a
// hint whose rank st has no more live number for maps to -1
inline int rank_hint(const Ctx& cx, int idx, uint32_t live) {
    if (idx < 0) return idx;
    int k = cx.cell_n[idx];
    return cx.cell_c[idx] * cx.n + popcount(live & ((1u << (k - 1)) - 1));
}

inline int real_hint(const Ctx& cx, int h, uint32_t live) {
    if (h < 0) return h;
    int j = h % cx.n;  // the (j + 1)-th live number
    for (int i = 0; i < j && live; ++i) live &= live - 1;
    if (!live) return -1;
    return (h / cx.n) * cx.n + lowbit(live);
}

}  // namespace catbox
