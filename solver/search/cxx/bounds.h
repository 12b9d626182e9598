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

namespace catbox {

// ---------------------------------------------------------------- stronger static bounds
//
// Switches in Options::bounds (search.h), one bit per bound so each can be measured alone.
constexpr int BOUND_SAFE = 1;    // sure_plays for S: a stronger never_stuck
constexpr int BOUND_DOOMED = 2;  // sure paradox of S (every other seat proven to outlast S)
constexpr int BOUND_TRICKS = 4;  // S wins at most one trick per play it can still make

// Has seat q already played in the current trick?
inline int seat_done(const Ctx& cx, const State& st, int q) {
    return st.cnt && (q - st.leader + cx.players) % cx.players < st.cnt ? 1 : 0;
}

// A lower bound on the plays seat q can make from st whatever every seat does (X1 never hits
// q before q has made that many plays). Generalises never_stuck from "cells only q can fill"
// to "cells others can fill, counted per number".
//
// Proof. For a number k q holds, let F_k be the empty cells of k in colours q holds (L1, L2),
// C_k those of F_k that another seat r could ever fill (r holds a k and the colour; hands and
// permissions only shrink, I4, so C_k covers every future fill of F_k by others), and
// o_k = min(|C_k|, sum over r of min(r's copies of k, r's cells of C_k, r's plays left)) — at
// most o_k cells of F_k are ever filled by others (each fill spends one of r's k cards on one
// cell). q's strategy: whenever q can follow the led colour (a legal play in it), follow with
// any such play; otherwise play anything legal. q then loses a permission c (F2) only when it
// has no legal play in c, i.e. every cell (c, k) with k in q's hand is already filled — and
// stays so (I4): so for every k q still holds, the cells of F_k still playable are exactly the
// unfilled ones. After q's own j_k plays of k, at least |F_k| - j_k - o_k of them are empty, so
// q can make g_k = min(copies of k, |F_k| - o_k) plays of k whatever the order of play. At each
// of q's turns with J < sum g_k plays made, some k has j_k < g_k, so q holds a k with an empty
// playable cell: a legal play (L3 alone never blocks, X1; a red-lead ban only means some
// non-red play is legal, L3b). Any play made lowers sum_k max(0, g_k - j_k) by at most one, so
// q can make sum_k g_k plays. (With every C_k counted whole, o_k = |C_k|, this is never_stuck.)
inline int sure_plays(const Ctx& cx, const State& st, int q) {
    uint32_t hand = st.hand[q];
    uint64_t free = cx.hand_cols(hand) & ~st.occ & cx.perm_cells(st, q);
    if (!free) return 0;
    int total = 0;
    for (int k = 1; k <= cx.n; ++k) {
        uint64_t f = free & cx.col[k];
        if (!f) continue;
        uint64_t contested = 0;
        int opp = 0;
        for (int r = 0; r < cx.players; ++r) {
            if (r == q) continue;
            int hr = Ctx::count(st.hand[r], k);
            if (!hr) continue;
            uint64_t cr = f & cx.perm_cells(st, r);
            if (!cr) continue;
            contested |= cr;
            int x = popcount(cr), pr = st.left - seat_done(cx, st, r);
            if (hr < x) x = hr;
            if (pr < x) x = pr;
            opp += x;
        }
        int o = popcount(contested);
        if (opp < o) o = opp;
        int g = popcount(f) - o, h = Ctx::count(hand, k);
        total += h < g ? h : g;
    }
    return total;
}

// An upper bound on the plays seat q can still make (s_plays_bound for any seat).
inline int plays_bound(const Ctx& cx, const State& st, int q) {
    uint32_t hand = st.hand[q];
    uint64_t free = cx.hand_cols(hand) & ~st.occ & cx.perm_cells(st, q);
    int total = 0;
    for (uint64_t f = free; f;) {
        int k = cx.cell_n[lowbit(f)];
        uint64_t m = free & cx.col[k];
        f &= ~m;
        int h = Ctx::count(hand, k), c = popcount(m);
        total += h < c ? h : c;
    }
    return total;
}

// Plays q makes from st before the turn of seat x in trick T (0 = the current trick): once
// in each trick up to T, less the current trick if q has played in it; in trick 0 exactly
// when q is still to play before x (the order of later tricks is not known yet).
inline int plays_before(const Ctx& cx, const State& st, int q, int x, int T) {
    if (T > 0) return T + 1 - seat_done(cx, st, q);
    int pq = (q - st.leader + cx.players) % cx.players;
    int px = (x - st.leader + cx.players) % cx.players;
    return pq >= st.cnt && pq < px ? 1 : 0;
}

// What the static bounds prove about st (the seat to play has a legal play).
struct Static {
    int ub = 0;          // S wins at most ub more tricks in every continuation (the round
                         // end E only with BOUND_TRICKS)
    bool safe = false;   // S never causes a paradox (only when asked for)
    bool doomed = false; // S surely causes a paradox
};

// The static bounds of st (BOUND_* in mask; s_done: S has played in the current trick; top:
// the tricks S can still win at all). `want_safe`: also decide `safe` (the costly part).
//
// Proofs. (1) Round end: a seat q with plays_bound(q) = m_q below the plays it owes
// (left - q's play in this trick) has no legal play at its (m_q+1)-th turn at the latest (each
// play fills a distinct empty cell of its number in a colour q holds, L1 L2 I4), a turn in
// trick T_q = m_q + (q has played) < left. So the round ends by a paradox (X1, X3) no later
// than during trick E = min T_q: S completes at most E more tricks (none of an unfinished
// trick counts, X3), and at most one per play it can still make plus the current one if it has
// played and is winning it (W1, W3). ub is the least of these and `top`.
// (2) Safe: S has to make its plays only up to the first forced end: if sure_plays(S) covers
// the plays S owes, or the plays S makes before the turn of some doomed seat q in trick T_q
// (a paradox — q's or an earlier one — ends the round by then, and it is not S's because S
// still had a legal play at each of its turns), S never causes a paradox.
// (3) Doomed: S's own m_S is below what it owes (S stuck by its turn in trick T_S) and every
// other seat q has sure_plays(q) >= the plays q makes before that turn: each q, by its own
// sure_plays strategy, is never stuck first, so the round ends with S's paradox (X1). X3 is why
// S's own count alone is not enough: another seat's paradox would end the round first.
inline Static static_bounds(const Ctx& cx, const State& st, int s_done, int top, int mask,
                            bool want_safe) {
    Static r;
    const int seat = cx.seat, left = st.left;
    int ms = plays_bound(cx, st, seat);
    int owe = left - s_done;
    int ub = ms + (s_done && st.wseat == seat ? 1 : 0);
    if (ub > top) ub = top;
    int s_need = owe;  // plays S must surely make to be safe
    if (mask & (BOUND_TRICKS | BOUND_SAFE)) {
        for (int q = 0; q < cx.players; ++q) {
            if (q == seat) continue;
            int dq = seat_done(cx, st, q);
            int mq = plays_bound(cx, st, q);
            if (mq >= left - dq) continue;
            int T = mq + dq;
            if (mask & BOUND_TRICKS && T < ub) ub = T;
            int need = plays_before(cx, st, seat, q, T);
            if (need < s_need) s_need = need;
        }
    }
    r.ub = ub;
    if (want_safe) {
        if (mask & BOUND_SAFE)
            r.safe = s_need <= 0 || (ms >= s_need && sure_plays(cx, st, seat) >= s_need);
        else
            r.safe = ms >= owe && never_stuck(cx, st, s_done);
    }
    if (mask & BOUND_DOOMED && ms < owe) {
        int T = ms + s_done;
        r.doomed = true;
        for (int q = 0; q < cx.players && r.doomed; ++q) {
            if (q == seat) continue;
            int need = plays_before(cx, st, q, seat, T);
            if (need > 0 && sure_plays(cx, st, q) < need) r.doomed = false;
        }
    }
    return r;
}

}  // namespace catbox
