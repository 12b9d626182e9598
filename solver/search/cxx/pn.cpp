// catbox native search core: proof-number search for the yes/no goals of win.
//
// Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon threshold trick
// (Pawlewicz & Lew 2007). The goal is win's: S avoids causing a paradox (X1) and wins a trick
// count in [lo, hi] (or, pk >= 0, may cause one after at most pk more tricks). S's nodes are
// OR nodes, the other seats' nodes AND nodes (they act together against S). A node's proof
// number pn is a cost estimate of proving the goal below it, dn of disproving it; 0 means
// solved. Unlike alpha-beta, df-pn never proves a poor sibling to the end before it has looked
// at the others: it always extends the most proving node, which pays where the AND-OR tree is
// deep and lopsided (the paradox question from the round start).
//
// Soundness does not depend on the numbers: a node is proven only when one S child (OR) or
// every other-seat child (AND) is proven, disproven likewise, so a lost or replaced table
// entry costs time, never an answer. Nodes with fewer than opt.pn_leaf tricks left are solved
// by win (alpha-beta) at once; every solved node is also stored as a win fact, so the
// alpha-beta searches that follow (value, para, main lines) reuse the proofs.
#include <cmath>
#include <new>

#include "search.h"

namespace catbox {

constexpr uint32_t PN_INF = 1u << 30;     // the number of a solved node's other side
constexpr uint32_t PN_MAX = PN_INF - 1;  // the largest number of an unsolved node

static inline uint32_t pn_add(uint32_t a, uint32_t b) {
    uint64_t s = (uint64_t)a + b;
    return s >= PN_MAX ? PN_MAX : (uint32_t)s;
}

static inline Key state_key(Key gk) {
    gk.w[3] &= (1ULL << 40) - 1;
    return gk;
}

// The numbers of a child: solved at once when static, small or already in the win table;
// else from the proof-number table or, new, from its move count.
void Engine::pn_eval(PnChild& c) {
    uint64_t lm = 0;
    int r = pn_pre(c, lm);
    pn_post(c, r, lm);
}

// pn_eval's first stage, which counts no node and reads no table: win_static's answer (the
// goal normalised in c, lm the legal plays), and when it has none above the leaves the
// child's keys (c.key; its state key is state_key(c.key) with SEARCH_PN_NORM) with both
// table buckets prefetched. pn_mid runs it for the next child before the second stage of
// this one, so the buckets arrive while this child is probed (measured, 3p/7 seed 700 row 0
// j = 2, 24.5 M nodes: running it for every child first cost +3 % CPU, the children after
// a deciding one wasted; pipelined by one with the other prefetches of this change -12 %).
int Engine::pn_pre(PnChild& c, uint64_t& lm) {
    lm = 0;
    int r = win_static(c.st, c.lo, c.hi, c.pk, lm);
    if (r < 0 && c.st.left >= opt.pn_leaf) {
        Key ck = key_of(c.st);
        tt_.prefetch_tags(ck);
        c.key = goal_key(pn_key_of(c.st, ck), c.lo, c.hi, c.pk);
        pnt_.prefetch_tags(c.key);
    }
    return r;
}

// pn_eval's second stage: the node counted, a leaf searched (win), the win and proof-number
// tables probed, else the numbers of a new node
void Engine::pn_post(PnChild& c, int r, uint64_t lm) {
    count_node(c.st, PROF_PN_EVAL);
    c.lazy = false;
    if (r >= 0) count_static(c.st, r);
    bool leaf = c.st.left < opt.pn_leaf;
    if (r < 0 && leaf) r = win_search(c.st, c.lo, c.hi, c.pk, lm) ? 1 : 0;
    if (r < 0) {
        // the state key (key_of) back from the goal key, unless the proof-number table's
        // keys are not normalised while the win table's are (pn_key_of)
        bool same = !(opt.search & SEARCH_NORM) || opt.search & SEARCH_PN_NORM;
        Key ck = same ? state_key(c.key) : key_of(c.st);
        int hint = -1;
        r = probe_fact(c.st, ck, c.lo, c.hi, c.pk, hint, false);
    }
    if (r >= 0) {
        c.pn = r ? 0 : PN_INF;
        c.dn = r ? PN_INF : 0;
        return;
    }
    if (const PnEntry* e = pnt_.find(c.key)) {
        c.pn = e->pn;
        c.dn = e->dn;
        return;
    }
    // a subsuming fact (SEARCH_MONO, subsume.h), asked of new nodes only
    if (!leaf && mono_on(c.st)) {
        r = mono_fact(c.st, c.lo, c.hi, c.pk);
        if (r >= 0) {
            c.pn = r ? 0 : PN_INF;
            c.dn = r ? PN_INF : 0;
            return;
        }
    }
    pn_new(c, lm);
}

// The numbers of a new node with the legal plays lm (not 0): from its move count (an other
// seat's disproof number from S's open cells with Options::pn_other).
void Engine::pn_new(PnChild& c, uint64_t lm) {
    uint32_t m = opt.pn_mobility ? (uint32_t)popcount(lm) : 1;
    bool is_s = cx.to_play(c.st) == cx.seat;
    c.pn = is_s ? 1 : m;
    c.dn = is_s ? m : 1;
    if (!is_s && opt.pn_other > 0) {
        // from S's open cells: the move count of S's next node below (Options::pn_other)
        uint32_t d = (uint32_t)opt.pn_other;
        uint32_t f = ((uint32_t)popcount(s_free(cx, c.st)) + d - 1) / d;
        c.dn = f ? f : 1;
    }
    if (opt.pn_slack) {
        // the more plays S can make beyond those it owes, the harder S's paradox is to force
        // (measured: scaling the proof number by the plays S lacks does not pay)
        int slack = s_plays_bound(cx, c.st) - (c.st.left - cx.s_done(c.st));
        if (slack > 0) c.dn *= (uint32_t)(1 + slack);
    }
}

// A child's numbers guessed as pn_eval does for a new node, without its table key, table
// probes or static bounds (Options::pn_lazy): never 0, so a node is solved only by children
// pn_eval has seen; pn_mid evaluates a guessed child when it becomes the most proving one.
void Engine::pn_guess(PnChild& c) {
    uint64_t lm = c.st.left ? legal_mask(cx, c.st) : 0;
    if (!lm) {  // E1, X1, X3: decided at once (win_static's answer, no search)
        pn_eval(c);
        return;
    }
    c.lazy = true;
    pn_new(c, lm);
}

// One df-pn step: search below st until its numbers reach a threshold (or it is solved); its
// numbers come back in pn, dn. st is unsolved by win_static and the win table.
void Engine::pn_mid(const State& st, int lo, int hi, int pk, const Key& gk, uint32_t thpn,
                    uint32_t thdn, uint32_t& pn, uint32_t& dn) {
    count_node(st, PROF_PN_MID);
    uint64_t start = nodes;
    uint64_t lm = legal_mask(cx, st);
    int p = cx.to_play(st);
    bool is_s = p == cx.seat;
    int hint = -1;  // the best play stored by this node's last search (here or transposed)
    auto* at = pnt_.lookup(gk);  // st's entry, for the store below while it still holds gk
    // for the insert below: the bucket's slots are read for the victim when it is full (a
    // miss there was 70 % of Table::insert; prefetching the win table's bucket too for
    // store_fact measured no gain, 10.1-11.0 s and 10.5-10.7 s CPU)
    if (!at) pnt_.prefetch_bucket(gk);
    uint64_t gen = pnt_.generation();
    if (at) hint = at->data.hint;
    if (is_s) hint = sim_hint(st, hint);
    lm = searched(st, lm, p, false);
    Moves mv;
    ordered(refuters_ && !is_s ? hist_left_[st.left] : hist_, lm, p, hint, mv);
    // the children in raw storage, each constructed when made: an array of PnChild
    // default-initialised every State of its 36 children, 3 % of the CPU (perf, 3p/7 probe)
    alignas(PnChild) unsigned char raw[sizeof(PnChild) * MAX_CELLS];
    PnChild* ch = reinterpret_cast<PnChild*>(raw);
    int8_t rs[MAX_CELLS];  // pn_pre's answers and legal plays of the children
    uint64_t lms[MAX_CELLS];
    int n = 0;
    int t = st.tricks;
    for (int i = 0; i < mv.n; ++i) {
        int idx = mv.idx[i];
        State cs = apply(cx, st, idx);
        int d = cs.tricks - t;
        // (default-initialised: the key is set by pn_pre where it is used; PnChild{...}
        // cleared the whole child with rep stos first)
        PnChild& c = *new (&ch[n++]) PnChild;
        c.st = cs;
        c.lo = lo - d;
        c.hi = hi - d;
        c.pk = pk - d;
        c.idx = (int8_t)idx;
        c.lazy = false;
        if (opt.pn_lazy) {
            pn_guess(c);
            continue;
        }
    }
    if (!opt.pn_lazy && n) {
        // pipelined by one child: the next child's keys prefetched before this one's probes
        rs[0] = (int8_t)pn_pre(ch[0], lms[0]);
        for (int i = 0; i < n; ++i) {
            if (i + 1 < n) rs[i + 1] = (int8_t)pn_pre(ch[i + 1], lms[i + 1]);
            PnChild& c = ch[i];
            pn_post(c, rs[i], lms[i]);
            if (is_s ? c.pn == 0 : c.dn == 0) {  // decides st
                n = i + 1;
                break;
            }
        }
    }
    int best = 0;
    const double grow = 1.0 + opt.pn_eps;
    for (;;) {
        // combine: an OR node's pn is its children's least, dn their sum; AND the other way
        uint32_t least = PN_INF, second = PN_INF, sum = 0, most = 0, open = 0;
        best = 0;
        for (int i = 0; i < n; ++i) {
            uint32_t a = is_s ? ch[i].pn : ch[i].dn, b = is_s ? ch[i].dn : ch[i].pn;
            if (a < least) {
                second = least;
                least = a;
                best = i;
            } else if (a < second) {
                second = a;
            }
            sum = b >= PN_INF ? PN_INF : (sum >= PN_INF ? PN_INF : pn_add(sum, b));
            if (b) {
                ++open;
                if (b > most) most = b;
            }
        }
        if (least == 0) {
            sum = PN_INF;  // solved
        } else if (opt.pn_weak && sum < PN_INF && open) {
            // weak proof numbers (Ueda et al. 2008): the sum counts a subtree shared by
            // transposed children once per parent; max + (open - 1) does not
            sum = pn_add(most, open - 1);
        }
        if (is_s) {
            pn = least;
            dn = sum;
        } else {
            dn = least;
            pn = sum;
        }
        if (pn >= thpn || dn >= thdn || pn == 0 || dn == 0) break;
        PnChild& c = ch[best];
        if (c.lazy) {  // the most proving child is only guessed: evaluate it, then choose again
            c.lazy = false;
            pn_eval(c);
            continue;
        }
        // thresholds for the most proving child (1+epsilon: stay with it a little longer)
        uint32_t th2 = PN_INF;
        if (second < PN_INF) {
            double g = std::ceil(second * grow);
            th2 = g >= PN_INF ? PN_INF : (uint32_t)g;
            if (th2 < second + 1) th2 = second + 1;
        }
        uint32_t cpn, cdn;
        if (is_s) {
            cpn = thpn < th2 ? thpn : th2;
            cdn = thdn >= PN_INF ? PN_INF : (uint32_t)((uint64_t)thdn - dn + c.dn);
        } else {
            cdn = thdn < th2 ? thdn : th2;
            cpn = thpn >= PN_INF ? PN_INF : (uint32_t)((uint64_t)thpn - pn + c.pn);
        }
        pn_mid(c.st, c.lo, c.hi, c.pk, c.key, cpn, cdn, c.pn, c.dn);
    }
    int idx = ch[best].idx;
    auto* slot = pnt_.reuse(at, gen, gk, PnEntry{pn, dn, -1});
    slot->data.pn = pn;
    slot->data.dn = dn;
    slot->data.hint = (int8_t)idx;
    pnt_.set_work(slot, nodes - start);
    if (pn == 0 || dn == 0) {
        bool res = pn == 0;
        bool by_best = res == is_s;  // the deciding play (else every play was needed)
        if (by_best) {
            hist_.credit(p, idx, st.left);
            if (is_s) sim_proved(st, idx);
            if (!is_s) hist_left_[st.left].credit(p, idx, 1);  // a refutation (refuters_)
        }
        Key wk = state_key(gk);
        if (opt.search & SEARCH_NORM && !(opt.search & SEARCH_PN_NORM)) wk = key_of(st);
        store_fact(st, wk, lo, hi, pk, res, by_best ? idx : -1, start);
    }
}

bool Engine::win_pn(const State& st, int lo, int hi, int pk) {
    count_node(st, PROF_PN_MID);
    uint64_t lm = 0;
    int r = win_static(st, lo, hi, pk, lm);
    if (r >= 0) {
        count_static(st, r);
        return r != 0;
    }
    if (st.left < opt.pn_leaf) return win_search(st, lo, hi, pk, lm);
    Key ck = key_of(st);
    int hint = -1;
    r = probe_fact(st, ck, lo, hi, pk, hint);
    if (r >= 0) return r != 0;
    Key gk = goal_key(pn_key_of(st, ck), lo, hi, pk);
    refuters_ = opt.pn_refuters > 0 && st.left >= opt.pn_refuters;
    uint32_t pn = 1, dn = 1;
    while (pn != 0 && dn != 0) pn_mid(st, lo, hi, pk, gk, PN_INF, PN_INF, pn, dn);
    return pn == 0;
}

// A portfolio: alpha-beta first for a few nodes (it answers some goals at once with its move
// ordering, where df-pn wanders), then df-pn, which finds every fact the probe stored.
bool Engine::solve(const State& st, int lo, int hi, int pk) {
    if (opt.hist_age > 0) {
        hist_.age(opt.hist_age);
        for (auto& h : hist_left_) h.age(opt.hist_age);
    }
    if (opt.pn_min_left <= 0 || st.left < opt.pn_min_left) return win(st, lo, hi, pk);
    if (opt.pn_probe > 0) {
        probe_limit_ = nodes + (uint64_t)opt.pn_probe;
        try {
            bool r = win(st, lo, hi, pk);
            probe_limit_ = ~0ULL;
            return r;
        } catch (const ProbeOver&) {
            probe_limit_ = ~0ULL;
        } catch (...) {
            probe_limit_ = ~0ULL;
            throw;
        }
    }
    return win_pn(st, lo, hi, pk);
}

}  // namespace catbox
