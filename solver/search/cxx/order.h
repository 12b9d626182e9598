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

struct History {
    int64_t score[MAX_SEATS][MAX_CELLS] = {};
    void credit(int p, int idx, int depth) { score[p][idx] += (int64_t)depth * depth; }
    void clear() {
        for (auto& row : score)
            for (auto& v : row) v = 0;
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
