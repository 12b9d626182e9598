// catbox native search core: move ordering and equivalent plays.
#pragma once
#include <cstdint>

#include "core.h"

namespace catbox {

// lm without follower discards equivalent to a kept one for the rest of the round (see
// Engine.merge: same trick effect, W1; same permission loss, F2; the cells differ only for a
// seat that still holds k and permission c).
inline uint64_t merge(const Ctx& cx, const State& st, uint64_t lm, int p) {
    uint64_t cand = lm & cx.offcol[st.led];
    if (!(cand & (cand - 1))) return lm;
    for (int k = 1; k <= cx.n; ++k) {
        uint64_t m = cand & cx.col[k];
        if (!(m & (m - 1))) continue;
        uint32_t permk = 0;
        for (int q = 0; q < cx.players; ++q) {
            int h = Ctx::count(st.hand[q], k);
            if (h > 1 || (h == 1 && q != p)) permk |= st.perms >> (4 * q) & 15;
        }
        uint64_t irr = m & ~cx.pc[permk];
        if (irr & (irr - 1)) lm &= ~(irr & (irr - 1));
    }
    return lm;
}

// lm without plays that mirror a kept one under colour symmetry: blue, yellow and green are
// interchangeable in the rules (only red is special, L3 and W1, and the led colour, F2, W1),
// so two of them whose rows are filled alike and for which every seat holds the same
// permission (and, when S's groups can still score, Sc3, whose rows hold S's tokens alike)
// give mirror-image children of equal value. Of each class only the lowest colour is kept.
inline uint64_t symmetric(const Ctx& cx, const State& st, uint64_t lm, bool use_mine) {
    const int n = cx.n;
    const uint64_t row = (1ULL << n) - 1;
    const int led = st.cnt ? st.led : -1;
    uint64_t gone = 0;
    for (int c1 = 1; c1 <= 2; ++c1) {
        if (c1 == led || (gone >> (c1 * n) & row)) continue;
        for (int c2 = c1 + 1; c2 <= 3; ++c2) {
            if (c2 == led || !(lm >> (c2 * n) & row)) continue;
            if (((st.occ >> (c1 * n)) ^ (st.occ >> (c2 * n))) & row) continue;
            if (((st.perms >> c1) ^ (st.perms >> c2)) & 0x11111u) continue;
            if (use_mine && (((st.mine >> (c1 * n)) ^ (st.mine >> (c2 * n))) & row)) continue;
            gone |= row << (c2 * n);
        }
    }
    return lm & ~gone;
}

// lm without plays of a number b when the next lower live number a is equivalent to it for
// the seat to play p (DDS's equal cards, on this board): goals that count tricks and
// paradoxes only (win, para, pn, value without a bonus), not S's groups (Sc3: the layout
// makes columns a and b differ).
//
// Let F_q be the cells seat q can fill (empty, of a number q holds, in a colour q holds) and
// cc(q, k) = min(q's copies of k, |F_q ∩ column k|) its usable copies; k is live when some
// cc(q, k) > 0. By table.h core_key (`norm`), a state's answers depend only on the F_q, the
// cc and the trick fields (every other cell is "used", every other card dead). Plays (c, a)
// and (c, b) of p, a < b, are equal in value when
//   (1) no other seat can play a or b: cc(q, a) = cc(q, b) = 0 for q != p;
//   (2) cc(p, a) = cc(p, b) and F_p has the same colours in columns a and b;
//   (3) no number strictly between a and b is live;
//   (4) the card winning the current trick so far (if any) is not numbered in [a, b].
// Proof. Let sigma swap the numbers a and b (in cells, hands, and the trick's winning value).
// After (c, b), sigma gives the reduced state after (c, a): the boards agree by (2) (each play
// fills cell c of its column, and the played column loses that cell, or every cell once p's
// usable copies run out, alike), the hands by (1) and (2), the current trick by (4) (W1: p's
// card beats the winner in one exactly when in the other; the winner keeps its value), "red
// is broken" by the common colour c. sigma maps the legal plays of every later state onto
// those of its image (L1-L3 look at cells, hands and permissions only, all mapped). It keeps
// every comparison of W1 in every later trick: the cards compared are the current winner
// (outside [a, b]) and cards still to be played, and by (1) and (3) each of those numbered in
// [a, b] is p's a or b, at most one per trick, while the others lie outside [a, b]; swapping
// a and b keeps the order of each against numbers outside [a, b]. So every line from one
// maps to a line from the other with the same trick winners and the same paradoxes (X1, X3):
// equal values for every goal on tricks and paradoxes. Chains a < b < c (consecutive live
// numbers, each pair equivalent) keep a alone. Every pruned play has an equal kept play of a
// lower cell index, as with symmetric and merge, so used together at least one play of each
// class stays.
inline uint64_t equivalent(const Ctx& cx, const State& st, uint64_t lm, int p) {
    const int n = cx.n;
    if (!(lm & (lm - 1))) return lm;
    uint64_t fp = cx.hand_cols(st.hand[p]) & ~st.occ & cx.perm_cells(st, p);
    // usable copies of each number: p's, and whether any other seat has any
    int ccp[MAX_NUMBER + 1] = {};
    uint32_t others = 0;  // bit k: another seat can play k
    for (int q = 0; q < cx.players; ++q) {
        uint64_t f = q == p ? fp : cx.hand_cols(st.hand[q]) & ~st.occ & cx.perm_cells(st, q);
        for (uint64_t r = f; r;) {
            int k = cx.cell_n[lowbit(r)];
            uint64_t m = f & cx.col[k];
            r &= ~m;
            int c = Ctx::count(st.hand[q], k), e = popcount(m);
            if (q == p)
                ccp[k] = c < e ? c : e;
            else
                others |= 1u << k;
        }
    }
    int w = 0;  // the number of the trick's winning card so far (W1: red counts bonus + n)
    if (st.cnt) w = st.wval > n ? st.wval - cx.rules.red_bonus : st.wval;
    const uint64_t col1 = cx.col[1];
    int prev = 0;
    for (int k = 1; k <= n; ++k) {
        if (!ccp[k] && !(others >> k & 1)) continue;  // dead: not live
        int a = prev;
        prev = k;
        if (!a || !ccp[k] || (others >> k & 1) || (others >> a & 1) || ccp[a] != ccp[k]) continue;
        if (((fp >> (a - 1)) ^ (fp >> (k - 1))) & col1) continue;
        if (st.cnt && w >= a && w <= k) continue;
        lm &= ~cx.col[k];
    }
    return lm;
}

struct History {
    int64_t score[MAX_SEATS][MAX_CELLS] = {};
    void credit(int p, int idx, int depth) { score[p][idx] += (int64_t)depth * depth; }
    void clear() {
        for (auto& row : score)
            for (auto& v : row) v = 0;
    }
    // every score divided by 2^shift: older credit weighs less (search.h Options::hist_age)
    void age(int shift) {
        for (auto& row : score)
            for (auto& v : row) v >>= shift;
    }
};

struct Moves {
    int8_t idx[MAX_CELLS] = {};
    int n = 0;
};

// Moves of lm by history (stable: ties keep the ascending cell order), the hint first.
inline void ordered(const History& hist, uint64_t lm, int p, int hint, Moves& out) {
    out.n = 0;
    for (uint64_t m = lm; m; m &= m - 1) out.idx[out.n++] = (int8_t)lowbit(m);
    if (out.n <= 1) return;
    const int64_t* h = hist.score[p];
    for (int i = 1; i < out.n; ++i) {  // insertion sort, descending, stable
        int8_t x = out.idx[i];
        int j = i;
        while (j > 0 && h[out.idx[j - 1]] < h[x]) {
            out.idx[j] = out.idx[j - 1];
            --j;
        }
        out.idx[j] = x;
    }
    if (hint >= 0 && out.idx[0] != hint) {
        for (int i = 1; i < out.n; ++i)
            if (out.idx[i] == hint) {
                for (int j = i; j > 0; --j) out.idx[j] = out.idx[j - 1];
                out.idx[0] = (int8_t)hint;
                break;
            }
    }
}

}  // namespace catbox
