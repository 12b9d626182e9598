// catbox native search core: the search drivers for one asking seat S (double dummy; the other
// seats act together against S). Mirrors solver/search/engine.py method by method:
// win (AND-OR over trick intervals), para (the score's paradox regime), value (the score),
// MTD(f) drivers, avoid_possible; one node/time budget.
#pragma once
#include <chrono>
#include <cstdint>

#include "bounds.h"
#include "core.h"
#include "order.h"
#include "table.h"

namespace catbox {

constexpr int INF = 1 << 20;
constexpr int NOPAR = 64;  // para(): the continuation ends without S causing a paradox
constexpr int GAP = NOPAR / 2;
constexpr int MAX_FACTS = 6;

struct BudgetExceeded {
    const char* what;
};

struct Fact {
    int8_t lo, hi, pk, res;
};

struct WinEntry {  // AND-OR facts of one canonical state
    Fact facts[MAX_FACTS];
    int8_t nfacts;
    int8_t hint;
};

struct BoundEntry {  // fail-soft bounds of para or value
    int32_t lower, upper;
    int8_t hint;
};

// Algorithm switches (for measuring each; the defaults are the measured best).
struct Options {
    bool symmetry = true;  // merge plays that mirror each other under B/Y/G symmetry
    int tt_min_left = 2;   // nodes with fewer tricks left bypass the tables (cheaper than a miss)
    bool prefetch = false;  // win: prefetch the next sibling's table bucket
    bool canonical = false;  // table keys canonical under B/Y/G symmetry (measured: no gain)
    // static bounds at the top of win / para (bounds.h BOUND_*; 0 = never_stuck only).
    // Measured (nodes, win(0, left) on 40 fixed positions 3p 5-7 / 4p 4-6 / 5p 4-5 left, seeds
    // 700-704, 10 M cap): none 203 M (25 solved), SAFE 92 M (35), SAFE+DOOMED 82 M (35); the
    // trick answers 217 M (21) -> 147 M (29), STOPPERS -1.4 %
    int bounds = BOUND_SAFE | BOUND_DOOMED | BOUND_TRICKS | BOUND_STOPPERS;
};

class Engine {
  public:
    Options opt;
    Engine(int players, int seat, int n, int prediction, const uint64_t* adjacency,
           size_t cap_bytes);

    bool win(const State& st, int lo, int hi, int pk = -1);
    int para(const State& st, int alpha, int beta);
    int value(const State& st, int alpha, int beta);
    int exact_para(const State& st, int guess);
    int exact_value(const State& st, int guess);
    bool avoid_possible(const State& st);

    void set_budget(int64_t node_limit, double time_limit);
    void clear();
    size_t size() const { return tt_.size() + ptt_.size() + vtt_.size(); }
    size_t bytes() const { return tt_.bytes() + ptt_.bytes() + vtt_.bytes(); }

    Ctx cx;
    uint64_t nodes = 0;

  private:
    void count_node() {
        if (++nodes >= next_check_) tick();
    }
    void tick();
    void store_win(const Key& key, int lo, int hi, int pk, bool res, int best, uint64_t start);
    int terminal_score(const State& st, bool paradox_by_s) const;
    bool bonus_possible(int t, int left) const;

    // The fail-soft child loop shared by para and value: the best child value for the seat
    // to play (S maximises), narrowing (a, b); stops at a cutoff.
    template <class Child>
    int child_loop(const State& st, uint64_t lm, int p, int hint, int& a, int& b, int& bm,
                   Child&& child);

    Table<WinEntry> tt_;
    Table<BoundEntry> ptt_;
    Table<BoundEntry> vtt_;
    History hist_;
    uint64_t next_check_;
    uint64_t node_limit_;
    bool has_deadline_ = false;
    std::chrono::steady_clock::time_point deadline_;
    int bonus_lo_, bonus_hi_;
};

// MTD(f): null-window probes from `guess` that converge on the exact value.
template <class Probe>
int mtdf(int guess, Probe&& probe) {
    int g = guess, lower = -INF, upper = INF;
    while (lower < upper) {
        int beta = g == lower ? g + 1 : g;
        g = probe(beta - 1, beta);
        if (g < beta)
            upper = g;
        else
            lower = g;
    }
    return g;
}

// Fail-soft bounds after a search of the window (a0, b0) returned best.
inline void store_bounds(BoundEntry& e, int lower, int upper, int best, int a0, int b0) {
    if (best <= a0)
        e.upper = upper < best ? upper : best;
    else if (best >= b0)
        e.lower = lower > best ? lower : best;
    else
        e.lower = e.upper = best;
}

}  // namespace catbox
