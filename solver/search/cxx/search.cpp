// catbox native search core: search drivers (see search.h; reference: engine.py).
#include "search.h"

#include <cstring>
#include <memory>
#include <unordered_set>

namespace catbox {

constexpr uint64_t CHECK_EVERY = 2048;
constexpr uint64_t NO_LIMIT = ~0ULL;


Engine::Engine(int players, int seat, int n, int prediction, const uint64_t* adjacency,
               size_t cap_bytes, Rules rules)
    : tt_(&process_budget()),
      pt_(&process_budget()),
      ptt_(&process_budget()),
      vtt_(&process_budget()),
      pnt_(&process_budget()),
      mt_(&process_budget()) {
    process_budget().cap_bytes = cap_bytes;  // the latest engine's setting holds for all
    cx.init(players, seat, n, prediction, adjacency, rules);
    all_pairs_ = all_pairs(n);
    if (players >= 4) opt.pn_refuters = 7;  // measured: search.h Options::pn_refuters
    std::memset(sim_, -1, sizeof sim_);
    next_check_ = CHECK_EVERY;
    node_limit_ = NO_LIMIT;
    probe_limit_ = NO_LIMIT;
    if (players == 2) {
        bonus_lo_ = 0;
        bonus_hi_ = rules.two_player_bonus_max;
    } else {
        bonus_lo_ = bonus_hi_ = prediction < 0 ? 0 : prediction;
    }
}

void Engine::clear() {
    tt_.reset();
    pt_.reset();
    ptt_.reset();
    vtt_.reset();
    pnt_.reset();
    mt_.reset();
    mono = MonoStats{};
    std::memset(sim_, -1, sizeof sim_);
    hist_.clear();
    for (auto& h : hist_left_) h.clear();
    profile = Profile{};
}

void Engine::tick() {
    next_check_ = nodes + CHECK_EVERY;
    if (nodes > probe_limit_) throw ProbeOver{};
    if (node_limit_ != NO_LIMIT) {
        if (nodes > node_limit_) throw BudgetExceeded{"node limit"};
        if (node_limit_ + 1 < next_check_) next_check_ = node_limit_ + 1;
    }
    if (has_deadline_ && std::chrono::steady_clock::now() > deadline_)
        throw BudgetExceeded{"time limit"};
    if (stop_.load(std::memory_order_relaxed)) throw BudgetExceeded{"stopped"};
}

void Engine::set_budget(int64_t node_limit, double time_limit) {
    node_limit_ = node_limit < 0 ? NO_LIMIT : nodes + (uint64_t)node_limit;
    has_deadline_ = time_limit >= 0;
    if (has_deadline_)
        deadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(time_limit));
    uint64_t step = CHECK_EVERY;
    if (node_limit >= 0) step = node_limit < 1 ? 1 : ((uint64_t)node_limit < CHECK_EVERY ? (uint64_t)node_limit : CHECK_EVERY);
    next_check_ = nodes + step;
}

// The goal normalised (lo, hi, pk clipped to what is still reachable; the canonical empty
// interval is lo = 1, hi = 0) and the answers that need no search: 1 or 0, else -1 with lm
// the legal plays. Shared by win and the proof-number search.
int Engine::win_static(const State& st, int& lo, int& hi, int& pk, uint64_t& lm,
                       bool* ordered) const {
    int left = st.left;
    if (lo < 0) lo = 0;
    if (hi > left) hi = left;
    if (pk > left) pk = left;
    if (lo > hi) {
        if (pk < 0) return 0;
        lo = 1;
        hi = 0;  // the canonical empty interval
    }
    if (left == 0) return lo == 0;  // E1
    int seat = cx.seat;
    int s_done = cx.s_done(st);
    int top = left;
    if (s_done && st.wseat != seat) {
        // S has played in this trick and is not winning it: it cannot win it any more (W1)
        top = left - 1;
        if (hi == left) --hi;
        if (left == 1) return lo == 0 && hi >= 0;  // nor cause a paradox
        if (lo > hi) {
            if (pk < 0) return 0;
            lo = 1;
            hi = 0;
        }
    }
    lm = legal_mask(cx, st);
    int p = cx.to_play(st);
    if (!lm) return p != seat ? lo == 0 : pk >= 0;  // X1, X3
    if (pk < 0) pk = -1;
    // the static proofs first: they need no memory access (bounds.h)
    if (!opt.bounds) {
        if (lo == 0 && hi >= top && never_stuck(cx, st, s_done)) return 1;
    } else {
        Static sb = round_end(cx, st, s_done, top, opt.bounds);
        int ub = opt.bounds & BOUND_TRICKS ? sb.ub : top;
        if (lo > ub) {  // S cannot win lo more tricks
            if (pk < 0) return 0;
            lo = 1;
            hi = 0;
        }
        // S's paradox comes after at most pub more tricks of S (para_cap)
        int pub = opt.bounds & BOUND_PARA_END ? para_cap(ub, top) : ub;
        int safe = -1;  // s_safe, asked at most once (two clauses below need it)
        auto is_safe = [&] {
            if (safe < 0) safe = s_safe(cx, st, s_done, sb, opt.bounds) ? 1 : 0;
            return safe != 0;
        };
        if (lo == 0 && hi >= ub && (pk >= pub || is_safe()))
            return 1;  // every end of the round is in the goal
        // S loses the current trick by a play its safe strategy allows (s_safe_ducks), or, to
        // play, has such a play that surely does not win the trick (s_beaten): no paradox of
        // S, and at most ub - 1 more tricks (bounds.h); s_safe asked once in all (is_safe)
        if (lo == 0 && hi >= ub - 1 && opt.bounds & BOUND_SAFE &&
            ((opt.bounds & BOUND_SAFE_DUCK && s_safe_ducks(cx, st, sb)) ||
             (opt.bounds & BOUND_BEATEN && p == seat && !s_done && s_beaten(cx, st, sb, lm))) &&
            is_safe()) {
            if (ordered) *ordered = true;  // both compare numbers (partition.h)
            return 1;
        }
        // S loses the current trick by a play it surely has (s_ducks): its paradox then comes
        // after at most top - 2 more tricks (para_cap's argument without trick 0); with
        // BOUND_LOST_TRICK (lost_cap) also after at most ub - 1, every count at most ub - 1,
        // and S may lose it by a play of its own that a later seat surely beats (s_beaten)
        // (BOUND_LOST_TWO: S's sure losers over two tricks, s_losers; asked only when the
        // goal's weakest claim, two losers', would settle it, and without the switch only
        // when one loser's would)
        if (opt.bounds & BOUND_LOST_TRICK) {
            if (lo == 0 && pk >= 0 && hi >= ub - 2 && pk >= lost_cap_j(ub, top, 2) &&
                ((hi >= ub - 1 && pk >= lost_cap(ub, top)) || opt.bounds & BOUND_LOST_TWO)) {
                int cap = 0;
                int j = s_losers(cx, st, s_done, top, sb, lm, opt.bounds, cap);
                if (j && hi >= ub - j && pk >= cap) {
                    if (ordered) *ordered = true;  // s_beaten compares numbers (partition.h)
                    return 1;
                }
            }
        } else if (lo == 0 && hi >= ub && pk >= 0 && opt.bounds & BOUND_DUCK && pk >= top - 2 &&
                   s_ducks(cx, st, sb))
            return 1;
        // S's sure losers by a strategy that also keeps S safe (BOUND_SAFE_TWO,
        // s_safe_losers): no paradox of S and at most ub - j more tricks, whatever the paradox
        // part (the "at most k" goals); asked only for the j the goal needs (1 or 2)
        if (opt.bounds & BOUND_SAFE_TWO && lo == 0 && hi < ub && hi >= ub - 2 &&
            s_safe_losers(cx, st, s_done, sb, lm, opt.bounds, ub - hi) >= ub - hi) {
            if (ordered) *ordered = true;  // s_beaten compares numbers (partition.h)
            return 1;
        }
        // the other seats can force S's paradox (X1, X3). Only goals without a paradox part
        // are settled: the others' strategy proves the paradox, it does not exclude lines in
        // which they are stuck first, so a goal with one is not the empty interval's
        if (pk < 0 && opt.bounds & BOUND_DOOMED && s_doomed(cx, st, s_done, sb, opt.bounds))
            return 0;
        // another seat's top red cards hold S below lo (a strategy bound: no paradox part)
        if (pk < 0 && lo > 0 && opt.bounds & BOUND_STOPPERS && lo > top - stoppers(cx, st, s_done)) {
            if (ordered) *ordered = true;  // S's highest red (partition.h)
            return 0;
        }
        // equivalent goals in one form for the table: above ub means no limit
        if (lo <= hi && hi >= ub) hi = top;
        if (pk >= pub) pk = left;
    }
    return -1;
}

uint64_t Engine::searched(const State& st, uint64_t lm, int p, bool groups) const {
    if (opt.symmetry) lm = symmetric(cx, st, lm, groups);
    if (st.cnt && !(groups && p == cx.seat)) lm = merge(cx, st, lm, p);
    if (opt.search & SEARCH_EQUIV && !groups) lm = equivalent(cx, st, lm, p);
    return lm;
}

// ------------------------------------------------------------------ AND-OR
bool Engine::win(const State& st, int lo, int hi, int pk) {
    count_node(st, PROF_WIN);
    uint64_t lm = 0;
    if (opt.prefetch && st.left >= opt.tt_min_left) {
        // the table key first: its bucket is fetched while the static bounds run
        Key key = key_of(st);
        tt_.prefetch(key);
        bool ordered = false;
        int r = win_static(st, lo, hi, pk, lm, &ordered);
        if (r >= 0) {
            count_static(st, r);
            rel_ = ordered ? all_pairs_ : 0;  // SEARCH_PART (partition.h)
            return r != 0;
        }
        return win_search(st, lo, hi, pk, lm, &key);
    }
    bool ordered = false;
    int r = win_static(st, lo, hi, pk, lm, &ordered);
    if (r >= 0) {
        count_static(st, r);
        rel_ = ordered ? all_pairs_ : 0;  // SEARCH_PART (partition.h)
        return r != 0;
    }
    return win_search(st, lo, hi, pk, lm);
}

// win below the static answers: the goal is normalised and lm holds the legal plays (`known`:
// st's table key, if computed)
bool Engine::win_search(const State& st, int lo, int hi, int pk, uint64_t lm, const Key* known) {
    if (part()) return part_search(st, lo, hi, pk, lm);
    uint64_t start = nodes;
    int left = st.left;
    int seat = cx.seat;
    int p = cx.to_play(st);
    bool use_tt = left >= opt.tt_min_left;
    uint32_t live = 0;  // st's live numbers when its key is rank-normalised (the hints)
    Key key = !use_tt ? Key{} : known ? *known : key_of(st, &live);
    if (use_tt && known && ranked(st)) live = live_numbers(cx, st);
    int hint = -1;
    Table<WinEntry, 4>::Slot* at = nullptr;  // key's slot when probed, for the store
    uint64_t gen = 0;
    if (use_tt) {
        int known = probe_win(key, lo, hi, pk, hint, &at, &gen);
        if (known >= 0) return known != 0;
        hint = played_hint(hint, live);
    }
    // a subsuming fact (SEARCH_MONO, subsume.h); with SEARCH_MONO_CHECK only counted
    bool mono_ok = use_tt && mono_on(st);
    int subsumed = mono_ok ? probe_mono(st, lo, hi, pk) : -1;
    if (subsumed >= 0 && !(opt.search & SEARCH_MONO_CHECK)) return subsumed != 0;
    int t = st.tricks;
    bool is_s = p == seat;
    bool result = !is_s;
    int best = -1;
    if (is_s) hint = sim_hint(st, hint);
    lm = searched(st, lm, p, false);
    Moves mv;
    ordered(hist_, lm, p, hint, mv);
    for (int i = 0; i < mv.n; ++i) {
        int idx = mv.idx[i];
        State ch = apply(cx, st, idx);
        int d = ch.tricks - t;
        if (win(ch, lo - d, hi - d, pk - d) == is_s) {
            result = is_s;
            best = idx;
            break;
        }
    }
    if (best >= 0) hist_.credit(p, best, left);
    if (best >= 0 && is_s) sim_proved(st, best);
    if (use_tt) store_win(key, lo, hi, pk, result, stored_hint(best, live), start, at, gen);
    if (mono_ok) {
        store_mono(st, lo, hi, pk, result, start);
        if (subsumed >= 0) {  // SEARCH_MONO_CHECK: the claim against the search
            ++mono.checked;
            if (subsumed != (result ? 1 : 0)) ++mono.wrong;
        }
    }
    return result;
}

// key's slot in table t (nullptr: none); with `at`, also the slot and the table's generation
// for a later store (Table::reuse)
template <class T>
static auto* lookup_at(T& t, const Key& key, decltype(t.lookup(key))* at, uint64_t* gen) {
    auto* slot = t.lookup(key);
    if (at) {
        *at = slot;
        *gen = t.generation();
    }
    return slot;
}

// A stored fact that decides the goal (1 or 0), else -1; `hint` gets the stored best play.
int Engine::probe_win(const Key& key, int lo, int hi, int pk, int& hint,
                      Table<WinEntry, 4>::Slot** at, uint64_t* gen) {
    auto* slot = lookup_at(tt_, key, at, gen);
    if (!slot) return -1;
    const WinEntry* e = &slot->data;
    for (int i = 0; i < e->nfacts; ++i) {
        const Fact& f = e->facts[i];
        if (f.res) {
            if (f.lo >= lo && f.hi <= hi && f.pk <= pk) return 1;
        } else if (f.lo <= lo && f.hi >= hi && f.pk >= pk) {
            return 0;
        }
    }
    hint = e->hint;
    return -1;
}

void Engine::store_win(const Key& key, int lo, int hi, int pk, bool res, int best,
                       uint64_t start, Table<WinEntry, 4>::Slot* at, uint64_t gen) {
    WinEntry init{};
    init.nfacts = 0;
    init.hint = -1;
    auto* slot = tt_.reuse(at, gen, key, init);
    WinEntry* e = &slot->data;
    int w = 0;
    for (int i = 0; i < e->nfacts; ++i) {
        const Fact& f = e->facts[i];
        bool drop = res ? (f.res && f.lo <= lo && f.hi >= hi && f.pk >= pk)  // implied win
                        : (!f.res && f.lo >= lo && f.hi <= hi && f.pk <= pk);  // implied loss
        if (!drop) e->facts[w++] = f;
    }
    if (w == MAX_FACTS) {  // full: forget the oldest fact
        for (int i = 1; i < w; ++i) e->facts[i - 1] = e->facts[i];
        --w;
    }
    e->facts[w++] = Fact{(int8_t)lo, (int8_t)hi, (int8_t)pk, (int8_t)(res ? 1 : 0)};
    e->nfacts = (int8_t)w;
    if (best >= 0) e->hint = (int8_t)best;
    tt_.set_work(slot, nodes - start);
}

// ------------------------------------------------------------------ partition search
// win_search with SEARCH_PART (partition.h): the same search, each answer with the pairs of
// numbers it compared (rel_), facts in pt_ over every relabelling that keeps their order.
bool Engine::part_search(const State& st, int lo, int hi, int pk, uint64_t lm) {
    uint64_t start = nodes;
    int left = st.left;
    int p = cx.to_play(st);
    bool use_tt = left >= opt.tt_min_left;
    Perm pm;
    Key key = use_tt ? part_key_of(st, pm) : Key{};
    int hint = -1;
    Table<PartEntry, 4>::Slot* at = nullptr;
    uint64_t gen = 0;
    if (use_tt) {
        int known = probe_part(key, pm, lo, hi, pk, hint, &at, &gen);
        if (known >= 0) return known != 0;
        hint = real_cell(cx, hint, pm);
    }
    int t = st.tricks;
    bool is_s = p == cx.seat;
    bool result = !is_s;
    int best = -1;
    uint64_t rel = 0;
    // order.h equivalent compares numbers: no relabelling is known to keep its choice
    if (opt.search & SEARCH_EQUIV) rel = all_pairs_;
    lm = searched(st, lm, p, false);
    Moves mv;
    ordered(hist_, lm, p, hint, mv);
    for (int i = 0; i < mv.n; ++i) {
        int idx = mv.idx[i];
        State ch = apply(cx, st, idx);
        int d = ch.tricks - t;
        bool r = win(ch, lo - d, hi - d, pk - d);
        uint64_t crel = rel_ | play_pair(cx, st, idx);
        if (r == is_s) {
            // the goal reached by this play: its line alone decided
            result = is_s;
            best = idx;
            rel = crel | (opt.search & SEARCH_EQUIV ? all_pairs_ : 0);
            break;
        }
        rel |= crel;
    }
    if (best >= 0) hist_.credit(p, best, left);
    if (use_tt)
        store_part(key, pm, lo, hi, pk, result, sorted_cell(cx, best, pm), rel, start, at, gen);
    rel_ = rel;
    return result;
}

int Engine::probe_part(const Key& key, const Perm& pm, int lo, int hi, int pk, int& hint,
                       Table<PartEntry, 4>::Slot** at, uint64_t* gen) {
    auto* slot = lookup_at(pt_, key, at, gen);
    if (!slot) return -1;
    const PartEntry* e = &slot->data;
    for (int i = 0; i < e->nfacts; ++i) {
        const PartFact& f = e->facts[i];
        bool decides = f.res() ? (f.lo() >= lo && f.hi() <= hi && f.pk() <= pk)
                               : (f.lo() <= lo && f.hi() >= hi && f.pk() >= pk);
        if (!decides || sorted_order(f.rel(), pm) != f.ord) continue;
        rel_ = pairs_from_sorted(f.rel(), pm);
        return f.res();
    }
    if (e->hint_ord == sorted_order(all_pairs_, pm)) hint = e->hint;
    return -1;
}

void Engine::store_part(const Key& key, const Perm& pm, int lo, int hi, int pk, bool res,
                        int best, uint64_t rel, uint64_t start, Table<PartEntry, 4>::Slot* at,
                        uint64_t gen) {
    PartEntry init{};
    init.nfacts = 0;
    init.hint = -1;
    auto* slot = pt_.reuse(at, gen, key, init);
    PartEntry* e = &slot->data;
    uint64_t r = pairs_to_sorted(rel, pm), o = sorted_order(r, pm);
    int w = 0;
    for (int i = 0; i < e->nfacts; ++i) {
        const PartFact& f = e->facts[i];
        // implied by the new fact: a goal it decides too, over states it covers too (its R
        // within theirs, the same order on it)
        bool goal = res ? (f.res() && f.lo() <= lo && f.hi() >= hi && f.pk() >= pk)
                        : (!f.res() && f.lo() >= lo && f.hi() <= hi && f.pk() <= pk);
        bool drop = goal && (r & ~f.rel()) == 0 && ((f.ord ^ o) & r) == 0;
        if (!drop) e->facts[w++] = f;
    }
    if (w == PART_FACTS) {  // full: forget the oldest fact
        for (int i = 1; i < w; ++i) e->facts[i - 1] = e->facts[i];
        --w;
    }
    e->facts[w++] = PartFact::of(r, o, lo, hi, pk, res);
    e->nfacts = (int8_t)w;
    if (best >= 0) {
        e->hint = (int8_t)best;
        e->hint_ord = sorted_order(all_pairs_, pm);
    }
    pt_.set_work(slot, nodes - start);
}

int Engine::probe_fact(const State& st, const Key& key, int lo, int hi, int pk, int& hint,
                       bool mono_too) {
    if (!part()) {
        int r = probe_win(key, lo, hi, pk, hint);
        if (r >= 0 || !mono_too || st.left < opt.tt_min_left || !mono_on(st)) return r;
        return mono_fact(st, lo, hi, pk);
    }
    Perm pm;
    Key k = part_key_of(st, pm);
    int r = probe_part(k, pm, lo, hi, pk, hint);
    if (r < 0) hint = real_cell(cx, hint, pm);
    return r;
}

void Engine::store_fact(const State& st, const Key& key, int lo, int hi, int pk, bool res,
                        int best, uint64_t start) {
    if (!part()) {
        store_win(key, lo, hi, pk, res, best, start);
        if (st.left >= opt.tt_min_left && mono_on(st)) store_mono(st, lo, hi, pk, res, start);
        return;
    }
    Perm pm;
    Key k = part_key_of(st, pm);
    store_part(k, pm, lo, hi, pk, res, sorted_cell(cx, best, pm), all_pairs_, start);
}

// ------------------------------------------------------------------ subsumption
int Engine::probe_mono(const State& st, int lo, int hi, int pk) {
    ++mono.asked[st.left];
    uint64_t oth[MAX_SEATS - 1];
    Key k = mono_key(cx, st, oth);
    const MonoEntry* e = mt_.find(k);
    if (!e) return -1;
    int r = mono_probe(*e, cx.players - 1, oth, lo, hi, pk);
    if (r < 0) return r;
    ++mono.hits[st.left];
    ++(r ? mono.yes : mono.no);
    int gap = pk < 0 ? 9 : st.left - pk > 8 ? 8 : st.left - pk;  // 9: no paradox part
    ++mono.by_gap[gap];
    int place = cx.s_done(st) ? 3 : cx.to_play(st) != cx.seat ? 2 : st.cnt ? 1 : 0;
    ++mono.by_place[place];
    return r;
}

int Engine::mono_fact(const State& st, int lo, int hi, int pk) {
    int r = probe_mono(st, lo, hi, pk);
    if (r >= 0 && opt.search & SEARCH_MONO_CHECK) {
        // the claim kept for the caller to check (df-pn searches no further here)
        if (mono.claims.size() < mono.keep) mono.claims.push_back({st, lo, hi, pk, r});
        return -1;
    }
    return r;
}

void Engine::store_mono(const State& st, int lo, int hi, int pk, bool res, uint64_t start) {
    if (lo != 0 || (res && pk > hi)) return;  // outside the claim (subsume.h)
    uint64_t oth[MAX_SEATS - 1];
    Key k = mono_key(cx, st, oth);
    MonoEntry init{};
    auto* slot = mt_.insert(k, init);
    mono_store(slot->data, cx.players, oth, hi, pk, res);
    mt_.set_work(slot, nodes - start);
}

// ------------------------------------------------------------------ child loop
template <class Child>
int Engine::child_loop(const State& st, uint64_t lm, int p, int hint, int& a, int& b, int& bm,
                       Child&& child) {
    bool is_s = p == cx.seat;
    int best = is_s ? -INF : INF;
    bm = -1;
    Moves mv;
    ordered(hist_, lm, p, hint, mv);
    for (int i = 0; i < mv.n; ++i) {
        int idx = mv.idx[i];
        int v = child(apply(cx, st, idx), a, b, idx);
        if (is_s) {
            if (v > best) {
                best = v;
                bm = idx;
                if (v > a) a = v;
            }
        } else if (v < best) {
            best = v;
            bm = idx;
            if (v < b) b = v;
        }
        if (a >= b) break;
    }
    if (bm >= 0) hist_.credit(p, bm, st.left);
    return best;
}

// ------------------------------------------------------------------ paradox regime
int Engine::para(const State& st, int alpha, int beta, const Key* known) {
    count_node(st, PROF_SCORE);
    uint64_t start = nodes;
    int left = st.left;
    if (left == 0) return NOPAR;  // E1
    int seat = cx.seat;
    int s_done = cx.s_done(st);
    int top = left;
    if (s_done && st.wseat != seat) {
        if (left == 1) return NOPAR;  // S has made its last play
        top = left - 1;               // S cannot win this trick any more (W1)
    }
    uint64_t lm = legal_mask(cx, st);
    int p = cx.to_play(st);
    if (!lm) return p == seat ? 0 : NOPAR;  // X1, X3
    bool use_tt = left >= opt.tt_min_left;
    uint32_t live = 0;
    Key key = !use_tt ? Key{} : known ? *known : key_of(st, &live);
    if (use_tt && known && ranked(st)) live = live_numbers(cx, st);
    bool found = false;
    ParaEntry local{NOPAR, NOPAR, -1};
    Table<ParaEntry, 4>::Slot* slot = nullptr;
    if (use_tt) slot = ptt_.insert(key, local, &found);
    uint64_t gen = ptt_.generation();
    ParaEntry* e = use_tt ? &slot->data : &local;
    if (!found) {
        // S never causes a paradox: NOPAR; else it wins at most ub tricks first; when it
        // surely causes one the value is at most 0 (bounds.h)
        Static sb = round_end(cx, st, s_done, top, opt.bounds);
        if (s_safe(cx, st, s_done, sb, opt.bounds)) return NOPAR;
        int cap = opt.bounds & BOUND_PARA_END ? para_cap(sb.ub, top) : sb.ub;
        // (a strategy of S: it loses the current trick, as in win_static)
        if (opt.bounds & BOUND_LOST_TRICK) {
            int lc = opt.bounds & BOUND_LOST_TWO ? lost_cap_j(sb.ub, top, 2) : lost_cap(sb.ub, top);
            if (lc < cap && s_losers(cx, st, s_done, top, sb, lm, opt.bounds, lc) && lc < cap)
                cap = lc;
        } else if (opt.bounds & BOUND_DUCK && top - 2 < cap && s_ducks(cx, st, sb)) {
            cap = top - 2 < 0 ? 0 : top - 2;
        }
        e->lower = (int8_t)-cap;
        if (opt.bounds & BOUND_DOOMED && s_doomed(cx, st, s_done, sb, opt.bounds)) e->upper = 0;
    }
    int lower = e->lower, upper = e->upper, hint = played_hint(e->hint, live);
    if (lower >= beta || lower == upper) return lower;
    if (upper <= alpha) return upper;
    int a = alpha > lower ? alpha : lower;
    int b = beta < upper ? beta : upper;
    // the window as trick goals (SCORE_PARA): para >= x exactly when S can force "no paradox,
    // or its paradox after at most -x more tricks" (x <= 0; above 0 only "no paradox")
    if (opt.score & SCORE_PARA && (st.cnt == 0 || opt.score & SCORE_EVERY) && a < b) {
        auto pk_of = [](int x) { return x <= 0 ? -x : -1; };
        // (no value lies in the gap between 0 and NOPAR: a bound there is NOPAR or 0)
        if (win(st, 0, left, pk_of(b))) {
            int v = b > 0 ? NOPAR : b;
            if (use_tt) {
                slot = ptt_.revisit(slot, gen, key, para_entry(lower, upper));
                if (v > slot->data.lower) slot->data.lower = (int8_t)v;
            }
            return v;
        }
        if (!win(st, 0, left, pk_of(a + 1))) {
            int v = a >= 0 ? 0 : a;
            if (use_tt) {
                slot = ptt_.revisit(slot, gen, key, para_entry(lower, upper));
                if (v < slot->data.upper) slot->data.upper = (int8_t)v;
            }
            return v;
        }
    }
    int a0 = a, b0 = b;
    int t = st.tricks;
    lm = searched(st, lm, p, false);
    // Every child's table bucket fetched first (all its lines), the misses in parallel, and
    // the child given its key. Measured (bench_native.py --only speed: this alpha-beta on
    // both engines; 4p / 5 tricks left seed 901, same nodes, CPU s): none 0.80, the first
    // line of each child's bucket 0.63, with the keys given 0.61, every line 0.60. (Null
    // windows never get here: the trick goals above answer them.)
    // The children's keys by play: ck[idx] where bit idx of `has`.
    Key ck[MAX_CELLS];
    uint64_t has = 0;
    for (uint64_t m = use_tt ? lm : 0; m; m &= m - 1) {
        int idx = lowbit(m);
        State ch = apply(cx, st, idx);
        if (ch.left < opt.tt_min_left) continue;
        ck[idx] = key_of(ch);
        ptt_.prefetch_bucket(ck[idx]);
        has |= 1ULL << idx;
    }
    int bm;
    int best = child_loop(st, lm, p, hint, a, b, bm,
                          [&](const State& ch, int ca, int cb, int idx) {
        const Key* k = has >> idx & 1 ? &ck[idx] : nullptr;
        if (ch.tricks != t) {
            // child values are relative to the child: v maps to v - 1, NOPAR stays; a bound
            // in the gap between 0 and NOPAR is shifted too (the window never becomes empty)
            int v = para(ch, ca < GAP ? ca + 1 : ca, cb < GAP ? cb + 1 : cb, k);
            return v != NOPAR ? v - 1 : v;
        }
        return para(ch, ca, cb, k);
    });
    if (!use_tt) return best;
    slot = ptt_.revisit(slot, gen, key, para_entry(lower, upper));
    e = &slot->data;
    if (bm >= 0) e->hint = (int8_t)stored_hint(bm, live);
    store_bounds(*e, lower, upper, best, a0, b0);
    ptt_.set_work(slot, nodes - start);
    return best;
}

// One MTD(f) window of exact_para (fail-hard when para_pn is on, which MTD(f) accepts).
int Engine::para_probe(const State& st, int a, int b) {
    if (opt.para_pn && opt.score & SCORE_PARA) {
        // the null window as one yes/no goal for solve (the portfolio with df-pn from deep
        // roots): para >= b exactly when S can force "no paradox, or its paradox after at
        // most -b more tricks" (b <= 0), "no paradox" (b > 0; no value lies between 0 and
        // NOPAR)
        if (solve(st, 0, st.left, b <= 0 ? -b : -1)) return b > 0 ? NOPAR : b;
        return b > 0 ? 0 : b - 1;
    }
    return para(st, a, b);
}

int Engine::exact_para(const State& st, int guess) {
    return mtdf(guess, [&](int a, int b) { return para_probe(st, a, b); });
}

// ------------------------------------------------------------------ score
bool Engine::bonus_possible(int t, int left) const {
    if (cx.players == 2) return t <= cx.rules.two_player_bonus_max;  // Sc2 at 2 players
    int pred = cx.prediction;
    return pred >= 0 && t <= pred && pred <= t + left;
}

// The least final count lo such that (hull = false) every count k >= lo scores at least
// `target` with a group of g when S earns the bonus (Sc1-Sc3), or (hull = true) such that no
// count below lo can score `target` with a group of at most g.
int Engine::score_floor(int target, int g, bool hull) const {
    auto scores = [&](int k) {
        bool eligible = cx.players == 2 ? k <= cx.rules.two_player_bonus_max : k == cx.prediction;
        return k + (eligible ? g : 0) >= target;
    };
    int lo = target;
    if (hull) {
        for (int k = 0; k < target; ++k)
            if (scores(k)) return k;
        return target;
    }
    while (lo > 0 && scores(lo - 1)) --lo;
    return lo;
}

int Engine::terminal_score(const State& st, bool paradox_by_s) const {
    int t = st.tricks;
    if (paradox_by_s) return -t;
    bool eligible = cx.players == 2 ? t <= cx.rules.two_player_bonus_max : (cx.prediction >= 0 && t == cx.prediction);
    return t + (eligible ? largest_group(cx, st.mine) : 0);
}

int Engine::value(const State& st, int alpha, int beta) {
    count_node(st, PROF_SCORE);
    uint64_t start = nodes;
    int left = st.left;
    if (left == 0) return terminal_score(st, false);
    int seat = cx.seat;
    int s_played = cx.s_done(st);
    if (left == 1 && s_played && st.wseat != seat) return terminal_score(st, false);
    uint64_t lm = legal_mask(cx, st);
    int p = cx.to_play(st);
    if (!lm) return terminal_score(st, p == seat);
    int t = st.tricks;
    // S wins at most `more` more tricks and makes at most `plays` more plays in every
    // continuation; `lb`: a proven lower bound of the score
    int more = left, plays = left - s_played, lb = -INF;
    if (opt.score & (SCORE_CAP | SCORE_SAFE) && (st.cnt == 0 || opt.score & SCORE_EVERY)) {
        int top = left - (s_played && st.wseat != seat ? 1 : 0);
        Static sb = round_end(cx, st, s_played, top, opt.bounds);
        if (opt.score & SCORE_CAP) {
            more = sb.ub;
            if (sb.most[seat] < plays) plays = sb.most[seat];
            // every end is a paradox of S with at most `more` tricks or scores >= t (Sc1)
            lb = -(t + more);
        }
        // S never causes a paradox: every end scores at least t (Sc1; Sc2 never subtracts)
        if (opt.score & SCORE_SAFE && s_safe(cx, st, s_played, sb, opt.bounds)) lb = t;
    }
    bool bonus = bonus_possible(t, more);
    int ub = t + more, gmax = 0;
    if (bonus) {
        int cap2 = cx.rules.two_player_bonus_max;
        int top = cx.players == 2 ? (t + more < cap2 ? t + more : cap2) : cx.prediction;
        gmax = opt.score & SCORE_HELD ? group_bound_held(cx, st, plays)
                                      : group_bound(cx, st, plays);
        if (top + gmax > ub) ub = top + gmax;
    }
    if (ub <= alpha) return ub;
    if (lb >= beta) return lb;
    Key key = exact_key(st, bonus);
    key.w[3] |= (uint64_t)(t + 1) << 27;
    if (!bonus) key.w[4] = ~0ULL;
    auto* slot = vtt_.insert(key, BoundEntry{lb, ub, -1});
    uint64_t gen = vtt_.generation();
    BoundEntry* e = &slot->data;
    int lower = e->lower, upper = e->upper;
    if (lower >= beta) return lower;
    if (upper <= alpha) return upper;
    if (lower == upper) return lower;
    int a = alpha > lower ? alpha : lower;
    int b = beta < upper ? beta : upper;
    // Oracle bounds from the AND-OR table: if S can always avoid a paradox its score is at
    // least t (Sc1, Sc2 never subtract), otherwise it is -(t + j) for para's j (Sc1).
    // (win and para use other tables: e stays valid.)
    if (b <= t || a >= -t) {
        if (win(st, 0, left)) {
            if (t >= b) {
                if (t > e->lower) e->lower = t;
                return t;
            }
            if (t > a) {
                a = t;
                if (t > e->lower) e->lower = t;
            }
        } else {
            int v = para(st, a + t, b + t) - t;
            if (v <= a) {
                if (v < e->upper) e->upper = v;
            } else if (v >= b) {
                if (v > e->lower) e->lower = v;
            } else {
                e->lower = e->upper = v;
            }
            return v;
        }
    }
    // above t + more every continuation must earn the bonus: S must force its trick window.
    // If it can, it scores at least the window's least count plus its largest group now
    // (tokens stay, I4): asked too when that would cut this window (SCORE_GROUP)
    int sure = cx.players == 2 ? t : bonus_lo_;
    int held = bonus && opt.score & SCORE_GROUP ? sure + largest_group(cx, st.mine) : -INF;
    if (bonus && (b > t + more || held >= b)) {
        if (!win(st, bonus_lo_ - t, bonus_hi_ - t)) {
            int cap = t + more;
            if (cap < e->upper) e->upper = cap;
            if (cap <= a) return cap;
            if (cap < b) b = cap;
        } else if (held > e->lower) {
            e->lower = held;
            if (held >= b) return held;
            if (held > a) a = held;
        }
    }
    // the score window as trick goals (SCORE_TRICKS): S surely scores >= b if it can force
    // (without a paradox) a final count from which every count scores >= b with its group
    // now; it scores < a + 1 if it cannot force any count that could score >= a + 1 with
    // the largest group it can still reach (a paradox of S scores <= 0 < a + 1)
    if (opt.score & SCORE_TRICKS && (st.cnt == 0 || opt.score & SCORE_EVERY) && a < b) {
        int gnow = bonus ? largest_group(cx, st.mine) : 0;
        if (b > e->lower && win(st, score_floor(b, gnow, false) - t, left)) {
            e->lower = b;
            return b;
        }
        if (a + 1 > 0 && a < e->upper && !win(st, score_floor(a + 1, bonus ? gmax : 0, true) - t, left)) {
            e->upper = a;
            return a;
        }
    }
    lower = e->lower;
    upper = e->upper;
    int hint = e->hint;
    int a0 = a, b0 = b;
    lm = searched(st, lm, p, bonus);
    int bm;
    int best = child_loop(st, lm, p, hint, a, b, bm,
                          [&](const State& ch, int ca, int cb, int) { return value(ch, ca, cb); });
    slot = vtt_.revisit(slot, gen, key, BoundEntry{lower, upper, -1});
    e = &slot->data;
    if (bm >= 0) e->hint = (int8_t)bm;
    store_bounds(*e, lower, upper, best, a0, b0);
    vtt_.set_work(slot, nodes - start);
    return best;
}

int Engine::exact_value(const State& st, int guess) {
    return mtdf(guess, [&](int a, int b) { return value(st, a, b); });
}

// ------------------------------------------------------------------ possible
bool Engine::avoid_possible(const State& root) {
    std::unordered_set<Key, KeyHash> seen;
    auto rec = [&](auto&& self, const State& s) -> bool {
        count_node(s, PROF_SCORE);
        if (s.left == 0) return true;
        uint64_t lm = legal_mask(cx, s);
        int p = cx.to_play(s);
        if (!lm) return p != cx.seat;
        if (!seen.insert(key_of(s)).second) return false;
        if (opt.symmetry) lm = symmetric(cx, s, lm, false);
        if (s.cnt) lm = merge(cx, s, lm, p);
        for (uint64_t m = lm; m; m &= m - 1)
            if (self(self, apply(cx, s, lowbit(m)))) return true;
        return false;
    };
    return rec(rec, root);
}

// ------------------------------------------------------------------ proof size
// A measurement, not an answer: the proof of a yes of win that the tables hold after the
// search, as small as they show it. At S's nodes the first searched play (in cell order) whose
// goal the static bounds or the win table prove (else the first one win proves: a search); at
// the other seats' nodes every searched play. Any search over these states and static bounds
// visits every node of some proof, so the walk's size is what a perfect move order with no
// table misses would still search, had it chosen the walk's S plays.
bool Engine::proof_size(const State& root, int lo0, int hi0, int pk0, ProofSize& out,
                        ProofCensus* census) {
    std::unordered_set<Key, KeyHash> seen;  // (state, goal): goal_key
    // SEARCH_MONO: the yes of every walked node (lo = 0, pk <= hi) in a table of its own,
    // and a node such a yes answers by inclusion (subsume.h) a leaf: its proof is walked
    std::unique_ptr<Table<MonoEntry, 2>> walked;
    if (opt.search & SEARCH_MONO) walked.reset(new Table<MonoEntry, 2>(&process_budget()));
    auto walk = [&](auto&& self, const State& st, int lo, int hi, int pk) -> bool {
        uint64_t lm = 0;
        int r = win_static(st, lo, hi, pk, lm);
        if (r >= 0) {
            ++out.leaves;
            return r == 1;
        }
        if (st.left >= opt.tt_min_left && !seen.insert(goal_key(key_of(st), lo, hi, pk)).second)
            return true;  // walked below already (a no there ended the walk)
        uint64_t oth[MAX_SEATS - 1];
        Key mk{};
        bool sub = walked && st.left >= opt.tt_min_left && lo == 0 && mono_on(st);
        if (sub) {
            mk = mono_key(cx, st, oth);
            const MonoEntry* e = walked->find(mk);
            if (e && mono_probe(*e, cx.players - 1, oth, lo, hi, pk) == 1) {
                ++out.subsumed;
                return true;
            }
        }
        auto proven = [&] {  // this node's yes for the nodes walked after it
            if (sub && pk <= hi) {
                MonoEntry init{};
                mono_store(walked->insert(mk, init)->data, cx.players, oth, hi, pk, true);
            }
            return true;
        };
        ++out.inner;
        ++out.by_left[st.left];
        if (census) census->add(CensusNode{st, lo, hi, pk});
        int p = cx.to_play(st);
        lm = searched(st, lm, p, false);
        int t = st.tricks;
        auto child = [&](int idx, int& l, int& h, int& k) {
            State ch = apply(cx, st, idx);
            int d = ch.tricks - t;
            l = lo - d;
            h = hi - d;
            k = pk - d;
            return ch;
        };
        if (p != cx.seat) {
            for (uint64_t m = lm; m; m &= m - 1) {
                int l, h, k;
                State ch = child(lowbit(m), l, h, k);
                if (!self(self, ch, l, h, k)) return false;
            }
            return proven();
        }
        int pick = -1;
        for (uint64_t m = lm; m && pick < 0; m &= m - 1) {
            int l, h, k, hint;
            State ch = child(lowbit(m), l, h, k);
            uint64_t clm = 0;
            int cr = win_static(ch, l, h, k, clm);
            if (cr == 1 || (cr < 0 && ch.left >= opt.tt_min_left &&
                            probe_fact(ch, key_of(ch), l, h, k, hint) == 1))
                pick = lowbit(m);
        }
        for (uint64_t m = lm; m && pick < 0; m &= m - 1) {
            int l, h, k;
            State ch = child(lowbit(m), l, h, k);
            if (win(ch, l, h, k)) pick = lowbit(m);
        }
        if (pick < 0) return false;
        int l, h, k;
        State ch = child(pick, l, h, k);
        return self(self, ch, l, h, k) && proven();
    };
    bool r = walk(walk, root, lo0, hi0, pk0);
    mono.walk_subsumed = out.subsumed;
    return r;
}

}  // namespace catbox
