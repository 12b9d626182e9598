// catbox native search core: static bounds (mirrors the Engine methods of the same names).
#pragma once
#include "core.h"

namespace catbox {

// The connected component of `cells` that contains the cells of `seed` (layout adjacency).
inline uint64_t component(const Ctx& cx, uint64_t seed, uint64_t cells) {
    uint64_t comp = seed, frontier = seed;
    while (frontier) {
        uint64_t grow = 0;
        for (uint64_t f = frontier; f; f &= f - 1) grow |= cx.adj[lowbit(f)];
        grow &= cells & ~comp;
        comp |= grow;
        frontier = grow;
    }
    return comp;
}

// Largest connected group of the cells in `mine` (Sc3).
inline int largest_group(const Ctx& cx, uint64_t mine) {
    int best = 0;
    while (mine) {
        uint64_t comp = component(cx, mine & (~mine + 1), mine);
        int c = popcount(comp);
        if (c > best) best = c;
        mine &= ~comp;
    }
    return best;
}

// Open cells of S's numbers in colours S holds (L1, L2; I4: these only shrink).
inline uint64_t s_free(const Ctx& cx, const State& st) {
    return cx.hand_cols(st.hand[cx.seat]) & ~st.occ & cx.perm_cells(st, cx.seat);
}

// Upper bound on S's largest group at the end of the round when S makes at most `plays` more
// plays: the final group lies in one component of mine | free with at most `plays` free cells.
inline int group_bound(const Ctx& cx, const State& st, int plays) {
    uint64_t mine = st.mine, free = s_free(cx, st);
    uint64_t rest = mine | free;
    int b = 0;
    while (rest) {
        uint64_t comp = component(cx, rest & (~rest + 1), rest);
        int f = popcount(comp & free);
        int v = popcount(comp & mine) + (plays < f ? plays : f);
        if (v > b) b = v;
        rest &= ~comp;
    }
    return b;
}

// Upper bound on the plays S can still make: sum over k of min(copies of k, S's cells of k).
inline int s_plays_bound(const Ctx& cx, const State& st) {
    uint64_t free = s_free(cx, st);
    uint32_t hand = st.hand[cx.seat];
    int total = 0;
    for (int k = 1; k <= cx.n; ++k) {
        uint64_t m = free & cx.col[k];
        if (m) {
            int h = Ctx::count(hand, k), c = popcount(m);
            total += h < c ? h : c;
        }
    }
    return total;
}

// A static proof that S can always avoid causing a paradox (I4): S's remaining plays can be
// matched to distinct safe cells (cells only S can ever fill). See Engine.never_stuck.
inline bool never_stuck(const Ctx& cx, const State& st, int s_done) {
    int plays = st.left - s_done;
    if (plays <= 0) return true;
    uint32_t hand = st.hand[cx.seat];
    uint64_t mine = s_free(cx, st);
    if (popcount(mine) < plays) return false;
    for (int q = 0; q < cx.players; ++q)
        if (q != cx.seat) mine &= ~(cx.hand_cols(st.hand[q]) & cx.perm_cells(st, q));
    if (popcount(mine) < plays) return false;
    int total = 0;
    for (int k = 1; k <= cx.n; ++k) {
        uint64_t m = mine & cx.col[k];
        if (m) {
            int h = Ctx::count(hand, k), c = popcount(m);
            total += h < c ? h : c;
        }
    }
    return total >= plays;
}

}  // namespace catbox
