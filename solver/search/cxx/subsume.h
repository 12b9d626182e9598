// catbox native search core: monotone subsumption of win's facts (search.h SEARCH_MONO).
//
// A second table beside win's: keyed on S's part of a state only, each entry a few facts of
// win together with the other seats' resources, matched by inclusion instead of equality.
//
// Resources. As in table.h core_key (`norm`), let F_q be the cells seat q can fill now (empty,
// L1; of a number q holds; in a colour q still holds, L2) and cc(q, k) = min(q's copies of k,
// |F_q ∩ column k|) its usable copies. A state's answers depend only on the F_q, the cc, the
// trick fields (leader, plays made, led colour, winning value and seat), the tricks left and
// whether red is broken (core_key's argument). S's part: F_S, cc(S, .), the trick fields, the
// tricks left. The other seats' part: (F_q, cc(q, .)) for q != S. Write B <= A when the two
// have the same S part and red broken alike, and for every q != S F_q(B) ⊆ F_q(A) and
// cc(q, k)(B) <= cc(q, k)(A) for every k.
//
// Claim. Let red be broken in A and B, B <= A, and the goal g = (lo = 0, hi, pk) with
// pk <= hi (pk = -1: no paradox of S allowed). If S can force g from A, it can from B.
// Proof. Take S's strategy sigma from A, played in B. Invariant along a line of B under
// sigma, paired with the same line in A: the states keep equal S parts, equal trick fields
// and B <= A. At the start it holds. A play fills one cell x, which leaves every F_r (r any
// seat); the player's copies of x's number drop by one; off the led colour it loses that
// colour (F2): the same effect on both states, so subsets stay subsets and a count that drops
// to 0 in B only removes a column from F_q(B), still a subset of F_q(A). With red broken the
// legal plays of a seat are exactly its F (L1-L3: L3's red lead restriction needs red
// unbroken), so (i) S's legal plays are the same in both (equal F_S): sigma's play in A is
// legal in B, and S is stuck in B exactly when in A; (ii) every legal play of another seat q
// in B lies in F_q(B) ⊆ F_q(A): legal in A; the same card, so W1 gives the same trick winner,
// and S's trick counts agree. So every line of B under sigma is a line of A under sigma,
// except that it may end earlier with another seat q stuck in B (F_q(B) empty) while A goes
// on. Lines that end alike end in g (they are lines of A under sigma). A line that ends with
// q stuck ends the round without a paradox of S (X3) with S's count so far, d more tricks:
// in A the same line goes on to an end in g, where S's count is at least d (counts only
// grow): no paradox and d <= count <= hi; or S's paradox after count <= pk <= hi more tricks;
// or another seat's paradox with count <= hi (lo = 0). So 0 <= d <= hi: that end is in g too.
// (pk <= hi is needed: a paradox of S after more than hi tricks may be in g from A, while in
// B the round can end earlier by X3 with more than hi tricks.)
//
// Use. A fact of win is a literal truth about its state and goal (win_static's normalised
// goals are goals too). So:
// - a stored yes (0, hi, pk), pk <= hi, at A answers yes for every state B <= A and goal
//   (lo, hi', pk') with lo = 0, hi' >= hi, pk' >= pk (a larger goal);
// - a stored no at B answers no for every A >= B and goal (lo', hi', pk') with hi' <= hi,
//   pk' <= pk (a smaller goal; any lo' >= 0): the claim's contrapositive. A no (0, hi, pk)
//   with pk > hi is stored as the weaker no (0, hi, hi) (a smaller goal is no too).
// Red must be broken in both (the mutant SEARCH_MONO_NOGUARD drops that test; refuted by
// tests/test_search_subsume.py: a seat that can lead only red in B breaks red there, L3, and
// S's leads change).
#pragma once
#include <cstdint>
#include <vector>

#include "core.h"
#include "table.h"

namespace catbox {

constexpr int MONO_WORDS = 12;  // the other seats' resources of all facts of an entry
constexpr int MONO_FACTS = 6;

// One seat's resources in a word: F_q (bits 0-35) and cc(q, .) (three bits per number,
// bits 36-62)
inline uint64_t seat_resources(const Ctx& cx, const State& st, int q) {
    const int n = cx.n;
    const uint64_t row = (1ULL << n) - 1;
    constexpr uint32_t ONE = 0x1249249u;  // bit 0 of each 3-bit count field
    uint64_t f = cx.hand_cols(st.hand[q]) & ~st.occ & cx.perm_cells(st, q);
    uint32_t r0 = (uint32_t)(f & row), r1 = (uint32_t)(f >> n & row),
             r2 = (uint32_t)(f >> 2 * n & row), r3 = (uint32_t)(f >> 3 * n & row);
    uint32_t e = (cx.fields[r0] & ONE) + (cx.fields[r1] & ONE) + (cx.fields[r2] & ONE) +
                 (cx.fields[r3] & ONE);
    return f | (uint64_t)min_fields(st.hand[q], e) << 36;
}

// a's resources within b's (F within F, every usable count at most b's)
inline bool within(uint64_t a, uint64_t b) {
    constexpr uint64_t CELLS = (1ULL << 36) - 1;
    if (a & ~b & CELLS) return false;
    uint32_t ha = (uint32_t)(a >> 36), hb = (uint32_t)(b >> 36);
    return min_fields(ha, hb) == ha;
}

// The key of S's part of st (the table's two words) and the other seats' resources in oth
// (players - 1 words, in seat order)
inline Key mono_key(const Ctx& cx, const State& st, uint64_t* oth) {
    uint64_t s = 0;
    int j = 0;
    for (int q = 0; q < cx.players; ++q) {
        uint64_t r = seat_resources(cx, st, q);
        if (q == cx.seat)
            s = r;
        else
            oth[j++] = r;
    }
    Key k{};
    k.w[0] = s;  // F_S and cc(S, .): bits 0-62
    k.w[1] = (uint64_t)st.leader | (uint64_t)st.cnt << 4 | (uint64_t)(st.led + 1) << 8 |
             (uint64_t)(uint8_t)(st.wval + 1) << 12 | (uint64_t)(st.wseat + 1) << 20 |
             (uint64_t)st.left << 24 | (uint64_t)((st.occ & cx.red) != 0) << 28 | 1ULL << 29;
    return k;
}

struct MonoEntry {
    uint64_t oth[MONO_WORDS];  // fact i's other seats: words i*w .. i*w + w - 1
    int8_t hi[MONO_FACTS], pk[MONO_FACTS], res[MONO_FACTS];
    int8_t n;
};

inline int mono_capacity(int players) {
    int c = MONO_WORDS / (players - 1);
    return c < MONO_FACTS ? c : MONO_FACTS;
}

// every word of x within y's (w words)
inline bool all_within(const uint64_t* x, const uint64_t* y, int w) {
    for (int i = 0; i < w; ++i)
        if (!within(x[i], y[i])) return false;
    return true;
}

// A fact of e that decides (lo, hi, pk) for a state with other seats' resources oth: 1 or 0,
// else -1 (w = players - 1)
inline int mono_probe(const MonoEntry& e, int w, const uint64_t* oth, int lo, int hi, int pk) {
    for (int i = 0; i < e.n; ++i) {
        const uint64_t* f = &e.oth[i * w];
        if (e.res[i]) {
            if (lo == 0 && e.hi[i] <= hi && e.pk[i] <= pk && all_within(oth, f, w)) return 1;
        } else if (e.hi[i] >= hi && e.pk[i] >= pk && all_within(f, oth, w)) {
            return 0;
        }
    }
    return -1;
}

// The fact (0, hi, pk) -> res stored in e (the caller checked lo = 0 and, for a yes,
// pk <= hi); facts it implies dropped, the oldest forgotten when full
inline void mono_store(MonoEntry& e, int players, const uint64_t* oth, int hi, int pk,
                       bool res) {
    const int w = players - 1, cap = mono_capacity(players);
    if (!res && pk > hi) pk = hi;  // the weaker no, within the claim
    int k = 0;
    for (int i = 0; i < e.n; ++i) {
        const uint64_t* f = &e.oth[i * w];
        bool drop = e.res[i] == (res ? 1 : 0) &&
                    (res ? (e.hi[i] >= hi && e.pk[i] >= pk && all_within(f, oth, w))
                         : (e.hi[i] <= hi && e.pk[i] <= pk && all_within(oth, f, w)));
        if (drop) continue;
        if (k != i) {
            for (int j = 0; j < w; ++j) e.oth[k * w + j] = f[j];
            e.hi[k] = e.hi[i];
            e.pk[k] = e.pk[i];
            e.res[k] = e.res[i];
        }
        ++k;
    }
    if (k == cap) {  // full: forget the oldest fact
        for (int i = 1; i < k; ++i) {
            for (int j = 0; j < w; ++j) e.oth[(i - 1) * w + j] = e.oth[i * w + j];
            e.hi[i - 1] = e.hi[i];
            e.pk[i - 1] = e.pk[i];
            e.res[i - 1] = e.res[i];
        }
        --k;
    }
    for (int j = 0; j < w; ++j) e.oth[k * w + j] = oth[j];
    e.hi[k] = (int8_t)hi;
    e.pk[k] = (int8_t)pk;
    e.res[k] = res ? 1 : 0;
    e.n = (int8_t)(k + 1);
}

// What the table answered, for the census of the rule (Engine::mono_stats): goals asked and
// answered by tricks left, answers by gap (tricks left - pk, 0..9; pk = -1 counts as left + 1)
// and S's place in the trick (0 leads, 1 to play following, 2 waits, 3 has played); with
// SEARCH_MONO_CHECK the table's answer is not used, and alpha-beta's answers it contradicts
// are counted (wrong), df-pn's kept in a sample (claims) for the caller to check
struct MonoClaim {
    State st;
    int lo, hi, pk, res;
};
struct MonoStats {
    uint64_t asked[MAX_NUMBER + 1] = {}, hits[MAX_NUMBER + 1] = {};
    uint64_t yes = 0, no = 0, wrong = 0, checked = 0;
    uint64_t by_gap[10] = {}, by_place[4] = {};
    uint64_t walk_subsumed = 0;  // the last proof_size walk's ProofSize::subsumed
    size_t keep = 0;             // claims kept at most (the first ones)
    std::vector<MonoClaim> claims;
};

}  // namespace catbox
