// catbox native search core: the packed round state and its move generator.
//
// Mirrors solver/search/state.py (the readable reference): cells are bits `colour*N + n-1`
// (B1: row 0 is red), hands are per-seat per-number counts (3 bits per number), permissions
// are 4 bits per seat (L2). legal_mask implements L1-L3, apply implements P1, F2, W1, W3.
#pragma once
#include <cstdint>
#include <cstring>

namespace catbox {

constexpr int MAX_SEATS = 5;
constexpr int MAX_NUMBER = 9;
constexpr int MAX_CELLS = 4 * MAX_NUMBER;
// The rule numbers, defined once in Python and given at construction (like the layout):
// W1 red plays count red_bonus + n (rules.RED_BONUS), Sc2 at 2 players the bonus needs
// two_player_bonus_max tricks or fewer (scoring.TWO_PLAYER_BONUS_MAX). Checked by
// tests/test_rule_numbers.py through Engine.rules().
struct Rules {
    int red_bonus = 0;
    int two_player_bonus_max = 0;
};

inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
inline int lowbit(uint64_t x) { return __builtin_ctzll(x); }

struct State {
    uint64_t occ = 0;              // filled cells (player and neutral tokens)
    uint64_t mine = 0;             // the asking seat's own tokens (Sc3)
    uint32_t hand[MAX_SEATS] = {}; // per seat: 3 bits per number (count of that number)
    uint32_t perms = 0;            // per seat: 4 bits of colour permissions (L2, F2)
    int8_t leader = 0;             // leader of the current trick
    int8_t cnt = 0;                // plays made in the current trick
    int8_t led = -1;               // led colour, -1 before the lead
    int8_t wval = -1;              // value of the play winning the trick so far (W1)
    int8_t wseat = -1;             // seat of that play
    int8_t tricks = 0;             // tricks won by the asking seat
    int8_t left = 0;               // tricks not yet completed
};

struct Ctx {
    int players = 0, seat = 0, n = 0;
    uint64_t red = 0;            // the red row
    uint64_t pc[16] = {};        // cells of the colours in a permission mask
    uint64_t offcol[4] = {};     // cells neither red nor of the led colour (F2 discards)
    uint64_t col[MAX_NUMBER + 1] = {};  // the four cells of number k
    uint64_t adj[MAX_CELLS] = {};       // orthogonal neighbours on the layout (B4/B5, data)
    uint64_t not_first = 0, not_last = 0;
    int cell_c[MAX_CELLS] = {}, cell_n[MAX_CELLS] = {};
    uint64_t numcols[1 << MAX_NUMBER] = {};  // presence bits of numbers -> their cells
    uint16_t present3[512] = {};  // 3 numbers' counts (9 bits) -> their presence bits
    uint32_t fields[1 << MAX_NUMBER] = {};  // presence bits of numbers -> their count fields
    uint64_t broken_bit = 0;     // key bit for "red is broken" (L3a)
    // 4-bit lanes, one per number (lane k-1 holds a count of number k), for counting in
    // parallel: lane4[m] has a 1 in lane j for each bit j of m (one row of cells); wide[x]
    // gives three 3-bit hand fields (9 bits) as three 4-bit lanes
    uint64_t lane4[512] = {};
    uint16_t wide[512] = {};
    int prediction = -1;         // S's prediction, -1 unknown
    Rules rules;                 // W1, Sc2 numbers (from Python)

    void init(int players_, int seat_, int n_, int prediction_, const uint64_t* adjacency,
              Rules rules_) {
        rules = rules_;
        players = players_;
        seat = seat_;
        n = n_;
        prediction = prediction_;
        uint64_t row = (1ULL << n) - 1;
        red = row;
        for (int m = 0; m < 16; ++m) {
            pc[m] = 0;
            for (int c = 0; c < 4; ++c)
                if (m >> c & 1) pc[m] |= row << (c * n);
        }
        for (int c = 0; c < 4; ++c) offcol[c] = pc[14 & ~(1 << c)];
        for (int i = 0; i < 4 * n; ++i) {
            cell_c[i] = i / n;
            cell_n[i] = i % n + 1;
            adj[i] = adjacency[i];
        }
        col[0] = 0;
        for (int k = 1; k <= n; ++k) {
            col[k] = 0;
            for (int c = 0; c < 4; ++c) col[k] |= 1ULL << (c * n + k - 1);
        }
        for (int m = 0; m < (1 << n); ++m) {
            numcols[m] = 0;
            for (int k = 1; k <= n; ++k)
                if (m >> (k - 1) & 1) numcols[m] |= col[k];
        }
        for (int m = 0; m < (1 << MAX_NUMBER); ++m) {
            fields[m] = 0;
            for (int k = 1; k <= MAX_NUMBER; ++k)
                if (m >> (k - 1) & 1) fields[m] |= 7u << (3 * (k - 1));
        }
        for (int x = 0; x < 512; ++x)
            present3[x] = (uint16_t)((x & 7 ? 1 : 0) | (x >> 3 & 7 ? 2 : 0) | (x >> 6 & 7 ? 4 : 0));
        broken_bit = 1ULL << (4 * n);
        for (int x = 0; x < 512; ++x) {
            lane4[x] = 0;
            wide[x] = 0;
            for (int j = 0; j < 9; ++j) lane4[x] |= (uint64_t)(x >> j & 1) << (4 * j);
            for (int j = 0; j < 3; ++j) wide[x] |= (uint16_t)((x >> (3 * j) & 7) << (4 * j));
        }
    }

    // a hand's counts (3 bits per number) in 4-bit lanes
    uint64_t lanes_of(uint32_t hand) const {
        return (uint64_t)wide[hand & 511] | (uint64_t)wide[hand >> 9 & 511] << 12 |
               (uint64_t)wide[hand >> 18 & 511] << 24;
    }
    // the cells of `cells` per number, in 4-bit lanes (at most 4 each)
    uint64_t column_counts(uint64_t cells) const {
        const uint64_t row = (1ULL << n) - 1;
        return lane4[cells & row] + lane4[cells >> n & row] + lane4[cells >> 2 * n & row] +
               lane4[cells >> 3 * n & row];
    }
    static constexpr uint64_t LANE1 = 0x111111111ULL;  // 1 in each of the nine lanes
    // lane by lane min(a, b), lanes at most 7
    static uint64_t min_lanes(uint64_t a, uint64_t b) {
        const uint64_t H = 8 * LANE1;
        uint64_t m = ((((a | H) - b) & H) >> 3) * 15;  // 15 in the lanes where a >= b
        return (b & m) | (a & ~m);
    }
    // the sum of the lanes (each at most 7): pairs of lanes into five bytes (each <= 14),
    // then the bytes summed into the fifth by one multiplication (every partial sum <= 63)
    static int lane_sum(uint64_t x) {
        uint64_t b = (x + (x >> 4)) & 0x0F0F0F0F0FULL;
        return (int)((b * 0x0101010101ULL) >> 32 & 0xFF);
    }
    static int min_sum(uint64_t a, uint64_t b) { return lane_sum(min_lanes(a, b)); }

    static int count(uint32_t hand, int k) { return hand >> (3 * (k - 1)) & 7; }
    static uint32_t unit(int k) { return 1u << (3 * (k - 1)); }

    // cells of every number present in a hand
    uint64_t hand_cols(uint32_t hand) const {
        uint32_t m = present3[hand & 511] | present3[hand >> 9 & 511] << 3 |
                     present3[hand >> 18 & 511] << 6;
        return numcols[m];
    }
    uint64_t perm_cells(const State& st, int p) const { return pc[st.perms >> (4 * p) & 15]; }
    // x mod players for 0 <= x < 2 * players, without a division
    int wrap(int x) const { return x >= players ? x - players : x; }
    // the position of seat q in the current trick's order (0: the leader)
    int order_of(const State& st, int q) const { return wrap(q - st.leader + players); }
    int to_play(const State& st) const { return wrap(st.leader + st.cnt); }
    // has S already played in the current trick?
    int s_done(const State& st) const {
        return st.cnt && order_of(st, seat) < st.cnt ? 1 : 0;
    }
};

// Cells the seat to play may fill now (L1 empty, L2 permission held, L3 red lead).
// Zero means a paradox (X1). Only meaningful while left > 0.
inline uint64_t legal_mask(const Ctx& cx, const State& st) {
    int p = cx.to_play(st);
    uint64_t m = cx.hand_cols(st.hand[p]) & ~st.occ & cx.perm_cells(st, p);
    if (st.cnt == 0 && !(st.occ & cx.red)) {
        uint64_t non_red = m & ~cx.red;
        if (non_red) m = non_red;
    }
    return m;
}

// The state after the seat to play fills cell idx (P1), with F2, W1, W3.
inline State apply(const Ctx& cx, const State& st, int idx) {
    State s = st;
    int p = cx.to_play(st);
    int c = cx.cell_c[idx], k = cx.cell_n[idx];
    uint64_t bit = 1ULL << idx;
    s.occ |= bit;
    if (p == cx.seat) s.mine |= bit;
    s.hand[p] -= Ctx::unit(k);
    if (st.cnt == 0) {  // L4: the leader keeps every permission
        s.led = (int8_t)c;
        s.wval = (int8_t)(c == 0 ? k + cx.rules.red_bonus : k);
        s.wseat = (int8_t)p;
    } else {
        if (c != st.led) s.perms &= ~(1u << (4 * p + st.led));  // F2 (also when red was led)
        int v = c == 0 ? k + cx.rules.red_bonus : (c == st.led ? k : -1);  // W1
        if (v > st.wval) {
            s.wval = (int8_t)v;
            s.wseat = (int8_t)p;
        }
    }
    s.cnt = (int8_t)(st.cnt + 1);
    if (s.cnt == cx.players) {  // W3: the winner scores and leads the next trick
        if (s.wseat == cx.seat) s.tricks++;
        s.leader = s.wseat;
        s.cnt = 0;
        s.led = s.wval = s.wseat = -1;
        s.left--;
    }
    return s;
}

}  // namespace catbox
