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

// group_bound with S's plays counted per number: in each component, S fills at most
// min(copies of k it holds, free cells of k in it) cells of number k (one per play, L1), and
// at most `plays` in all. Never above group_bound.
inline int group_bound_held(const Ctx& cx, const State& st, int plays) {
    uint64_t mine = st.mine, free = s_free(cx, st);
    uint64_t rest = mine | free;
    uint32_t hand = st.hand[cx.seat];
    int b = 0;
    while (rest) {
        uint64_t comp = component(cx, rest & (~rest + 1), rest);
        rest &= ~comp;
        uint64_t f = comp & free;
        int fills = 0;
        while (f) {
            uint64_t m = f & cx.col[cx.cell_n[lowbit(f)]];
            f &= ~m;
            int h = Ctx::count(hand, cx.cell_n[lowbit(m)]), c = popcount(m);
            fills += h < c ? h : c;
        }
        int v = popcount(comp & mine) + (plays < fills ? plays : fills);
        if (v > b) b = v;
    }
    return b;
}

// Upper bound on the plays S can still make: sum over k of min(copies of k, S's cells of k).
inline int s_plays_bound(const Ctx& cx, const State& st) {
    uint64_t open = ~st.occ & cx.perm_cells(st, cx.seat);
    return Ctx::min_sum(cx.lanes_of(st.hand[cx.seat]), cx.column_counts(open));
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
    return Ctx::min_sum(cx.lanes_of(hand), cx.column_counts(mine)) >= plays;
}

}  // namespace catbox

namespace catbox {

// ---------------------------------------------------------------- stronger static bounds
//
// Switches in Options::bounds (search.h), one bit per bound so each can be measured alone.
constexpr int BOUND_SAFE = 1;    // surely_makes for S: a stronger never_stuck, up to the round end
constexpr int BOUND_DOOMED = 2;  // sure paradox of S (every other seat proven to outlast S)
constexpr int BOUND_TRICKS = 4;  // S's tricks capped by its plays and by the round end
constexpr int BOUND_STOPPERS = 8;  // tricks another seat can deny S with its top red cards
// S's sure paradox found earlier: when S is short of plays by its own count, the other
// seats' plays must crowd into S's open cells (crowded_trick) and may take S's last legal play
// at an earlier turn, so fewer plays of the others need to be sure (s_doomed). Measured where
// the default mask is (search.h Options::bounds): on.
constexpr int BOUND_CROWD = 16;

// The paradox part of a goal (win's pk, para's values): S's paradox comes after at most
// para_cap(ub, top) more tricks of S, `ub` round_end's cap on S's tricks and `top` the tricks
// S can still win (left, less the current trick when S has played in it and is not winning
// it).
//
// Proof. S's paradox happens at S's turn in some trick T of the round (X1), counted from the
// current one as 0, and a trick is played only while cards are left: T <= left - 1 (E1: the
// round ends after the left-th trick, its last card never played). The trick T is unfinished
// and counts for nobody (X3), so S has won at most the tricks 0..T-1 by then: at most
// T <= left - 1 more. When S has played in the current trick and is not winning it, S won
// none of trick 0 (W1) and T >= 1 (S's turn in trick 0 is past): at most T - 1 <= left - 2 =
// top - 1. Otherwise top = left: at most left - 1 = top - 1. And at most ub, S's cap in
// every continuation. So when S has won that many more tricks it can no longer cause a
// paradox that the others would count against a goal "paradox after at most pk tricks" with
// pk >= para_cap: such a goal holds on every paradox line, and equals the goal with pk = left.
constexpr int BOUND_PARA_END = 32;
inline int para_cap(int ub, int top) { return top - 1 < ub ? top - 1 : ub; }

// Has seat q already played in the current trick?
inline int seat_done(const Ctx& cx, const State& st, int q) {
    return st.cnt && cx.order_of(st, q) < st.cnt ? 1 : 0;
}

// An upper bound on the plays seat q can still make (s_plays_bound for any seat): each play
// fills a distinct empty cell of its number in a colour q holds (L1, L2, I4).
// (All numbers at once in 4-bit lanes: min(copies, open cells) per number, summed.)
inline int plays_bound(const Ctx& cx, const State& st, int q) {
    uint64_t open = ~st.occ & cx.perm_cells(st, q);
    return Ctx::min_sum(cx.lanes_of(st.hand[q]), cx.column_counts(open));
}

// The per-seat facts of one state that every bound of a node reads, computed once per node
// (the bounds below ask them several times per seat).
struct Seats {
    uint64_t fill[MAX_SEATS];   // the cells q could fill if empty: its numbers, its colours
    uint64_t lanes[MAX_SEATS];  // q's hand counts in 4-bit lanes (Ctx::lanes_of)
    int ord[MAX_SEATS];         // q's position in the current trick's order (0: the leader)
    int most[MAX_SEATS];        // plays_bound of q
    int cnt;                    // plays made in the current trick
    int done(int q) const { return cnt && ord[q] < cnt ? 1 : 0; }  // seat_done
    // plays_before (below) of seat q before the turn of seat x in trick T
    int before(int q, int x, int T) const {
        if (T > 0) return T + 1 - done(q);
        return ord[q] >= cnt && ord[q] < ord[x] ? 1 : 0;
    }
};

inline void seats_of(const Ctx& cx, const State& st, Seats& s) {
    s.cnt = st.cnt;
    // the empty cells of each colour per number, in 4-bit lanes: plays_bound of a seat is
    // min_sum of its hand and the sum of these over the colours it holds
    const int n = cx.n;
    const uint64_t row = (1ULL << n) - 1, empty = ~st.occ;
    uint64_t fr[4];
    for (int c = 0; c < 4; ++c) fr[c] = cx.lane4[empty >> (c * n) & row];
    for (int q = 0; q < cx.players; ++q) {
        uint32_t perm = st.perms >> (4 * q) & 15;
        s.lanes[q] = cx.lanes_of(st.hand[q]);
        s.fill[q] = cx.hand_cols(st.hand[q]) & cx.pc[perm];
        s.ord[q] = cx.order_of(st, q);
        uint64_t open = (perm & 1 ? fr[0] : 0) + (perm & 2 ? fr[1] : 0) + (perm & 4 ? fr[2] : 0) +
                        (perm & 8 ? fr[3] : 0);
        s.most[q] = Ctx::min_sum(s.lanes[q], open);
    }
}

// S surely has a play at its turn in the current trick that cannot win the trick, whatever
// the seats before it play (BOUND_DUCK): S has not played in it and does not lead it.
//
// Proof. At S's turn the led colour c is known (the leader has played). A play of S declared
// neither red nor c never wins the trick (W1: only red or the led colour wins; when red is led
// every non-red play loses), and it is legal for S as a follower when its cell is empty, S
// holds its number and its colour (L1, L2, F1; L3 binds the leader only). Until S's turn S's
// hand and permissions do not change (only the player's own plays move them, P1, F2), and the
// x seats to play before S fill at most x cells (one each, L1). So when S's open non-red cells
// outside the led colour number more than x (with the led colour unknown, outside every
// non-red colour the leader could lead; red led leaves all of them), one of them is still
// empty at S's turn: a legal play that loses.
constexpr int BOUND_DUCK = 64;
inline bool s_ducks(const Ctx& cx, const State& st, const Seats& r) {
    const int seat = cx.seat;
    if (r.done(seat) || r.ord[seat] == 0) return false;  // S has played, or leads
    int x = r.ord[seat] - st.cnt;  // plays before S's turn
    uint64_t open = r.fill[seat] & ~st.occ & ~cx.red;
    if (popcount(open) <= x) return false;
    if (st.cnt) return st.led == 0 || popcount(open & ~cx.pc[1u << st.led]) > x;
    for (int c = 1; c < 4; ++c)
        if (popcount(open & ~cx.pc[1u << c]) <= x) return false;
    return true;
}

// S surely has, at its turn in the current trick, a play that loses the trick and that the
// strategy of surely_makes allows (follow the led colour whenever it can), S being a follower
// still to play (BOUND_SAFE_DUCK). With s_safe (that strategy never leaves S without a legal
// play, or the round ends first) S then loses the current trick and causes no paradox, and it
// wins at most ub - 1 more tricks (round_end's ub = min(most[S], E, left) here, S not having
// played: the current trick is lost; every later trick S wins takes one of its other plays,
// at most most[S] - 1; a paradox of another seat ends the round during trick E at the latest,
// X3, so S completes at most E - 1 tricks after the current one; and at most left - 1). So
// every goal "no paradox and at most hi more tricks" with hi >= ub - 1 holds (the "at most"
// goals of api._fewest; s_ducks above has no such guarantee: its play may cost S a permission
// it needs).
//
// Proof. Let c be the led colour and w a lower bound on the value (W1) of the play winning
// the trick at S's turn (the winning value only rises within a trick, W1). A play of S loses
// the trick when its value is below w: a non-red play outside c (value -1), a play in c below
// w (c red: bonus + n; else n), a red play below w. Until S's turn S's hand and permissions do
// not change (P1, F2 move only the player's own), so S's open cells (empty, its numbers, its
// colours: legal for a follower, L1, L2, F1; L3 binds the leader only) at its turn are those
// of now less the at most x cells the x seats before it fill (one each, L1). Let A be S's open
// cells in c now, LA those of them below w, D S's other open cells below w. (1) |LA| > x: a
// cell of LA is still empty at S's turn: a legal play in c, so the strategy allows it (it
// follows), and it loses. (2) LA = A and |A| + |D| > x: some cell of A or D is still empty; if
// one of A, S follows with it (it loses, A = LA); if none of A, S cannot follow c at its turn
// (no empty cell of c of its numbers in a colour it holds; hands and cells only shrink, I4) and
// the strategy allows any legal play, so the empty cell of D (loses). When the leader has not
// played yet, c and w are not known: the bound must hold for every colour c the leader may lead
// (a cell it can fill, L1, L2; red only when red is broken or it has no other cell, L3) with w
// the value of its lowest cell in c (its lead is at least that, W1).
constexpr int BOUND_SAFE_DUCK = 128;
// (the x plays before S's turn are counted per cell set: only a seat that could fill a cell of
// the set fills one of it, L1, L2; `fill` holds the cells each of those seats could fill)
struct Before {
    int m = 0;
    uint64_t fill[MAX_SEATS];
    int in(uint64_t cells) const {
        int x = 0;
        for (int i = 0; i < m; ++i) x += fill[i] & cells ? 1 : 0;
        return x;
    }
};
inline bool duck_in(const Ctx& cx, uint64_t open, int c, int w, const Before& b) {
    const int n = cx.n;
    uint64_t a = open & cx.pc[1u << c];
    // the cells of row cc with a value below v (W1: red counts bonus + n)
    auto below = [&](int cc, int v) -> uint64_t {
        int m = v - (cc == 0 ? cx.rules.red_bonus : 0) - 1;
        if (m <= 0) return 0;
        if (m > n) m = n;
        return ((1ULL << m) - 1) << (cc * n);
    };
    uint64_t la = a & below(c, w);
    if (la && popcount(la) > b.in(la)) return true;
    if (la != a) return false;
    uint64_t d = open & ~a & ~cx.red;     // non-red plays outside c: value -1
    if (c != 0) d |= open & below(0, w);  // reds below w
    uint64_t ad = a | d;
    return ad && popcount(ad) > b.in(ad);
}
// The frame both duck tests share: S is to play in the current trick (not leading), with open
// cells; `in(open, c, w, before)` tells whether S has the play sought in led colour c against
// the winning value w, the seats before S in the trick given (Before). Mid-trick the led colour
// and value are known; at a trick start every colour the leader can lead (L3 for red) is
// tried, with the leader's lowest open cell of it as the value to beat, and all must answer.
template <class In>
inline bool s_to_play_finds(const Ctx& cx, const State& st, const Seats& r, In in) {
    const int seat = cx.seat;
    if (r.done(seat) || r.ord[seat] == 0) return false;  // S has played, or leads
    uint64_t open = r.fill[seat] & ~st.occ;
    if (!open) return false;
    Before b;
    for (int q = 0; q < cx.players; ++q)
        if (q != seat && r.ord[q] >= st.cnt && r.ord[q] < r.ord[seat]) b.fill[b.m++] = r.fill[q];
    if (st.cnt) return in(open, st.led, st.wval, b);
    uint64_t lead = r.fill[st.leader] & ~st.occ;
    bool red_ok = (st.occ & cx.red) || !(lead & ~cx.red);  // L3
    for (int c = 0; c < 4; ++c) {
        uint64_t lc = lead & cx.pc[1u << c];
        if (!lc || (c == 0 && !red_ok)) continue;
        int k = cx.cell_n[lowbit(lc)];
        if (!in(open, c, c == 0 ? k + cx.rules.red_bonus : k, b)) return false;
    }
    return true;
}
inline bool s_safe_ducks(const Ctx& cx, const State& st, const Seats& r) {
    return s_to_play_finds(cx, st, r, [&](uint64_t open, int c, int w, const Before& b) {
        return duck_in(cx, open, c, w, b);
    });
}

// S, to play now, has a legal play that the strategy of surely_makes allows (in the led colour
// when S can follow it; any lead) and that surely does not win the current trick: it is worth
// less than the winning play so far, or a seat after S in the trick has only plays that beat
// it (BOUND_BEATEN; lm: S's legal plays). With s_safe, S loses the current trick (or the round
// ends first) without a paradox: "no paradox and at most ub - 1 more tricks" holds, as for
// s_safe_ducks.
//
// Proof. S's play i has value v (W1: red bonus + n, the led colour n, else -1; when S leads,
// its colour is the led one). If v is below the winning value so far, i loses (the winning
// value only rises). Else let q be a seat after S in the trick whose open cells (empty, its
// numbers, its colours, less i's cell) all beat v: at q's turn its legal plays (a follower:
// L1, L2, F1) are among those cells (cells fill, hands and permissions only shrink, I4), so q
// plays one and S's play no longer wins the trick (W1), or q has none and its paradox ends the
// round with the trick unfinished (X1, X3). The strategy of surely_makes lets S make any
// legal lead and any legal play in the led colour when it can follow, so s_safe's guarantee
// holds with i played.
constexpr int BOUND_BEATEN = 256;
// (`follow` false: any legal play of lm, for goals that S's safe strategy need not serve)
inline bool s_beaten(const Ctx& cx, const State& st, const Seats& r, uint64_t lm,
                     bool follow = true) {
    const int seat = cx.seat, n = cx.n, bonus = cx.rules.red_bonus;
    const uint64_t row = (1ULL << n) - 1;
    uint64_t cand = lm;
    if (st.cnt && follow) {
        uint64_t f = lm & cx.pc[1u << st.led];
        if (f) cand = f;  // the strategy follows when S can
    }
    for (uint64_t m = cand; m; m &= m - 1) {
        int i = lowbit(m), c = cx.cell_c[i], k = cx.cell_n[i];
        int led = st.cnt ? st.led : c;
        int v = c == 0 ? k + bonus : (c == led ? k : -1);
        if (st.cnt && v < st.wval) return true;
        // the cells worth more than v: reds above it, the led colour above it
        int mr = v - bonus;  // reds numbered above mr
        uint64_t beat = mr < 0 ? cx.red : (mr >= n ? 0 : cx.red & ~((1ULL << mr) - 1));
        if (led != 0 && v < n) beat |= (row & ~((1ULL << (v < 0 ? 0 : v)) - 1)) << (led * n);
        for (int q = 0; q < cx.players; ++q) {
            if (q == seat || r.ord[q] <= r.ord[seat]) continue;
            uint64_t open = r.fill[q] & ~st.occ & ~(1ULL << i);
            if (!(open & ~beat)) return true;
        }
    }
    return false;
}

// The plays seat q makes from st before the turn of seat x in trick T (0 = the current
// trick): one in each trick up to T, less the current one if q has played in it; in trick 0
// exactly when q is still to play before x (the order of later tricks is not known yet).
inline int plays_before(const Ctx& cx, const State& st, int q, int x, int T) {
    if (T > 0) return T + 1 - seat_done(cx, st, q);
    int pq = cx.order_of(st, q);
    int px = cx.order_of(st, x);
    return pq >= st.cnt && pq < px ? 1 : 0;
}

// Can seat q surely make its next P plays, whatever every seat does? `s.most[r]` bounds the
// plays of seat r (plays_bound). Generalises never_stuck from "cells only q can fill" to
// "cells others can fill, counted per number and per play the others make meanwhile".
//
// Proof. For a number k q holds (h_k copies), let F_k be the empty cells of k in colours q
// holds (L1, L2). q's strategy: whenever it can follow the led colour (has a legal play in it),
// follow; otherwise play anything legal. q then loses a permission c (F2) only when every
// cell (c, k) of a number k it holds is filled, and those stay filled (I4): so the playable
// cells of F_k are exactly its empty ones, as long as q holds a k. Let
// Psi = sum_k min(copies of k left, empty cells of F_k). At a turn of q with Psi >= 1 q holds
// some k with an empty playable cell: a legal play (L3 alone never blocks; a red-lead ban
// means a non-red play is legal, L3b). After q's own J plays (j_k of k) and phi_k fills of
// F_k by others, min(h_k - j_k, |F_k| - j_k - phi_k) >= min(h_k, |F_k| - phi_k) - j_k, so
// Psi >= Psi0 - sum_k red_k(phi_k) - J with red_k(phi) = min(h_k, |F_k|) - min(h_k,
// |F_k| - phi), nondecreasing and at most phi. Before q's P-th turn from now (in trick
// T = P - 1 + q's play in this trick) another seat r makes at most cap_r =
// min(plays_before(r, q, T), most[r]) plays, and fills cells of F_k only if it holds a k and
// the colour (hands and permissions only shrink, I4): phi_k <= o_k = min(|C_k|, sum_r
// min(r's copies of k, |C_k ∩ r's cells|, cap_r)) with C_k the cells of F_k some r can fill,
// and sum_k phi_k <= Phi = sum_r min(cap_r, sum_k min(r's copies of k, r's cells of F_k)).
// So at each of q's first P turns Psi >= Psi0 - min(sum_k red_k(o_k), Phi) - J >= 1 when that
// guarantee is >= P. (Every other seat counted with all it could fill, o_k = |C_k|, is
// never_stuck.) The guarantee is at most Psi0, and Psi0 itself when no other seat can fill
// a cell of F (o = 0): both answer without the per-seat loop's full work.
inline bool surely_makes(const Ctx& cx, const State& st, int q, int P, const Seats& s) {
    if (P <= 0) return true;
    uint64_t free = s.fill[q] & ~st.occ;
    if (popcount(free) < P) return false;
    // per number k, in 4-bit lanes (Ctx::lanes_of): h_k, |F_k|, and the o_k bound
    const uint64_t L = Ctx::LANE1;
    uint64_t h = s.lanes[q], nf = cx.column_counts(free);
    int psi0 = Ctx::min_sum(h, nf);
    if (psi0 < P) return false;
    int T = P - 1 + s.done(q);
    uint64_t contested = 0, opp = 0;  // opp: sum_r min(r's fills, cap_r), saturated at 4
    int phi = 0;
    for (int r = 0; r < cx.players; ++r) {
        if (r == q) continue;
        uint64_t cells = free & s.fill[r];
        if (!cells) continue;
        int c = s.before(r, q, T);
        int cap = c < s.most[r] ? c : s.most[r];
        if (cap <= 0) continue;
        contested |= cells;
        uint64_t x = Ctx::min_lanes(s.lanes[r], cx.column_counts(cells));
        int fill = Ctx::lane_sum(x);
        phi += fill < cap ? fill : cap;
        uint64_t y = Ctx::min_lanes((uint64_t)(cap < 7 ? cap : 7) * L, x);
        opp = Ctx::min_lanes(4 * L, opp + y);
    }
    if (!contested) return true;  // o = 0: the guarantee is psi0 >= P
    uint64_t o = Ctx::min_lanes(cx.column_counts(contested), opp);
    int red = psi0 - Ctx::min_sum(h, nf - o);
    return psi0 - (red < phi ? red : phi) >= P;
}

// surely_makes with `most[r]` given (module.cpp's check of the lane arithmetic)
inline bool surely_makes(const Ctx& cx, const State& st, int q, int P, const int* most) {
    Seats s;
    seats_of(cx, st, s);
    for (int r = 0; r < cx.players; ++r) s.most[r] = most[r];
    return surely_makes(cx, st, q, P, s);
}

// The round-end facts of st for S (the seat to play has a legal play), with the seat facts.
struct Static : Seats {
    int ub;                // S wins at most ub more tricks in every continuation
    int owe;               // plays S owes to the end of the round
    int need;              // plays S must surely make to be sure to cause no paradox
};

// (1) Round end: a seat q with most[q] below the plays it owes (left - q's play in this trick)
// has no legal play at its (most[q]+1)-th turn at the latest (X1), a turn in trick
// T_q = most[q] + (q has played) < left; so a paradox ends the round (X3) no later than during
// trick E = min T_q: S completes at most E more tricks (an unfinished trick counts for nobody,
// X3), and at most one per play it can still make plus the current trick if it has played and
// is winning it (W1, W3). ub is the least of these and `top` (E only with BOUND_TRICKS).
// (2) need: the plays S makes before the turn of such a q in trick T_q (the round is over by
// then, by q's paradox or an earlier one), or all it owes.
inline Static round_end(const Ctx& cx, const State& st, int s_done, int top, int mask) {
    Static r;
    seats_of(cx, st, r);
    const int seat = cx.seat, left = st.left;
    int ms = r.most[seat];
    r.owe = left - s_done;
    r.need = r.owe;
    int ub = ms + (s_done && st.wseat == seat ? 1 : 0);
    if (ub > top) ub = top;
    if (mask & (BOUND_TRICKS | BOUND_SAFE)) {
        for (int q = 0; q < cx.players; ++q) {
            if (q == seat) continue;
            int dq = r.done(q);
            if (r.most[q] >= left - dq) continue;
            int T = r.most[q] + dq;
            if (mask & BOUND_TRICKS && T < ub) ub = T;
            if (mask & BOUND_SAFE) {
                int need = r.before(seat, q, T);
                if (need < r.need) r.need = need;
            }
        }
    }
    r.ub = ub;
    return r;
}

// The paradox part's cap when S surely loses the current trick, S not having played in it
// (BOUND_LOST_TRICK): S's paradox comes after at most lost_cap(ub, top) more tricks of S, and
// S wins at most ub - 1 more tricks in every continuation.
//
// Proof. S loses trick 0 by a play it surely has (s_ducks) or one it chooses that surely does
// not win (s_beaten; or the round ends in trick 0 by another seat's paradox, X3, and S wins
// nothing more). Every trick S wins later takes another of its plays: at most most[S] - 1
// (plays_bound counts trick 0's). A paradox of another seat ends the round during trick E at
// the latest (round_end), so S completes at most E tricks, trick 0 lost: at most E - 1. And
// at most top - 1 = left - 1. So at most ub - 1 with ub = min(most[S], E, top) (round_end; S
// has not played, so no +1). A paradox of S happens at its turn in a trick T >= 1 (its turn in
// trick 0 is past) and T <= left - 1 (E1); S has then won at most the tricks 1..T-1: at most
// left - 2 = top - 2, and at most ub - 1 by the above.

constexpr int BOUND_LOST_TRICK = 512;
inline int lost_cap(int ub, int top) {
    int c = top - 2 < ub - 1 ? top - 2 : ub - 1;
    return c < 0 ? 0 : c;
}
// (s_done: S has played in the current trick; lm: the legal plays, not 0; mask: the bounds)
inline bool s_loses_trick(const Ctx& cx, const State& st, int s_done, const Static& sb,
                          uint64_t lm, int mask) {
    if (s_done) return false;
    if (mask & BOUND_DUCK && s_ducks(cx, st, sb)) return true;
    return cx.to_play(st) == cx.seat && s_beaten(cx, st, sb, lm, false);
}

// Two sure losers (BOUND_LOST_TWO): S surely loses the current trick (s_loses_trick, or
// s_ducks_any below) and the next one too. Then S's paradox comes after at most lost_cap_j(ub, top, 2) more tricks of S,
// and S wins at most ub - 2 more tricks in every continuation.
//
// Proof of the cap (S has not played in trick 0, so top = left). S's strategy: lose trick 0
// as s_loses_trick or s_ducks_any says, then in trick 1 play a cell of U below (a sure loser). If the round
// ends in trick 0 or 1 (another seat's paradox, X3) S wins nothing more. Else S completes
// tricks 0 and 1 without winning them, and every trick S wins later takes another of its
// plays (at most most[S] - 2 of them), is completed before the round ends during trick E at
// the latest (round_end: at most E - 2 of them) and is one of tricks 2..left-1 (at most
// left - 2): at most ub - 2 with ub = min(most[S], E, top). S's own paradox comes at its turn
// in a trick T >= 2 (it has a legal play at its turns in tricks 0 and 1, shown below) with
// T <= left - 1 (E1), S having won at most the tricks 2..T-1: at most left - 3 = top - 3, and
// at most ub - 2 by the above.
//
// Proof that S has a losing play at its turn in trick 1. S lost trick 0, so another seat won
// it and leads trick 1 (W3): S is a follower there, and every play of S declared neither red
// nor trick 1's led colour c1 loses it (W1). Let c0 be trick 0's led colour. In trick 0 S
// loses at most the permission for c0 (F2: only the led colour goes; a lead loses none, L4),
// and no other seat's play changes S's hand or permissions (P1, F2). So at S's turn in trick 1
// S still holds every non-red colour d outside {c0, c1} it holds now. Let U be S's open cells
// (empty, its numbers, its colours) of the non-red colours outside {c0, c1}: each is a legal
// follower's play (L1, L2, F1; L3 binds the leader only) that loses, while its cell is empty
// and S still holds a copy of its number. Psi = sum_k min(S's copies of k, cells of U of
// number k) falls by at most one with each play that fills a cell of U or spends a copy: S's
// own play in trick 0 (one), and the plays of the other seats before S's turn in trick 1 that
// fill cells of U: seat q makes at most before(q, S, 1) = 2 - (q has played in trick 0) plays
// by then, and fills only cells of U of its numbers and colours (L1, L2; these only shrink,
// I4): at most x_q = min(before(q, S, 1), sum_k min(q's copies of k, q's cells of U of
// number k)). When Psi - 1 - sum_q x_q >= 1 a legal loser is left at S's turn (crowding). c0
// is trick 0's led colour when the leader has played; S's lead when S leads it (no
// permission lost: c0 counted as red); else any colour the leader could lead (a cell it can
// fill, L1, L2; red only when red is broken or it has no other, L3). c1 is any colour (a red
// c1 only widens U): so the bound is asked for every such c0 and every non-red c1.
// (Mutants for the tests: LOST_TWO_NO_F2 keeps c0's colour in U, LOST_TWO_NO_CROWD forgets
// the other seats' plays; both must be refuted by the search somewhere.)
constexpr int BOUND_LOST_TWO = 1024;
// two parts of s_losers below measured alone (each only with BOUND_LOST_TWO): S's chosen loser
// in the current trick with the next trick's (s_plays_two), and S's winning play surely
// overtaken (s_overtaken)
constexpr int BOUND_LOST_PLAYS = 2048;
constexpr int BOUND_LOST_OVERTAKEN = 4096;
constexpr int LOST_TWO_NO_F2 = 1, LOST_TWO_NO_CROWD = 2;
inline int lost_cap_j(int ub, int top, int j) {
    int c = top - 1 - j < ub - j ? top - 1 - j : ub - j;
    return c < 0 ? 0 : c;
}
// S's loser in trick 1 survives c0 (c0 < 0: S loses no permission before trick 1) and every
// c1, S making `own` plays before its turn there
inline bool loser_next(const Ctx& cx, const State& st, const Seats& r, uint64_t open, int c0,
                       int own, int mutant) {
    const int seat = cx.seat;
    for (int c1 = 1; c1 < 4; ++c1) {
        uint64_t u = open & ~cx.pc[1u << c1];
        if (c0 > 0 && !(mutant & LOST_TWO_NO_F2)) u &= ~cx.pc[1u << c0];
        int psi = Ctx::min_sum(r.lanes[seat], cx.column_counts(u));
        if (psi <= own) return false;
        int x = 0;
        if (!(mutant & LOST_TWO_NO_CROWD))
            for (int q = 0; q < cx.players; ++q) {
                if (q == seat) continue;
                uint64_t cells = u & r.fill[q];
                if (!cells) continue;
                int b = r.before(q, seat, 1);
                int f = Ctx::min_sum(r.lanes[q], cx.column_counts(cells));
                x += b < f ? b : f;
            }
        if (psi - own - x < 1) return false;
    }
    return true;
}
// (s_loses_trick or s_ducks_any is asked by the caller: this is trick 1's part, S not having
// played in trick 0 yet)
// (min_left: the least tricks left it is asked at; s_losers' caps are 0 below 3, while the
// safe losers below count trick 1 down to 2 tricks left)
inline bool s_loses_next(const Ctx& cx, const State& st, const Seats& r, int mutant = 0,
                         int min_left = 3) {
    const int seat = cx.seat;
    if (st.left < min_left || st.left < 2) return false;  // lost_cap is 0 already
    uint64_t open = r.fill[seat] & ~st.occ & ~cx.red;
    if (popcount(open) < 2) return false;
    if (st.cnt) return loser_next(cx, st, r, open, st.led, 1, mutant);
    if (r.ord[seat] == 0) return loser_next(cx, st, r, open, -1, 1, mutant);  // S leads (L4)
    uint64_t lead = r.fill[st.leader] & ~st.occ;
    bool red_ok = (st.occ & cx.red) || !(lead & ~cx.red);  // L3
    for (int c0 = 0; c0 < 4; ++c0) {
        if (!(lead & cx.pc[1u << c0]) || (c0 == 0 && !red_ok)) continue;
        if (!loser_next(cx, st, r, open, c0, 1, mutant)) return false;
    }
    return true;
}

// S surely has, at its turn in the current trick, a legal play that loses it, any legal play
// (no strategy to serve: the paradox part allows S's paradox), S a follower still to play
// (part of BOUND_LOST_TWO; a wider s_ducks).
//
// Proof. As s_safe_ducks (duck_in) without its strategy's constraint: with c the led colour
// and w a lower bound on the winning value at S's turn, every open cell of S (empty, its
// number, its colour: a legal follower's play, L1, L2, F1) in c below w, in a non-red colour
// outside c, or red below w loses (W1). Those cells are S's now less the ones the seats before
// S fill (each fills at most one, and only a seat that could fill one of them, L1, L2; Before),
// so when there are more of them than such seats, one is left at S's turn. With the leader
// still to play, for every colour it could lead with w its lowest cell there (as s_safe_ducks).
inline bool loser_in(const Ctx& cx, uint64_t open, int c, int w, const Before& b, int mutant) {
    const int n = cx.n;
    auto below = [&](int cc, int v) -> uint64_t {
        int m = v - (cc == 0 ? cx.rules.red_bonus : 0) - 1;
        if (m <= 0) return 0;
        if (m > n) m = n;
        return ((1ULL << m) - 1) << (cc * n);
    };
    uint64_t lose = (open & cx.pc[1u << c] & below(c, w)) | (open & ~cx.red & ~cx.pc[1u << c]);
    if (c != 0) lose |= open & below(0, w);
    return popcount(lose) > (mutant & LOST_TWO_NO_CROWD ? 0 : b.in(lose));
}
inline bool s_ducks_any(const Ctx& cx, const State& st, const Seats& r, int mutant = 0) {
    return s_to_play_finds(cx, st, r, [&](uint64_t open, int c, int w, const Before& b) {
        return loser_in(cx, open, c, w, b, mutant);
    });
}

// S's winning play in the current trick (S has played, wseat == S) is surely beaten: a seat q
// still to play in it has only open cells (empty, its numbers, its colours) worth more than
// the winning value (W1: reds above it, the led colour above it). At q's turn its legal plays
// are among those cells (they only shrink, I4), so q beats S's play, or q has none and its
// paradox ends the round with the trick unfinished (X1, X3): S does not win it (as s_beaten).
inline bool s_overtaken(const Ctx& cx, const State& st, const Seats& r) {
    const int n = cx.n, bonus = cx.rules.red_bonus, v = st.wval;
    const uint64_t row = (1ULL << n) - 1;
    int mr = v - bonus;  // reds numbered above mr
    uint64_t beat = mr < 0 ? cx.red : (mr >= n ? 0 : cx.red & ~((1ULL << mr) - 1));
    if (st.led != 0 && v < n) beat |= (row & ~((1ULL << (v < 0 ? 0 : v)) - 1)) << (st.led * n);
    for (int q = 0; q < cx.players; ++q) {
        if (q == cx.seat || r.ord[q] < st.cnt) continue;
        if (!(r.fill[q] & ~st.occ & ~beat)) return true;
    }
    return false;
}

// S, to play as a follower, has a play below the winning value (it loses the current trick,
// W1) after which it surely loses the next trick too: in the state after the play, S has
// played and is not winning, and loser_next (no permission lost any more: F2 of this play is
// in that state; no own play before trick 1) holds, or, S's play ending the trick, S waits in
// trick 1 and s_ducks_any holds there. S's loser in trick 0 is then chosen (a strategy of S).
inline bool s_plays_two(const Ctx& cx, const State& st, uint64_t lm, int mutant) {
    const int seat = cx.seat;
    if (!st.cnt || cx.to_play(st) != seat || st.left < 3) return false;
    for (uint64_t m = lm; m; m &= m - 1) {
        int i = lowbit(m), c = cx.cell_c[i], k = cx.cell_n[i];
        int v = c == 0 ? k + cx.rules.red_bonus : (c == st.led ? k : -1);
        if (v >= st.wval) continue;
        State ch = apply(cx, st, i);
        Seats r;
        seats_of(cx, ch, r);
        if (ch.cnt == 0) {
            if (s_ducks_any(cx, ch, r, mutant)) return true;
            continue;
        }
        uint64_t open = r.fill[seat] & ~ch.occ & ~cx.red;
        if (open && loser_next(cx, ch, r, open, -1, 0, mutant)) return true;
    }
    return false;
}

// S's sure losers from now (BOUND_LOST_TRICK, and with BOUND_LOST_TWO the rules above): the
// number j of the coming tricks S surely loses beyond `top` (0-2) and the paradox part's cap
// they give (`cap`; S then wins at most ub - j more tricks in every continuation).
// - S still to play in the current trick and it surely loses it (s_loses_trick; s_ducks_any):
//   j = 1, lost_cap(ub, top); and the next trick too (s_loses_next; s_plays_two): j = 2,
//   lost_cap_j(ub, top, 2) (the proof above BOUND_LOST_TWO).
// - S has played in it and is not winning it (so top = left - 1 already counts it lost) and
//   surely loses the next trick: j = 1, lost_cap(ub, top). Proof: trick 0 is lost (W1: the
//   winning value only rises), so another seat leads trick 1 (W3) and S follows there;
//   loser_next with no permission lost (S's F2 of trick 0 is in the state already) and no own
//   play before it gives S a losing legal play at its turn in trick 1. S's paradox then comes
//   at its turn in a trick T >= 2, after at most T - 2 <= left - 3 = top - 2 won tricks; every
//   won trick is one of tricks 2..left-1 (at most top - 1), takes a play other than trick 1's
//   (at most most[S] - 1) and is completed before the round's end during trick E (at most
//   E - 2): at most ub - 1 with round_end's ub = min(most[S], E, top).
// - S has played in it and is winning it, but surely overtaken (s_overtaken; top = left and
//   round_end's ub = min(most[S] + 1, E, left)): trick 0 is lost, j = 1, lost_cap(ub, top)
//   (S's paradox at a T >= 1 after at most T - 1 <= left - 2 won tricks; at most most[S],
//   E - 1 and left - 1 won in all: ub - 1); with the next trick's loser as above, j = 2,
//   lost_cap_j(ub, top, 2) (T >= 2, at most T - 2 <= left - 3; most[S] - 1, E - 2, left - 2:
//   ub - 2).
inline int s_losers(const Ctx& cx, const State& st, int s_done, int top, const Static& sb,
                    uint64_t lm, int mask, int& cap, int mutant = 0) {
    const bool two = mask & BOUND_LOST_TWO;
    if (!s_done) {
        if (!s_loses_trick(cx, st, s_done, sb, lm, mask) &&
            !(two && s_ducks_any(cx, st, sb, mutant)))
            return 0;
        if (two && (s_loses_next(cx, st, sb, mutant) ||
                    (mask & BOUND_LOST_PLAYS && s_plays_two(cx, st, lm, mutant)))) {
            cap = lost_cap_j(sb.ub, top, 2);
            return 2;
        }
        cap = lost_cap(sb.ub, top);
        return 1;
    }
    if (!two || st.left < 2) return 0;
    const bool winning = st.wseat == cx.seat;
    if (winning && !(mask & BOUND_LOST_OVERTAKEN && s_overtaken(cx, st, sb))) return 0;
    uint64_t open = sb.fill[cx.seat] & ~st.occ & ~cx.red;
    if (st.left >= 3 && open && loser_next(cx, st, sb, open, -1, 0, mutant)) {
        cap = winning ? lost_cap_j(sb.ub, top, 2) : lost_cap(sb.ub, top);
        return winning ? 2 : 1;
    }
    if (!winning) return 0;
    cap = lost_cap(sb.ub, top);
    return 1;
}

// S never causes a paradox: it surely makes the plays it needs (surely_makes; without
// BOUND_SAFE the old never_stuck, all plays owed).
inline bool s_safe(const Ctx& cx, const State& st, int s_done, const Static& r, int mask) {
    if (!(mask & BOUND_SAFE))
        return r.most[cx.seat] >= r.owe && never_stuck(cx, st, s_done);
    return r.need <= r.most[cx.seat] && surely_makes(cx, st, cx.seat, r.need, r);
}

// S's sure losers by a safe strategy (BOUND_SAFE_TWO): the j (0-2) of s_losers' sure losers
// that S can play while it surely causes no paradox. Then every goal "no paradox (or S's
// paradox after at most pk, any pk) and at most hi more tricks" with hi >= ub - j holds: the
// "at most k" goals (api's fewest counts, pk = -1), which s_losers' caps cannot answer.
//
// Proof. S's strategy: lose the counted tricks as s_losers says, with one change that costs
// nothing: at a loser turn where S follows a colour all of whose cells S could play there are
// below the trick's value (low_follow below), S follows with one of them when it can. So:
// trick 0 (S not having played in it) by a loser it surely has (s_ducks_any, s_safe_ducks), or
// a play a later seat surely beats (s_beaten); trick 1, when counted, by a play into U (a
// non-red open cell outside trick 0's and trick 1's led colours; s_loses_next, loser_next) or
// the low follow; from its next turn on, S follows the led colour whenever it can
// (surely_makes' strategy). (a) S wins at most ub - j more tricks: the loser plays are
// s_losers' (its proofs ask nothing about S's paradox), or a follow below a value the trick
// surely reaches (W1: the winning value only rises). (b) S causes no paradox. At its loser
// turns it has a legal play (the losers' proofs: the low follow is made only when S can
// follow). At a later turn: let D be the colours the loser plays may cost S (F2: a follower
// that does not follow loses the led colour only; a lead loses none, L4; nothing else changes
// S's permissions, P1). A loser play that does not follow when S could have followed costs
// the led colour; one made when S cannot follow costs a colour none of whose empty cells S
// can fill (they stay filled, I4: as in surely_makes, it costs S no play). So D holds trick
// 0's led colour c0 unless S leads (L4), or its loser follows when it can (s_safe_ducks;
// s_beaten with `follow`), or c0's cells are a low follow; and trick 1's led colour c1 (when
// counted) unless it is a low follow there. For trick 0, c0 is the led colour or, before the
// lead, any colour the leader could lead (L3) with the value of its lowest cell there; for
// trick 1, led by the seat that won trick 0 (any seat but S, W3), c1 is any colour with the
// least value of the other seats' lowest cells in it (a colour none of them holds a cell of
// cannot be led). Let F' be S's open cells now outside the colours of D. After the loser
// plays S follows whenever it can, so it loses a permission c outside D only when no empty
// cell of c of a number it holds is left (they stay filled, I4): the empty cells of F' of
// number k stay legal plays of S while it holds a k (L1, L2, F1; L3 alone never blocks,
// L3b). surely_makes' count then holds on F' word for word: every play of S (the loser plays
// too: each fills one cell and spends one copy) lowers Psi by at most one, and the other
// seats make at most before(q, S, T) plays before S's turn in trick T, filling only cells of
// their numbers and colours (I4). So surely_makes(S, need) with S's cells F', for every D
// the tricks' led colours may give, puts a legal play at each of S's turns until the round
// is surely over (round_end's need): no paradox of S on any line. With (a), S's count at the
// end of every line (complete, or ended by another seat's paradox, X3) is at most ub - j.
// (s_losers' parts BOUND_LOST_OVERTAKEN and BOUND_LOST_PLAYS are not used here. Mutant for the
// tests: SAFE_TWO_NO_DROP asks the safety with every colour S holds, D forgotten.)
constexpr int BOUND_SAFE_TWO = 8192;
constexpr int SAFE_TWO_NO_DROP = 4;
// surely_makes(S, need) with S's cells outside the colours of each alternative D in `drops`
// (bit d of the 16-bit word: the colour set d)
inline bool safe_without(const Ctx& cx, const State& st, const Static& sb, uint32_t drops,
                         int mutant) {
    const int seat = cx.seat;
    const uint32_t held = st.perms >> (4 * seat) & 15;
    uint32_t seen = 0;
    for (uint32_t m = drops; m; m &= m - 1) {
        uint32_t d = (uint32_t)lowbit(m) & held;  // a colour S does not hold costs nothing
        if (mutant & SAFE_TWO_NO_DROP) d = 0;
        if (seen >> d & 1) continue;
        seen |= 1u << d;
        Seats s = sb;
        s.fill[seat] &= ~cx.pc[d];
        if (!surely_makes(cx, st, seat, sb.need, s)) return false;
    }
    return true;
}
// Every open cell of S in colour c is worth less than w (W1: red counts bonus + n): a follow
// of c below the trick's value, whichever of them S plays (none: S cannot follow c)
inline bool low_follow(const Ctx& cx, const State& st, const Seats& r, int c, int w) {
    uint64_t a = r.fill[cx.seat] & ~st.occ & cx.pc[1u << c];
    if (!a) return true;
    int top = cx.cell_n[63 - __builtin_clzll(a)] + (c == 0 ? cx.rules.red_bonus : 0);
    return top < w;
}
// The alternatives for D in trick 0 (S following, not yet played, by a loser that need not
// follow): {c0} for every colour the leader may lead, none where c0's cells are a low follow
inline uint32_t drops0(const Ctx& cx, const State& st, const Seats& r) {
    if (st.cnt) return low_follow(cx, st, r, st.led, st.wval) ? 1u : 1u << (1u << st.led);
    uint64_t lead = r.fill[st.leader] & ~st.occ;
    bool red_ok = (st.occ & cx.red) || !(lead & ~cx.red);  // L3
    uint32_t m = 0;
    for (int c = 0; c < 4; ++c) {
        uint64_t lc = lead & cx.pc[1u << c];
        if (!lc || (c == 0 && !red_ok)) continue;
        int w = cx.cell_n[lowbit(lc)] + (c == 0 ? cx.rules.red_bonus : 0);
        m |= low_follow(cx, st, r, c, w) ? 1u : 1u << (1u << c);
    }
    return m;
}
// The alternatives for D with trick 1's c1 added to each of `drops`: c1 any colour some other
// seat has an open cell of, none where S's cells of it are below every such seat's lowest
inline uint32_t drops1(const Ctx& cx, const State& st, const Seats& r, uint32_t drops) {
    uint32_t add = 0;  // bit c: c1 = c costs S the colour c
    for (int c = 0; c < 4; ++c) {
        int w = 1 << 20;
        for (int q = 0; q < cx.players; ++q) {
            uint64_t lc = q == cx.seat ? 0 : r.fill[q] & ~st.occ & cx.pc[1u << c];
            if (lc) {
                int v = cx.cell_n[lowbit(lc)] + (c == 0 ? cx.rules.red_bonus : 0);
                if (v < w) w = v;
            }
        }
        if (w < (1 << 20) && !low_follow(cx, st, r, c, w)) add |= 1u << c;
    }
    uint32_t out = 0;
    for (uint32_t m = drops; m; m &= m - 1) {
        uint32_t d = (uint32_t)lowbit(m);
        out |= 1u << d;
        for (uint32_t a = add; a; a &= a - 1) out |= 1u << (d | 1u << lowbit(a));
    }
    return out;
}
// (need: the least j that would settle the goal; mask: the engine's bounds, BOUND_SAFE needed)
inline int s_safe_losers(const Ctx& cx, const State& st, int s_done, const Static& sb,
                         uint64_t lm, int mask, int need, int mutant = 0) {
    const int seat = cx.seat;
    if (!(mask & BOUND_SAFE) || sb.need > sb.most[seat]) return 0;
    if (s_done) {  // trick 0 lost already (not winning: top counts it); trick 1 is the loser
        if (st.wseat == seat || st.left < 2) return 0;
        uint64_t open = sb.fill[seat] & ~st.occ & ~cx.red;
        if (!open || !loser_next(cx, st, sb, open, -1, 0, mutant)) return 0;
        return safe_without(cx, st, sb, drops1(cx, st, sb, 1u), mutant) ? 1 : 0;
    }
    const bool to_play = cx.to_play(st) == seat;
    bool free0 = (mask & BOUND_SAFE_DUCK && s_safe_ducks(cx, st, sb)) ||
                 (to_play && s_beaten(cx, st, sb, lm));
    if (!free0 && !s_loses_trick(cx, st, s_done, sb, lm, mask) && !s_ducks_any(cx, st, sb, mutant))
        return 0;
    uint32_t d0 = free0 || sb.ord[seat] == 0 ? 1u : drops0(cx, st, sb);  // 1u: D empty
    if (need <= 1) return safe_without(cx, st, sb, d0, mutant) ? 1 : 0;
    return s_loses_next(cx, st, sb, mutant, 2) &&
                   safe_without(cx, st, sb, drops1(cx, st, sb, d0), mutant)
               ? 2
               : 0;
}

// The first trick T (s_done <= T < left) at whose turn S surely has no legal play once every
// other seat has made the plays it makes before that turn (X2: a seat with a legal play must
// play, so those plays are made unless someone is stuck first), else -1 (BOUND_CROWD).
//
// Proof. Let F be S's open cells (empty, of a number S holds, in a colour S holds), f_k its
// cells of number k, h_k S's copies of k and C = sum_k min(h_k, f_k) = most[S]. Cells and
// permissions only go (I4). When S has made j_k plays of k and the other seats have filled
// phi_k cells of F of number k (every play fills a distinct empty cell, L1), S's legal plays
// of k need a copy and an empty cell of F of number k in a colour it still holds, so at most
// min(h_k - j_k, f_k - j_k - phi_k) = min(h_k, f_k - phi_k) - j_k of them remain, and
// min(h_k, f_k - phi_k) = min(h_k, f_k) - max(0, phi_k - s_k) with s_k = max(0, f_k - h_k)
// (S's surplus cells of k; 0 <= phi_k <= f_k). With phi_k <= a_k (the cells of F of number k
// some other seat could fill: its number, its colour) the sum is at most
// C - J - max(0, Phi - sum_k min(s_k, a_k)) for J = sum j_k and Phi = sum phi_k. At S's turn in
// trick T, S has made J = m - 1 plays (m = T + 1 - s_done) and each other seat q exactly
// x_q = plays_before(q, S, T) plays (no paradox before it). q's plays outside F fill distinct
// empty cells of its numbers and colours outside F: at most out_q = sum_k min(q's copies of k,
// such cells of k) of them, and all the other seats together at most sum_k min(|G_k|, sum_q
// min(q's copies of k, |G_k ∩ q's cells|)), G the empty cells outside F some other seat
// could fill. So Phi >= X - Y with X = sum_q x_q and Y the lesser of sum_q min(x_q, out_q) and
// that column count; when C - (m - 1) - max(0, X - Y - sum_k min(s_k, a_k)) <= 0 S has no
// legal play at that turn (L1, L2; X1). Whatever S does, S is stuck there unless a paradox
// ended the round first; s_doomed adds that no other seat is stuck first.
//
// The per-state numbers of crowded_trick: S's capacity C, the bound on the other seats'
// plays outside F (per seat out[q], all together yglob) and S's absorbing surplus.
struct Crowd {
    int C, yglob, absorb;
    int out[MAX_SEATS];
};

inline void crowd_of(const Ctx& cx, const State& st, const Seats& r, Crowd& w) {
    const int seat = cx.seat;
    const uint64_t L = Ctx::LANE1;
    uint64_t F = r.fill[seat] & ~st.occ;
    w.C = r.most[seat];
    uint64_t others = 0, opp = 0;  // opp: per number sum_q min(copies, cells in G), at most 4
    for (int q = 0; q < cx.players; ++q) {
        w.out[q] = 0;
        if (q == seat) continue;
        others |= r.fill[q];
        uint64_t g = r.fill[q] & ~st.occ & ~F;
        if (!g) continue;
        uint64_t x = Ctx::min_lanes(r.lanes[q], cx.column_counts(g));
        w.out[q] = Ctx::lane_sum(x);
        opp = Ctx::min_lanes(4 * L, opp + x);
    }
    uint64_t G = others & ~st.occ & ~F;
    w.yglob = Ctx::min_sum(cx.column_counts(G), opp);
    uint64_t f = cx.column_counts(F), h = r.lanes[seat];
    uint64_t surplus = f - Ctx::min_lanes(f, h);
    w.absorb = Ctx::min_sum(surplus, cx.column_counts(F & others));
}

// The bound on S's legal plays left at its turn in trick T (C - (m - 1) - max(0, X - Y -
// absorb) of the proof above); S has none there when it is <= 0
inline int crowd_room(const Ctx& cx, const Seats& r, const Crowd& w, int s_done, int T) {
    const int seat = cx.seat;
    int m = T + 1 - s_done;
    int X = 0, Y = 0;
    for (int q = 0; q < cx.players; ++q) {
        if (q == seat) continue;
        int x = r.before(q, seat, T);
        X += x;
        Y += x < w.out[q] ? x : w.out[q];
    }
    if (Y > w.yglob) Y = w.yglob;
    int red = X - Y - w.absorb;
    return w.C - (m - 1) - (red > 0 ? red : 0);
}

// The first such T below `end` (s_done < end <= left), else -1. The room only falls as T
// grows (each later turn of S comes after one more play of S and, past trick 0, one more of
// every other seat, which adds at most as much to Y as to X), so the last trick is asked first
// and decides at once in the common case that S is not crowded out at all.
inline int crowded_trick(const Ctx& cx, const State& st, int s_done, const Static& r, int end) {
    Crowd w;
    crowd_of(cx, st, r, w);
    if (crowd_room(cx, r, w, s_done, end - 1) > 0) return -1;
    for (int T = s_done; T < end - 1; ++T)
        if (crowd_room(cx, r, w, s_done, T) <= 0) return T;
    return end - 1;
}

// S surely causes a paradox (X1). S cannot make the plays it owes, so it has no legal play at
// its turn in trick T = most[S] + s_done < left at the latest; that turn comes unless another
// seat's paradox ends the round first (X3: that is why S's own count is not enough). If every
// other seat q surely makes the plays it makes before that turn (surely_makes, by its own
// strategy whatever the others do), nobody else is stuck first: the round ends with S's
// paradox. With BOUND_CROWD, T is the first trick crowded_trick finds when it is earlier.
// (crowded_trick also finds such a T when S is not short by its own count — at 3-4 players at
// S's last turn nearly always, I2 — but then every other seat must surely make nearly all its
// plays, and on the 4-player round start seed 802 that proved S doomed 29 times in 1.6 M
// asks, which cost ~20% of the CPU: it is not asked there.)
inline bool s_doomed(const Ctx& cx, const State& st, int s_done, const Static& r, int mask) {
    const int seat = cx.seat;
    if (r.most[seat] >= r.owe) return false;
    int T = r.most[seat] + s_done;
    if (mask & BOUND_CROWD && T > s_done) {
        int c = crowded_trick(cx, st, s_done, r, T);
        if (c >= 0) T = c;
    }
    for (int q = 0; q < cx.players; ++q)
        if (q != seat && !surely_makes(cx, st, q, r.before(q, seat, T), r))
            return false;
    return true;
}

// Tricks the other seats can deny S: S can force at most top - stoppers(...) more tricks.
//
// Proof (red broken, L3a). Let maxS be the highest number S may still declare red (holds it,
// its red cell empty, S holds red; I4: this only falls). A *stopper* of seat q != S is an empty
// red cell (R, j) with j > maxS that q can fill (holds a j and red) and no other seat can (so
// it stays empty until q fills it; S cannot, by j > maxS). q's strategy: in each trick it
// still plays in, play a stopper while it has one. That play is always legal: the cell is
// empty, q holds the card, red is broken so q may lead red (L3a), and q keeps red: playing red
// loses only a non-red led colour (F2). In such a trick S cannot win: a red play of S has a
// number <= maxS < j, any other play of S loses to a red one (W1); an unfinished trick counts
// for nobody (X3) — unless S has already played in the trick (that play may be a higher red),
// so the current trick counts only if S is still to play in it. q plays in
// left - (q has played in this trick) more tricks, so it denies min(stoppers, those tricks)
// of them, less one spent on the current trick when that one does not count. The largest such
// count over the other seats is returned (0 when red is unbroken).
inline int stoppers(const Ctx& cx, const State& st, int s_done) {
    if (!(st.occ & cx.red)) return 0;
    const int seat = cx.seat, n = cx.n;
    uint64_t open_red = cx.red & ~st.occ;
    if (!open_red) return 0;
    // red cells each seat could fill (L1, L2), as a mask over the red row
    uint64_t fill[MAX_SEATS] = {};
    for (int q = 0; q < cx.players; ++q)
        fill[q] = st.perms >> (4 * q) & 1 ? cx.hand_cols(st.hand[q]) & open_red : 0;
    uint64_t s_red = fill[seat];
    // cells above S's highest red play: numbers maxS+1..n (red row cells are numbers 1..n)
    int maxs = s_red ? 64 - __builtin_clzll(s_red) : 0;  // highest set bit index + 1 = number
    uint64_t above = maxs >= n ? 0 : open_red & ~((1ULL << maxs) - 1);
    if (!above) return 0;
    // the current trick does not count once S has played in it (its play may be a higher red)
    bool skip0 = s_done;
    int best = 0;
    for (int q = 0; q < cx.players; ++q) {
        if (q == seat) continue;
        uint64_t mine = fill[q] & above;
        if (!mine) continue;
        for (int r = 0; r < cx.players; ++r)
            if (r != q) mine &= ~fill[r];
        int c = popcount(mine);
        if (!c) continue;
        int dq = seat_done(cx, st, q);
        int tricks = st.left - dq;
        int used = c < tricks ? c : tricks;
        if (!dq && skip0 && used > 0) --used;  // one spent on the current trick
        if (used > best) best = used;
    }
    return best;
}

}  // namespace catbox
