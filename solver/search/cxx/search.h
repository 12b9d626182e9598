// catbox native search core: the search drivers for one asking seat S (double dummy; the other
// seats act together against S). Mirrors solver/search/engine.py method by method:
// win (AND-OR over trick intervals), para (the score's paradox regime), value (the score),
// MTD(f) drivers, avoid_possible; one node/time budget. The proof-number search for win's
// goals (win_pn, and solve, the portfolio the API asks) is in pn.cpp; it has no Python twin
// and is checked against win.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "bounds.h"
#include "core.h"
#include "order.h"
#include "partition.h"
#include "ptable.h"
#include "subsume.h"
#include "table.h"

namespace catbox {

constexpr int INF = 1 << 20;
constexpr int NOPAR = 64;  // para(): the continuation ends without S causing a paradox
constexpr int GAP = NOPAR / 2;
constexpr int MAX_FACTS = 6;

struct BudgetExceeded {
    const char* what;
};

struct ProbeOver {};  // solve's alpha-beta probe ran out of its nodes (caught by solve)

struct Fact {
    int8_t lo, hi, pk, res;
};

// Where an engine's nodes went, by tricks left and by whether S is to play: nodes of the
// alpha-beta trick search (win), of df-pn (children evaluated, nodes expanded), of the score
// searches (para, value, avoid_possible), and the win goals answered by the static bounds
// (yes / no, counted beside the node that asked). One increment per node; reset by clear().
enum { PROF_WIN, PROF_PN_EVAL, PROF_PN_MID, PROF_SCORE, PROF_YES, PROF_NO, PROF_KINDS };
struct Profile {
    uint64_t n[MAX_NUMBER + 1][2][PROF_KINDS] = {};  // tricks left <= 8 < MAX_NUMBER + 1
};

// The size of a proof win's tables hold (Engine::proof_size, a measurement): its inner nodes,
// each (state, goal) once however many lines reach it, by tricks left, and its leaves (goals
// the static bounds answer), counted once per inner node above them.
struct ProofSize {
    uint64_t inner = 0, leaves = 0;
    uint64_t subsumed = 0;  // SEARCH_MONO: nodes a walked node's yes answers (subsume.h)
    uint64_t by_left[MAX_NUMBER + 1] = {};
};

// A census of a proof (Engine::proof_size with one, a measurement): a uniform sample of its
// inner (state, goal) nodes, at most per_level of them for each count of tricks left
// (reservoir sampling with a fixed seed, so the same proof gives the same sample).
struct CensusNode {
    State st;
    int lo, hi, pk;  // the goal as win_static normalised it
};
struct ProofCensus {
    size_t per_level = 0;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    uint64_t seen[MAX_NUMBER + 1] = {};
    std::vector<CensusNode> keep[MAX_NUMBER + 1];
    void add(const CensusNode& c) {
        int l = c.st.left;
        uint64_t k = seen[l]++;
        if (keep[l].size() < per_level) {
            keep[l].push_back(c);
            return;
        }
        rng ^= rng << 13;  // xorshift64
        rng ^= rng >> 7;
        rng ^= rng << 17;
        uint64_t r = rng % (k + 1);
        if (r < per_level) keep[l][r] = c;
    }
};

struct WinEntry {  // AND-OR facts of one canonical state
    Fact facts[MAX_FACTS];
    int8_t nfacts;
    int8_t hint;
};

struct BoundEntry {  // fail-soft bounds of value
    int32_t lower, upper;
    int8_t hint;
};

// fail-soft bounds of para: its values lie in -8..NOPAR (a paradox after at most 8 more
// tricks of S, E1) and fit a byte, so that a para slot is 32 bytes (table.h)
struct ParaEntry {
    int8_t lower, upper;
    int8_t hint;
};
inline ParaEntry para_entry(int lower, int upper) { return {(int8_t)lower, (int8_t)upper, -1}; }

// Score bounds (Options::score), one bit each so each can be measured alone.
constexpr int SCORE_CAP = 1;    // value: S's trick cap (round_end) bounds the score and the bonus
constexpr int SCORE_SAFE = 2;   // value: S surely avoids its paradox -> the score is >= t
constexpr int SCORE_GROUP = 4;  // value: S forces its bonus window -> score >= bonus + group now
constexpr int SCORE_EVERY = 8;  // the score bounds at every node, not only at trick starts
constexpr int SCORE_HELD = 16;  // value: S's group bound counts its plays per number held
constexpr int SCORE_TRICKS = 32;  // value: the score window answered by two trick goals (win)
constexpr int SCORE_PARA = 64;    // para: the window answered by two trick goals with a paradox part
// Measured (nodes of the score question of every analyze row, fresh tables per row, 40 M cap;
// bench/bench_native.py --only score): 3p/5, 4p/5, 5p/4 (7 positions, 135 rows): off
// para 90.5 M + value 250 M (4 rows unknown), 692 s; TRICKS | PARA: 86.1 M + 1.5 M, all
// proven, 305 s. CAP +2.6 %, SAFE -0.3 %, GROUP +107 % value nodes alone (its extra trick
// goals); EVERY (para) -5 to -8 % para nodes.
constexpr int SCORE_DEFAULT = SCORE_TRICKS | SCORE_PARA | SCORE_EVERY;

// Search switches (Options::search), one bit each so each can be measured alone.
constexpr int SEARCH_NORM = 1;   // normalised table keys (table.h core_key `norm`)
constexpr int SEARCH_EQUIV = 2;  // equivalent numbers searched once (order.h equivalent)
constexpr int SEARCH_PN_NORM = 4;  // normalised keys in the proof-number table too
// rank-normalised keys (ptable.h rank_key; with SEARCH_NORM) in the win, para and pn tables,
// at trick starts only unless SEARCH_RANK_EVERY. Measured (bench/bench_native.py --only core,
// every analyze answer of 3p/6, 4p/5, 5p/4 seeds 700-702 on one engine): normalised keys
// 134.9 M nodes, 45.8 s CPU; RANK 134.7 M, 46.0 s; RANK | RANK_EVERY 133.4 M (-1 %), 50.3 s
// (+10 %); 12 more positions (seeds 703-708 / 703-705): 321.9 M -> 318.6 M at trick starts.
// Lines rarely meet states that differ only in which numbers are dead. Off.
constexpr int SEARCH_RANK = 8;
constexpr int SEARCH_RANK_EVERY = 16;
// partition search (partition.h, proof in the comment): win's table (pt_, shared with df-pn)
// keyed at trick starts (at every node with SEARCH_PART_EVERY) by the normalised state with its
// columns sorted, each fact valid for every renaming of the numbers that keeps the order of the
// pairs its search compared (W1). Measured (bench/bench_native.py --only partition, every
// analyze answer of 3p/6, 4p/5, 5p/4 seeds 700-702, one engine per position, same run): keys
// 29.60 M nodes, 9.8 s CPU; PART 29.15 M, 11.2 s; PART | PART_EVERY 28.37 M (-4 %), 13.6 s
// (+38 %). By alpha-beta alone (df-pn off): 43.57 M, 12.2 s; 42.27 M, 13.1 s; 39.98 M (-8 %),
// 14.8 s (+21 %). Held out (seeds 703-705): 138.15 M, 42.9 s; 138.35 M, 48.3 s; 136.88 M,
// 54.8 s. 4p round start seeds 800-802: 0.5 / 21.0 / 4.7 M, 0.2 / 10.8 / 2.2 s ->
// PART 0.5 / 18.7 / 5.4 M, 0.3 / 13.2 / 3.6 s. With every fact matching every renaming
// (unsound, the ceiling of this partition) 3p/6 seed 700 1.47 -> 0.72 M, 4p/5 700 19.1 ->
// 15.5 M, 5p/4 700 5.8 -> 4.9 M; the order-comparing bounds' "every pair" costs nothing
// measurable: W1's pairs decide. Each node costs +30-40 % (the sorted key, entries of 120
// bytes instead of 64). Off.
constexpr int SEARCH_PART = 32;
constexpr int SEARCH_PART_EVERY = 64;
// monotone subsumption (subsume.h, proof in the comment): win's facts with lo = 0 also in a
// table keyed on S's part of the state, matched by inclusion of the other seats' resources
// (red broken only); NOGUARD drops the red-broken test (an unsound mutant, for the tests);
// CHECK fills the table and counts what it would answer without using it (MonoStats).
// Measured (bench/bench_native.py --only subsume, the deciding probes of the nine fixed
// probes, fresh engine, CPU s of a loaded machine): off 32.05 M nodes, 5.29 s, proofs of
// 3.31 M inner nodes; on 30.59 M, 6.84 s, 2.84 M; 3p/8 seed 700 row 0: 135.7 M, 27.2 s,
// 20.10 M -> 132.2 M, 36.1 s, 13.22 M (docs/performance-log-proofs.md). It answers 1-5 % of the goals it is asked at 3-7
// tricks left (10-15 % at 2), never wrongly; each ask is a miss in one more table (df-pn asks
// for every new child). Smaller proofs, no fewer CPU seconds: off
constexpr int SEARCH_MONO = 128;
constexpr int SEARCH_MONO_NOGUARD = 256;
constexpr int SEARCH_MONO_CHECK = 512;
// simulation (after Kawano): at S's nodes without a table hint, the play that last proved an
// S node with as many tricks left and plays made in the trick (a sibling's, as a rule) is
// tried first (win's alpha-beta and df-pn's new nodes); move order only, answers unchanged.
// Measured (as SEARCH_MONO): the nine probes 32.05 M nodes, 5.29 s -> 30.88 M, 5.16 s (-4 %
// nodes, 3p/7 seeds 701 and 702 +3 % and +8 %); 3p/8 seed 700 row 0 135.7 M, 27.2 s ->
// 146.8 M, 31.2 s (+8 %). The tables' hints and the history already order S's plays: off
constexpr int SEARCH_SIM = 1024;
constexpr int SEARCH_DEFAULT = SEARCH_NORM | SEARCH_PN_NORM;  // measured: native.py SEARCH

// Algorithm switches (for measuring each; the defaults are the measured best).
struct Options {
    bool symmetry = true;  // merge plays that mirror each other under B/Y/G symmetry
    int tt_min_left = 2;   // nodes with fewer tricks left bypass the tables (cheaper than a miss)
    // win: the table key first, its bucket fetched during win_static. (Until table.h
    // prefetch_line every table prefetch was deleted by g++; with it, the 3p/7 seed 700 row 0
    // j = 2 probe, 0.8 M of its 24.5 M nodes win's, side by side: on 11.76 / 11.86 s, off
    // 11.91 / 11.93 s CPU, same nodes. On for the API since the measures of native.py
    // PREFETCH, alpha-beta-heavy questions among them.)
    bool prefetch = true;
    bool canonical = false;  // table keys canonical under B/Y/G symmetry (measured: no gain)
    // proof-number search (pn.cpp) for yes/no goals from roots with at least this many tricks
    // left (0: never); below pn_leaf tricks left its nodes are solved by win (alpha-beta)
    int pn_min_left = 0;
    int pn_leaf = 3;
    bool pn_mobility = true;  // new nodes start from their move counts (else 1 and 1)
    // the 1+epsilon threshold of Pawlewicz & Lew. Measured (can_force(avoid-paradox) from the
    // round start, 4p seeds 800-806 but 804, CPU s): eps 2: 800-802 12 / 26 / 40 s (25.8 /
    // 57.2 / 77.6 M nodes), 803, 805, 806 unknown after 30 s; eps 4: 9 / 22 / 23, 29 / 8 / 23 s
    // (22.5 / 48.1 / 44.0, 60.8 / 21.0 / 51.4 M); 3: 64.8 M at 802; 6 and 8: unknown at 800
    // after 80 M. 3p: +0.2 M nodes on 3 seeds (all < 1 s); 48 yes/no roots (bench part pn, 20 M-node
    // cap): 42 answered either way, 26.5 -> 21.9 M nodes on those
    double pn_eps = 4.0;
    bool pn_slack = true;     // a new node's disproof number grows with S's slack
    bool pn_weak = false;     // weak proof numbers: max + (open children - 1), not the sum
    // children's numbers guessed (pn_guess) and evaluated only when one first becomes the
    // most proving child. Measured (as pn_eps): eps 4: 6 / 25 / 22, 15 / 19 / 23 s (111 s in
    // all against 115 s without; 7.9 vs 22.5 M evaluated nodes at seed 800); eps 2: 7 / 11 /
    // 32, 30 / 43 / 32 s. No gain at the default eps: off
    bool pn_lazy = false;
    // a new node of another seat starts with the disproof number ceil(|F_S| / pn_other), F_S
    // S's open cells (empty, of a number it holds, in a colour it holds), instead of 1 (0:
    // off). Such a node's disproof number is its least child's, and below it every line
    // reaches S's next node, whose disproof number starts from S's move count: started at 1,
    // every expansion of such a node raised its number several-fold past its threshold, so
    // df-pn expanded every sibling before it went deeper (4p round start, seed 800: 1.26 M of
    // 2.1 M expansions were third-seat nodes of the second trick, whose 14.6 M children were
    // evaluated and 190 of them ever expanded). Measured (can_force(avoid-paradox) from the
    // round start, nodes, 60 M cap): 4p seeds 800-806, off 24.4 / 50.9 / 47.8 / >60 / >60 /
    // 27.4 / 45.4 M, 3: 15.1 / 39.4 / 35.8 / 57.0 / 2.7 / 14.2 / 25.1 M (2: 11.8 / 28.5 /
    // 25.5 / >60 / 5.2 / 19.9 / >60; 1, 4, 6 worse); held out, seeds 807-812: off 1 of 6
    // answered within 60 M, 3: 3 of 6; 5p seed 801 >60 -> 14.2 M; 3p seeds 800-805 8.6 ->
    // 12.1 M (all < 5 s): on from 4 players (solver/search/native.py PN_OTHER)
    int pn_other = 0;
    // from roots (win_pn) with at least this many tricks left (0: never), the other seats'
    // plays at df-pn's nodes are ordered by a history of the plays that refuted S (disproved a
    // node of another seat) counted per tricks left (Engine::hist_left_), not by the history
    // shared with win (credited depth^2, so the decisions high in the tree order the plays of
    // the last tricks too, where most expansions are). S's plays keep the shared history (both
    // per tricks left: worse). Measured (can_force(avoid-paradox) from the round start, nodes,
    // 60 M cap, same run): 4p seeds 800-806 9.8 / 56.1 / 29.7 / 53.6 / 4.6 / 7.4 / 24.3 M ->
    // 0.5 / 21.1 / 4.7 / 43.8 / 4.2 / 18.4 / 4.4 M (185.5 -> 97.1 M, median 24.3 -> 4.7 M);
    // held out, 807-812: 809 25.7 -> 1.9 M, 811 55.6 -> 20.6 M, 812 2.1 -> 3.2 M, 807 / 808 /
    // 810 unknown both; 5p 800 > 60 -> 33.6 M, 801 10.4 -> 26.6 M; 3p 800-805 7.6 -> 15.0 M (all
    // < 5 s). Every analyze answer (one engine per position, df-pn from 4-5 tricks left), 4p/5
    // and 5p/4 seeds 700-701: 82.5 -> 102.1 M (5p/4 700 +61 %), 3p/6 equal. So on from 7 tricks
    // left at 4-5 players (the Engine constructor), off at 2-3 players and below 7
    int pn_refuters = 0;
    // exact_para asks each MTD(f) window as one yes/no goal of solve (df-pn from deep roots,
    // opt.pn_min_left) instead of para's alpha-beta (with SCORE_PARA). Measured (the score of
    // every analyze row in the paradox regime, fresh engine per row, 40 M cap, with bounds
    // PARA_END and DUCK): 3p/6, 4p/5, 5p/4 seeds 700-702 31.2 M nodes, 8.7 s CPU -> 18.4 M,
    // 6.0 s; every analyze answer of those positions on one engine 56.9 M, 17.6 s -> 51.8 M,
    // 16.6 s; 4p/6 seed 700 row 0, the probes j = 0..3 on fresh engines: alpha-beta 5.4 /
    // 18.1 / 15.0 / 1.3 M, solve 0.9 / 1.0 / 8.1 / 0.1 M. (Before the two bounds df-pn was
    // measured 4-5x slower at 3p 5-6 tricks left: native.py exact_para.) On
    int para_pn = 1;
    int64_t pn_probe = 100000;  // solve: alpha-beta first, for this many nodes, then df-pn
    // solve divides the move-ordering histories by 2^hist_age before each question (0 = never):
    // the credit of earlier questions, on other rows and goals, weighs less. The history's luck
    // moves the questions past the horizon 2-10x either way (docs/performance-log.md "One engine for every
    // row"); clearing it per question measured worse. Every analyze answer of 14 positions
    // (3p/7, 4p/6 and 5p/5 past the horizon, 3p/6, 4p/5, 5p/4 on it; one thread, a fresh
    // session each), M nodes: off 1164.6, halved (1) 1054.3, quartered (2) 1182.9; 5p/5 seed
    // 700 333.6 -> 220.4 (1) / 115.5 (2), 4p/6 seed 700 102.9 -> 120.3 / 152.7, seed 701 271.0
    // -> 270.8 / 431.4; divided by 8 (3) seed 701 546.0 (bench/bench_native.py --only age).
    // Held out (3p/7 703-704, 4p/6 703-704, 5p/5 703-704; 150 M-node cap): 202.8 -> 210.5 s
    // CPU halved, 4p/6 worse on 4 of 5 positions (703 +18 %); the gain was one 5p/5 position.
    // Off
    int hist_age = 0;
    // static bounds at the top of win / para (bounds.h BOUND_*; 0 = never_stuck only).
    // Measured (nodes, win(0, left) on 40 fixed positions 3p 5-7 / 4p 4-6 / 5p 4-5 left, seeds
    // 700-704, 10 M cap): none 203 M (25 solved), SAFE 92 M (35), SAFE+DOOMED 82 M (35); the
    // trick answers 217 M (21) -> 147 M (29), STOPPERS -1.4 %. PARA_END (bounds.h para_cap, the
    // paradox part's cap): the score of every analyze row in the paradox regime (exact_para,
    // fresh engine per row, 40 M cap), 3p/6, 4p/5, 5p/4 seeds 700-702: 156.1 M nodes, 43.6 s
    // CPU -> 67.7 M, 20.6 s, answers equal. DUCK (bounds.h s_ducks, S loses the current trick
    // by a play it surely has: its paradox after at most top - 2 tricks), same rows but 4p/5
    // seeds 700 and 702 (no para rows): 67.7 M, 18.0 s -> 31.2 M, 8.1 s, answers equal.
    // SAFE_DUCK (bounds.h s_safe_ducks: S loses the current trick by a play its safe strategy
    // allows, so "no paradox and at most ub - 1 more tricks" holds): every trick goal of the
    // seat to play's rows, fresh engine per goal, 30 M cap, 5p/5 seed 700: 145.2 M, 50.5 s ->
    // 97.7 M, 34.6 s (win(0, 2) of rows 2-4 21.1 / 23.8 / 7.9 M -> 2.2 / 3.3 / 0.3 M); 4p/6
    // seed 701: 139.7 M, 71.4 s -> 117.3 M, 61.1 s (two cut goals answered, one 8.8 -> 23.5 M)
    // BEATEN (bounds.h s_beaten: S, to play, has a play its safe strategy allows that a later
    // seat surely beats), same goals with SAFE_DUCK on, 60 M cap: 5p/5 seed 700 win(0, 2) of
    // rows 2 / 3 / 4 2.2 / 3.3 / 0.3 M -> 2.1 / 1.1 / 0.4 M, win(0, 3) rows 2 / 4 35.2 / 40.7 M
    // -> 31.5 / 1.0 M; 4p/6 seed 701 row 4 win(0, 4) 12.7 -> 10.0 M, row 5 win(0, 2) 23.5 ->
    // 3.0 M
    // LOST_TRICK (bounds.h s_loses_trick, lost_cap: when S surely loses the current trick,
    // by a play it surely has or by one of its own that a later seat surely beats, its
    // paradox comes after at most min(top - 2, ub - 1) more tricks and it wins at most
    // ub - 1; the duck's cap was top - 2). Every analyze answer, one engine per position
    // (bench/bench_native.py --only lost), 3p/7 seeds 700-702, 5p/5 702, 4p/6 700-701:
    // 814.2 M nodes, 449.0 s CPU -> 787.5 M, 428.5 s, answers equal; 5p/5 seed 700 418.7 ->
    // 331.3 M (docs/performance-log.md "The paradox part when S loses the current trick")
    // CROWD (bounds.h crowded_trick, asked only when S is short by its own count): every
    // analyze answer of 8 positions past the horizon 1248.1 -> 1122.7 M nodes (4p/6 seed 701
    // 385.7 -> 271.0 M), held out (6 positions) 501.1 -> 507.1 M, the 4p/5p round start
    // 76.8 -> 79.4 s CPU (docs/performance-log.md "The crowded doom bound, where it pays")
    // LOST_TWO (bounds.h s_losers: any losing play of a waiting S, the next trick's loser
    // after a lost one; caps min(top - 3, ub - 2) for two): the deciding probe of the first
    // paradox-regime row, fresh engine (bench/bench_native.py --only losers; CPU seconds of a
    // loaded machine), 3p/7, 4p/6, 5p/5 seeds 700-702: 134.80 M nodes, 21.99 s, proofs of
    // 10.96 M inner nodes -> 39.07 M, 6.19 s, 3.31 M. Its parts LOST_PLAYS (S's chosen loser
    // with the next trick's: 41.87 M, 6.50 s, 3.13 M) and LOST_OVERTAKEN (S's winning play
    // surely overtaken: 39.23 M, 6.51 s, 3.27 M) are off (docs/performance-log-proofs.md)
    // SAFE_TWO (bounds.h s_safe_losers: the sure losers by a strategy that also keeps S safe,
    // for "at most k" goals) is off: every row's "at most b" yes of positions whose rows avoid
    // the paradox 45.46 -> 38.42 M nodes, 8.00 -> 7.52 s, proofs 1.10x smaller, but analyze
    // asks those goals only where they are cheap (docs/performance-log-proofs.md section 9)
    int bounds = BOUND_SAFE | BOUND_DOOMED | BOUND_TRICKS | BOUND_STOPPERS | BOUND_CROWD |
                 BOUND_PARA_END | BOUND_DUCK | BOUND_SAFE_DUCK | BOUND_BEATEN | BOUND_LOST_TRICK |
                 BOUND_LOST_TWO;
    // bounds of the score in value / para (SCORE_* above; 0 = the plain t + left caps)
    int score = SCORE_DEFAULT;
    // table keys and move pruning (SEARCH_* above)
    int search = SEARCH_DEFAULT;
    // SEARCH_MONO: the subsumption table at nodes with at least this many tricks left
    int mono_min_left = 2;
};

struct PnEntry {  // proof and disproof numbers of one (state, goal)
    uint32_t pn, dn;
    int8_t hint;
};

// The table key of a (state, goal): the canonical state key with the normalised goal (the
// proof-number table's key; Engine::proof_size's too).
inline Key goal_key(Key k, int lo, int hi, int pk) {
    k.w[3] |= (uint64_t)(lo + 1) << 40 | (uint64_t)(hi + 1) << 45 | (uint64_t)(pk + 1) << 50;
    return k;
}

static_assert(sizeof(Table<WinEntry, 4>::Slot) == 64, "a win entry is one cache line");
static_assert(sizeof(Table<ParaEntry, 4>::Slot) == 32, "two para entries to a cache line");
static_assert(!Table<PnEntry, 4>::SHORT, "proof-number keys use w[3] above bit 40 (goal_key)");

struct PnChild {  // a child of a proof-number node while it is searched
    State st;
    Key key;  // the child's (state, goal) key
    int lo, hi, pk;
    uint32_t pn, dn;
    int8_t idx;
    bool lazy;  // numbers guessed (pn_guess), not yet evaluated (pn_eval)
};

class Engine {
  public:
    Options opt;
    Engine(int players, int seat, int n, int prediction, const uint64_t* adjacency,
           size_t cap_bytes, Rules rules);

    bool win(const State& st, int lo, int hi, int pk = -1);
    // win, by proof-number search when opt.pn_min_left allows (same answers)
    bool solve(const State& st, int lo, int hi, int pk = -1);
    bool win_pn(const State& st, int lo, int hi, int pk = -1);
    // (known: st's key_of, when the caller has it)
    int para(const State& st, int alpha, int beta, const Key* known = nullptr);
    int value(const State& st, int alpha, int beta);
    // one null window (b = a + 1) of exact_para's MTD(f): para_pn's yes/no goal or para
    int para_probe(const State& st, int a, int b);
    int exact_para(const State& st, int guess);
    int exact_value(const State& st, int guess);
    bool avoid_possible(const State& st);
    // The proof of a goal win answered yes, walked in the tables (false when it is no)
    // (census: the sample of its inner nodes is kept there too)
    bool proof_size(const State& st, int lo, int hi, int pk, ProofSize& out,
                    ProofCensus* census = nullptr);

    void set_budget(int64_t node_limit, double time_limit);
    // Another thread may ask a running search to stop: it ends at its next budget check
    // (every CHECK_EVERY nodes) as if its limit ran out. The flag stays until cleared.
    void set_stop(bool on) { stop_.store(on, std::memory_order_relaxed); }
    // SEARCH_PART: the pairs of numbers win's last answer compared (partition.h; tests)
    uint64_t relevance() const { return rel_; }
    void clear();
    size_t size() const {
        return tt_.size() + ptt_.size() + vtt_.size() + pnt_.size() + pt_.size() + mt_.size();
    }
    size_t bytes() const {
        return tt_.bytes() + ptt_.bytes() + vtt_.bytes() + pnt_.bytes() + pt_.bytes() +
               mt_.bytes();
    }

    Ctx cx;
    uint64_t nodes = 0;
    Profile profile;  // where the nodes went (bench/bench_native.py --only where)
    MonoStats mono;   // what the subsumption table answered (SEARCH_MONO; reset by clear())

  private:
    // st's key in the tables of trick and paradox goals (win, para, pn); with SEARCH_RANK
    // rank-normalised, and `live` gets st's live numbers for the hints (stored_hint,
    // played_hint), else 0 (hints are cell indices)
    Key key_of(const State& st, uint32_t* live = nullptr) const {
        uint32_t l = 0;
        if (ranked(st)) {
            Key k = rank_key(cx, st, opt.canonical, l);
            if (live) *live = l;
            return k;
        }
        if (live) *live = 0;
        return exact_key(st);
    }
    // key_of(st) is rank-normalised
    bool ranked(const State& st) const {
        return (opt.search & (SEARCH_NORM | SEARCH_RANK)) == (SEARCH_NORM | SEARCH_RANK) &&
               (st.cnt == 0 || opt.search & SEARCH_RANK_EVERY);
    }
    // st's key with its numbers as they are; with `mine` S's tokens too (value: S's groups)
    Key exact_key(const State& st, bool mine = false) const {
        return core_key(cx, st, opt.canonical, mine, opt.search & SEARCH_NORM);
    }
    // a play as stored in a table entry of a key with these live numbers, and back
    int stored_hint(int idx, uint32_t live) const { return live ? rank_hint(cx, idx, live) : idx; }
    int played_hint(int h, uint32_t live) const { return live ? real_hint(cx, h, live) : h; }
    // the proof-number table's state key, given st's key_of (the same unless only the
    // alpha-beta tables use normalised keys)
    Key pn_key_of(const State& st, const Key& k) const {
        if (!(opt.search & SEARCH_NORM) || opt.search & SEARCH_PN_NORM) return k;
        return core_key(cx, st, opt.canonical, false, false);
    }
    // the plays of the seat to play p searched at st: lm less plays equal in value to a kept
    // one (colour symmetry, equivalent discards, equivalent numbers); `groups`: S's groups
    // can still score (Sc3)
    uint64_t searched(const State& st, uint64_t lm, int p, bool groups) const;
    void count_node(const State& st, int kind) {
        ++profile.n[st.left][cx.to_play(st) == cx.seat][kind];
        if (++nodes >= next_check_) tick();
    }
    // a goal win_static answered (r: 1 yes, 0 no), counted beside the node that asked it
    void count_static(const State& st, int r) {
        ++profile.n[st.left][cx.to_play(st) == cx.seat][r ? PROF_YES : PROF_NO];
    }
    void tick();
    // (`ordered` (if given) is set when the answer came from a bound that compares numbers)
    int win_static(const State& st, int& lo, int& hi, int& pk, uint64_t& lm,
                   bool* ordered = nullptr) const;
    bool win_search(const State& st, int lo, int hi, int pk, uint64_t lm,
                    const Key* known = nullptr);
    // `at` (if given) gets the entry's slot and the table's generation, for store_win
    int probe_win(const Key& key, int lo, int hi, int pk, int& hint,
                  Table<WinEntry, 4>::Slot** at = nullptr, uint64_t* gen = nullptr);
    // SEARCH_PART (partition.h): win_search, and the table's probe and store; a state's key
    // (sorted at trick starts) with its column order
    bool part() const { return opt.search & SEARCH_PART; }
    Key part_key_of(const State& st, Perm& pm) const {
        if (st.cnt && !(opt.search & SEARCH_PART_EVERY)) {
            pm.id = true;
            return core_key(cx, st, opt.canonical, false, true);
        }
        return part_key(cx, st, opt.canonical, pm);
    }
    bool part_search(const State& st, int lo, int hi, int pk, uint64_t lm);
    // a fact of key's entry that decides the goal for a state with order pm (1 or 0; its R in
    // the state's numbers goes to rel_), else -1; `hint` gets the stored best play
    int probe_part(const Key& key, const Perm& pm, int lo, int hi, int pk, int& hint,
                   Table<PartEntry, 4>::Slot** at = nullptr, uint64_t* gen = nullptr);
    void store_part(const Key& key, const Perm& pm, int lo, int hi, int pk, bool res, int best,
                    uint64_t rel, uint64_t start, Table<PartEntry, 4>::Slot* at = nullptr,
                    uint64_t gen = 0);
    // df-pn's probe and store of win facts: tt_, or pt_ with SEARCH_PART (R = every pair)
    // (`mono`: the subsumption table too, SEARCH_MONO; df-pn's children ask it only when
    // new to the proof-number table, pn_post)
    int probe_fact(const State& st, const Key& key, int lo, int hi, int pk, int& hint,
                   bool mono = true);
    void store_fact(const State& st, const Key& key, int lo, int hi, int pk, bool res,
                    int best, uint64_t start);
    void pn_eval(PnChild& c);
    // pn_eval in two stages (pn_mid runs the first for every child before the second): the
    // static answer (lm, r), and where there is none the keys with their buckets prefetched;
    // then the node counted, the leaf search and the table probes
    int pn_pre(PnChild& c, uint64_t& lm);
    void pn_post(PnChild& c, int r, uint64_t lm);
    void pn_guess(PnChild& c);
    void pn_new(PnChild& c, uint64_t lm);
    void pn_mid(const State& st, int lo, int hi, int pk, const Key& key, uint32_t thpn,
                uint32_t thdn, uint32_t& pn, uint32_t& dn);
    // (`at`, `gen`: the slot probe_win found for key, if any: used while it still holds key)
    void store_win(const Key& key, int lo, int hi, int pk, bool res, int best, uint64_t start,
                   Table<WinEntry, 4>::Slot* at = nullptr, uint64_t gen = 0);
    // SEARCH_MONO (subsume.h): st may use the subsumption table (red broken unless NOGUARD);
    // its answer for the goal (1, 0, -1 none; counted in mono), and a fact stored
    bool mono_on(const State& st) const {
        return opt.search & SEARCH_MONO && !part() && st.left >= opt.mono_min_left &&
               (st.occ & cx.red || opt.search & SEARCH_MONO_NOGUARD);
    }
    int probe_mono(const State& st, int lo, int hi, int pk);
    // probe_mono's answer for df-pn (with SEARCH_MONO_CHECK kept as a claim, and -1)
    int mono_fact(const State& st, int lo, int hi, int pk);
    void store_mono(const State& st, int lo, int hi, int pk, bool res, uint64_t start);
    int terminal_score(const State& st, bool paradox_by_s) const;
    bool bonus_possible(int t, int left) const;
    int score_floor(int target, int g, bool hull) const;

    // The fail-soft child loop shared by para and value: the best child value for the seat
    // to play (S maximises), narrowing (a, b); stops at a cutoff.
    template <class Child>
    int child_loop(const State& st, uint64_t lm, int p, int hint, int& a, int& b, int& bm,
                   Child&& child);

    Table<WinEntry, 4> tt_;  // keys without S's tokens: four words (table.h)
    Table<PartEntry, 4> pt_;  // win's facts with SEARCH_PART (partition.h)
    uint64_t rel_ = 0;        // SEARCH_PART: the pairs of numbers win's last answer compared
    uint64_t all_pairs_ = 0;  // every pair of the numbers 1..n
    Table<ParaEntry, 4> ptt_;
    Table<BoundEntry> vtt_;
    Table<PnEntry, 4> pnt_;
    Table<MonoEntry, 2> mt_;  // SEARCH_MONO: keys of S's part only (subsume.h)
    History hist_;
    // SEARCH_SIM: S's play that last proved an S node, by tricks left and plays in the trick
    int8_t sim_[MAX_NUMBER + 1][MAX_SEATS];
    int sim_hint(const State& st, int hint) const {
        return hint < 0 && opt.search & SEARCH_SIM ? sim_[st.left][st.cnt] : hint;
    }
    void sim_proved(const State& st, int idx) {
        if (opt.search & SEARCH_SIM) sim_[st.left][st.cnt] = (int8_t)idx;
    }
    // df-pn's refutations per tricks left (Options::pn_refuters; left <= 8, E1)
    History hist_left_[MAX_NUMBER];
    bool refuters_ = false;  // this df-pn root orders the other seats' plays by hist_left_
    uint64_t next_check_;
    uint64_t node_limit_;
    uint64_t probe_limit_;
    bool has_deadline_ = false;
    std::atomic<bool> stop_{false};
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
template <class E>
inline void store_bounds(E& e, int lower, int upper, int best, int a0, int b0) {
    using V = decltype(e.lower);
    if (best <= a0)
        e.upper = (V)(upper < best ? upper : best);
    else if (best >= b0)
        e.lower = (V)(lower > best ? lower : best);
    else
        e.lower = e.upper = (V)best;
}

}  // namespace catbox
