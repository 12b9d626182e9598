// catbox native search core: partition search for the alpha-beta win table (SEARCH_PART), a
// first, restricted version: the relevant part of a state is the order of some pairs of
// numbers; everything else (the normalised board, hands, permissions, trick fields) must be
// equal up to a renaming of the numbers.
//
// Relabellings. Let sigma be a permutation of the numbers 1..n applied to a state (the cells
// of column k moved to column sigma(k), every hand's count of k to sigma(k), the value of the
// card winning the trick so far renamed, red keeping its bonus). The rules of a trick goal
// (win's lo, hi, pk) look at numbers in one place only: W1 compares the value of a play with
// the value winning the trick so far, and only when both are red or both are of the led
// colour (red beats every other colour whatever the numbers, a play of a third colour never
// wins). L1-L3 (cells, hands, permissions, "red is broken"), F2, X1, X3 and E1 look at
// colours, cells and counts only, so sigma maps the legal plays of a state onto those of
// sigma(state) (a seat that cannot play in one cannot in the other: the paradox of X1 is
// renamed with it), and the child of a play x onto the child of sigma(x) exactly when the
// play's W1 comparison, if it has one (k against the winning number w), comes out the same:
// k > w iff sigma(k) > sigma(w). (The board's layout decides only S's groups, Sc3, which no
// trick goal asks.)
//
// Relevance. win (with SEARCH_PART) returns, with its answer for st and a goal, a set R of
// pairs {a, b} of numbers (Engine::rel_, 36 bits: pair_bit), with the claim
//   (*) for every sigma that keeps the order of each pair of R (a < b iff sigma(a) <
//       sigma(b)), win(sigma(st), goal) = win(st, goal).
// Proof, by induction on the search:
// - E1 (no trick left), the goal's own limits and a seat without a legal play (X1, X3): the
//   answer depends on what sigma keeps; R = {}.
// - A static answer (win_static): the bounds of bounds.h that read no number's value
//   (round_end's caps, never_stuck, s_safe, s_doomed, s_ducks, para_cap) compute the same
//   on sigma(st), and each is a proof, so the answers agree; R = {}. The goal's normalisation
//   (hi above ub, pk above pub) uses only those. The three that compare numbers (s_safe_ducks
//   and s_beaten compare cells with the winning value, stoppers takes S's highest red) give
//   R = every pair: only the identity keeps every pair's order.
// - A searched node: sigma(st) has the plays sigma(x) of st's plays, and the plays win skips
//   (order.h symmetric: colour rows compared as wholes; merge: per number) are skipped alike,
//   each equal in value to a kept one in sigma(st) as in st. (order.h equivalent compares
//   numbers: with SEARCH_EQUIV every searched node gives R = every pair.) A node of the seat
//   that reaches its goal with play x has R = R(child x) + x's W1 pair: every sigma keeping
//   them maps that child to sigma's child with the same answer. A node where every searched
//   play fails has R = the union over its plays of R(child) + the play's W1 pair.
// - A table fact gives the R stored with it (below).
//
// The table (pt_, replacing tt_ for win, df-pn sharing it). At a trick start the key is the
// normalised key (table.h core_key) of the state with its columns sorted by their signature
// (per seat: the cells of the column it can fill, its usable copies; part_key): two states
// have equal keys exactly when one is a relabelling of the other, up to columns with equal
// signatures, which are equal in the normalised state (so either renaming does). The sort
// gives each state st a map pi_st from the sorted index i to the number in column i. A fact
// stored by st keeps R in sorted indices, {i, j} for {pi_st(i), pi_st(j)}, and st's order on
// them (ord: the bit of {i, j}, i < j, set when pi_st(i) < pi_st(j)). A probing state p with
// the same key is
// sigma(st) for sigma = pi_p o pi_st^-1 (up to equal columns); the fact answers p when
// pi_p orders every pair of R as pi_st did, i.e. sigma keeps R's order: (*) gives the
// answer, and p's R is R renamed by pi_p (a sigma' keeping that order keeps R's order after
// sigma, so it maps st to sigma'(p) with R's order kept). Inside a trick the key is st's own
// normalised key (pi = identity: every fact matches, R is kept as numbers), or with
// SEARCH_PART_EVERY the sorted one too, the number of the trick's winning card so far renamed
// with its column (sigma renames it, and every pair of R with it, alike). An entry holds a
// few facts; a new fact drops those it implies (a goal at least as wide for a win, at most as
// wide for a loss, over at least the same states: its R a subset of theirs with the same
// order on it): the more general fact with the looser bound stays beside the more specific
// ones with the tighter bounds. df-pn's facts (pn.cpp) are stored with R = every pair (it
// tracks no relevance).
//
// What this covers: the order of the numbers only. States that differ in which cells are
// open, which seat holds what or which permissions are held share no fact (the cells a line
// tested are not recorded); the sorted key makes states that are renamings of each other meet.
// tests/test_search_partition.py checks (*) itself: renamings that keep R's order, answered
// afresh, give the same answers.
#pragma once
#include <cstdint>

#include "core.h"
#include "table.h"

namespace catbox {

// the bit of the pair {a, b} of numbers 1..MAX_NUMBER (a != b), and the pair of a bit
struct PairIndex {
    int8_t bit[MAX_NUMBER + 1][MAX_NUMBER + 1];
    int8_t lo[64], hi[64];
    PairIndex() {
        int i = 0;
        for (int a = 1; a <= MAX_NUMBER; ++a)
            for (int b = a + 1; b <= MAX_NUMBER; ++b) {
                bit[a][b] = bit[b][a] = (int8_t)i;
                lo[i] = (int8_t)a;
                hi[i] = (int8_t)b;
                ++i;
            }
        for (int a = 0; a <= MAX_NUMBER; ++a) bit[a][a] = bit[0][a] = bit[a][0] = -1;
    }
};

inline const PairIndex& pairs() {
    static const PairIndex p;
    return p;
}

inline uint64_t pair_bit(int a, int b) { return 1ULL << pairs().bit[a][b]; }

// every pair of the numbers 1..n
inline uint64_t all_pairs(int n) {
    uint64_t m = 0;
    for (int a = 1; a <= n; ++a)
        for (int b = a + 1; b <= n; ++b) m |= pair_bit(a, b);
    return m;
}

// The pair of numbers whose order W1 compares when the seat to play plays cell idx, else 0.
inline uint64_t play_pair(const Ctx& cx, const State& st, int idx) {
    if (!st.cnt) return 0;
    int c = cx.cell_c[idx], k = cx.cell_n[idx];
    const int n = cx.n;
    bool red_wins = st.wval > n;  // the winning play so far is red (W1: bonus + n)
    if (c == 0) {
        if (!red_wins) return 0;  // red beats every other colour
        int w = st.wval - cx.rules.red_bonus;
        return w == k ? 0 : pair_bit(k, w);
    }
    if (c != st.led || red_wins) return 0;  // a third colour, or the led colour against red
    return st.wval == k ? 0 : pair_bit(k, st.wval);
}

// A state's sorted column order: num[i] is the number in sorted column i (0-based), idx[k]
// the sorted column of number k; `id`: the identity (mid-trick keys, or already sorted).
struct Perm {
    int8_t num[MAX_NUMBER];
    int8_t idx[MAX_NUMBER + 1];
    bool id = true;
};

// Every pair {lo, hi} of rel mapped to the bit of {f(lo), f(hi)} (the pair renamed)
template <class F>
inline uint64_t renamed_pairs(uint64_t rel, F&& f) {
    const PairIndex& pi = pairs();
    uint64_t out = 0;
    for (uint64_t m = rel; m; m &= m - 1) {
        int b = lowbit(m);
        out |= 1ULL << pi.bit[f(pi.lo[b])][f(pi.hi[b])];
    }
    return out;
}

// R (pairs of numbers) in sorted indices (as the numbers 1..n of the sorted state), and back
inline uint64_t pairs_to_sorted(uint64_t rel, const Perm& pm) {
    return pm.id ? rel : renamed_pairs(rel, [&](int k) { return pm.idx[k] + 1; });
}

inline uint64_t pairs_from_sorted(uint64_t rel, const Perm& pm) {
    return pm.id ? rel : renamed_pairs(rel, [&](int i) { return (int)pm.num[i - 1]; });
}

// The order of the pairs of `rel` (sorted indices) under pm: bit {i, j} (i < j) set when
// num[i] < num[j]
inline uint64_t sorted_order(uint64_t rel, const Perm& pm) {
    if (pm.id) return rel;
    const PairIndex& pi = pairs();
    uint64_t out = 0;
    for (uint64_t m = rel; m; m &= m - 1) {
        int b = lowbit(m);
        if (pm.num[pi.lo[b] - 1] < pm.num[pi.hi[b] - 1]) out |= 1ULL << b;
    }
    return out;
}

// The normalised key of st with its columns sorted by signature (see above), pm its order:
// table.h core_key's layout (`norm`) of the sorted state, built from the signatures (without
// `symmetric`; with it, core_key of the sorted state).
inline Key part_key(const Ctx& cx, const State& st, bool symmetric, Perm& pm) {
    const int n = cx.n;
    const uint64_t row = (1ULL << n) - 1;
    // per seat, in 4-bit lanes (one per number): the colours of the column it can fill (F_q),
    // and its usable copies (min(copies, |F_q ∩ column|))
    uint64_t pat[MAX_SEATS], cc[MAX_SEATS], any = 0;
    uint32_t perms = 0;
    for (int q = 0; q < cx.players; ++q) {
        uint64_t f = cx.hand_cols(st.hand[q]) & ~st.occ & cx.perm_cells(st, q);
        uint64_t r0 = f & row, r1 = f >> n & row, r2 = f >> 2 * n & row, r3 = f >> 3 * n & row;
        pat[q] = cx.lane4[r0] | cx.lane4[r1] << 1 | cx.lane4[r2] << 2 | cx.lane4[r3] << 3;
        cc[q] = Ctx::min_lanes(cx.lanes_of(st.hand[q]), cx.column_counts(f));
        any |= pat[q];
        perms |= (uint32_t)((r0 ? 1 : 0) | (r1 ? 2 : 0) | (r2 ? 4 : 0) | (r3 ? 8 : 0)) << (4 * q);
    }
    uint64_t sig[MAX_NUMBER + 1];
    for (int k = 1; k <= n; ++k) {
        uint64_t s = 0;
        for (int q = 0; q < cx.players; ++q)
            s |= ((pat[q] >> (4 * (k - 1)) & 15) | (cc[q] >> (4 * (k - 1)) & 15) << 4) << (8 * q);
        sig[k] = s;
    }
    // stable insertion sort of the numbers by signature
    for (int i = 0; i < n; ++i) {
        int k = i + 1, j = i;
        while (j > 0 && sig[pm.num[j - 1]] > sig[k]) {
            pm.num[j] = pm.num[j - 1];
            --j;
        }
        pm.num[j] = (int8_t)k;
    }
    pm.id = true;
    for (int i = 0; i < n; ++i) {
        pm.idx[pm.num[i]] = (int8_t)i;
        if (pm.num[i] != i + 1) pm.id = false;
    }
    int wval = st.wval;
    if (st.cnt && wval >= 0 && !pm.id) {  // the winning card so far renamed with its column
        bool red = wval > n;
        int w = red ? wval - cx.rules.red_bonus : wval;
        wval = pm.idx[w] + 1 + (red ? cx.rules.red_bonus : 0);
    }
    if (symmetric) {
        State s = st;
        const uint64_t col1 = cx.col[1];
        uint64_t occ = 0;
        uint32_t hands[MAX_SEATS] = {};
        for (int i = 0; i < n; ++i) {
            int k = pm.num[i] - 1;  // column k + 1 moves to column i + 1
            occ |= (st.occ >> k & col1) << i;
            for (int q = 0; q < cx.players; ++q)
                hands[q] |= (st.hand[q] >> (3 * k) & 7u) << (3 * i);
        }
        s.occ = occ;
        for (int q = 0; q < cx.players; ++q) s.hand[q] = hands[q];
        s.wval = (int8_t)wval;
        return core_key(cx, s, symmetric, false, true);
    }
    // the sorted state's normalised board (a cell no seat can fill is used) and usable copies
    uint64_t free_cells = 0;
    uint32_t hands[MAX_SEATS] = {};
    for (int i = 0; i < n; ++i) {
        int sh = 4 * (pm.num[i] - 1);
        uint64_t u = any >> sh & 15;
        free_cells |= ((u & 1) | (u >> 1 & 1) << n | (u >> 2 & 1) << 2 * n | (u >> 3 & 1) << 3 * n)
                      << i;
        for (int q = 0; q < cx.players; ++q) hands[q] |= (uint32_t)(cc[q] >> sh & 7) << (3 * i);
    }
    uint64_t occ = cx.pc[15] & ~free_cells;
    if (st.occ & cx.red) occ |= cx.broken_bit;
    Key key;
    key.w[0] = occ | (uint64_t)perms << 37 | (uint64_t)st.leader << 57 | (uint64_t)st.cnt << 60;
    key.w[1] = hands[0] | (uint64_t)hands[1] << 27 | (uint64_t)(st.led + 1) << 54 |
               (uint64_t)(st.wseat + 1) << 57;
    key.w[2] = hands[2] | (uint64_t)hands[3] << 27 | (uint64_t)(wval + 1) << 54;
    key.w[3] = hands[4] | (uint64_t)1 << 39 | (uint64_t)st.left << 31;
    key.w[4] = 0;
    return key;
}

// a play in sorted coordinates, and back (hints)
inline int sorted_cell(const Ctx& cx, int idx, const Perm& pm) {
    if (idx < 0 || pm.id) return idx;
    return cx.cell_c[idx] * cx.n + pm.idx[cx.cell_n[idx]];
}

inline int real_cell(const Ctx& cx, int h, const Perm& pm) {
    if (h < 0 || pm.id) return h;
    return (h / cx.n) * cx.n + pm.num[h % cx.n] - 1;
}

struct PartFact {
    uint64_t w;    // R in the key's coordinates (36 bits), then lo, hi, pk (+1, 4 bits each), res
    uint64_t ord;  // the storing state's order on R
    static PartFact of(uint64_t rel, uint64_t ord, int lo, int hi, int pk, bool res) {
        return PartFact{rel | (uint64_t)(lo + 1) << 40 | (uint64_t)(hi + 1) << 44 |
                            (uint64_t)(pk + 1) << 48 | (uint64_t)res << 52,
                        ord};
    }
    uint64_t rel() const { return w & ((1ULL << 36) - 1); }
    int lo() const { return (int)(w >> 40 & 15) - 1; }
    int hi() const { return (int)(w >> 44 & 15) - 1; }
    int pk() const { return (int)(w >> 48 & 15) - 1; }
    bool res() const { return w >> 52 & 1; }
};

constexpr int PART_FACTS = 4;

struct PartEntry {
    PartFact facts[PART_FACTS];
    uint64_t hint_ord;  // the order of every pair of the state that stored the hint
    int8_t nfacts;
    int8_t hint;  // a best play, for states of that order only (another order's best play
                  // need not be as good; measured, either way within the noise)
};

}  // namespace catbox
