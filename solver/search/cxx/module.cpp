// catbox native search core: the CPython binding (module catbox.solver.search._native).
//
// Speaks packed states and answers only. A state crosses as a flat tuple of ints
//   (occ, mine, perms, leader, cnt, led, wval, wseat, tricks, left, hand_0, ..., hand_{P-1})
// (hands: 3 bits per number). The Python wrapper is solver/search/native.py.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <new>

#include "search.h"

using catbox::Engine;
using catbox::State;

static PyObject* budget_error = nullptr;  // set by set_budget_exception (limits.OutOfTime)

struct PyEngine {
    PyObject_HEAD Engine* eng;
};

static bool parse_state(PyEngine* self, PyObject* obj, State& st) {
    const catbox::Ctx& cx = self->eng->cx;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 10 + cx.players) {
        PyErr_SetString(PyExc_ValueError, "state: a tuple of 10 + players ints expected");
        return false;
    }
    unsigned long long v[10 + catbox::MAX_SEATS];
    for (Py_ssize_t i = 0; i < 10 + cx.players; ++i) {
        PyObject* x = PyTuple_GET_ITEM(obj, i);
        long long s = PyLong_AsLongLong(x);
        if (s == -1 && PyErr_Occurred()) return false;
        v[i] = (unsigned long long)s;
    }
    st.occ = v[0];
    st.mine = v[1];
    st.perms = (uint32_t)v[2];
    st.leader = (int8_t)v[3];
    st.cnt = (int8_t)v[4];
    st.led = (int8_t)(long long)v[5];
    st.wval = (int8_t)(long long)v[6];
    st.wseat = (int8_t)(long long)v[7];
    st.tricks = (int8_t)v[8];
    st.left = (int8_t)v[9];
    for (int p = 0; p < catbox::MAX_SEATS; ++p)
        st.hand[p] = p < cx.players ? (uint32_t)v[10 + p] : 0;
    return true;
}

static PyObject* state_tuple(const catbox::Ctx& cx, const State& st) {
    PyObject* t = PyTuple_New(10 + cx.players);
    if (!t) return nullptr;
    long long v[10] = {(long long)st.occ, (long long)st.mine, st.perms,  st.leader, st.cnt,
                       st.led,            st.wval,           st.wseat,  st.tricks, st.left};
    for (int i = 0; i < 10; ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(v[i]));
    for (int p = 0; p < cx.players; ++p)
        PyTuple_SET_ITEM(t, 10 + p, PyLong_FromUnsignedLong(st.hand[p]));
    return t;
}

static void raise_budget(const catbox::BudgetExceeded& e) {
    PyErr_SetString(budget_error ? budget_error : PyExc_RuntimeError, e.what);
}

// Runs a search call without the GIL; maps a budget overrun to the Python exception.
template <class F>
static bool run(F&& f) {
    const char* err = nullptr;
    Py_BEGIN_ALLOW_THREADS try {
        f();
    } catch (const catbox::BudgetExceeded& e) {
        err = e.what;
    } catch (const std::bad_alloc&) {
        err = "out of memory";
    }
    Py_END_ALLOW_THREADS if (err) {
        raise_budget(catbox::BudgetExceeded{err});
        return false;
    }
    return true;
}

static int engine_init(PyEngine* self, PyObject* args, PyObject*) {
    int players, seat, n, prediction;
    PyObject* adj;
    unsigned long long cap;
    catbox::Rules rules;
    if (!PyArg_ParseTuple(args, "iiiiOK(ii)", &players, &seat, &n, &prediction, &adj, &cap,
                          &rules.red_bonus, &rules.two_player_bonus_max))
        return -1;
    if (players < 2 || players > catbox::MAX_SEATS || seat < 0 || seat >= players || n < 1 ||
        n > catbox::MAX_NUMBER) {
        PyErr_SetString(PyExc_ValueError, "players, seat or max_number out of range");
        return -1;
    }
    if (!PyTuple_Check(adj) || PyTuple_GET_SIZE(adj) != 4 * n) {
        PyErr_SetString(PyExc_ValueError, "adjacency: a tuple of 4 * max_number masks expected");
        return -1;
    }
    uint64_t a[catbox::MAX_CELLS] = {};
    for (int i = 0; i < 4 * n; ++i) {
        a[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(adj, i));
        if (PyErr_Occurred()) return -1;
    }
    delete self->eng;
    try {
        self->eng = new Engine(players, seat, n, prediction, a, (size_t)cap, rules);
    } catch (const std::bad_alloc&) {
        self->eng = nullptr;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void engine_dealloc(PyEngine* self) {
    delete self->eng;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

static PyObject* engine_new(PyTypeObject* type, PyObject*, PyObject*) {
    PyEngine* self = (PyEngine*)type->tp_alloc(type, 0);
    if (self) self->eng = nullptr;
    return (PyObject*)self;
}

#define ENGINE_CHECK                                                      \
    if (!self->eng) {                                                     \
        PyErr_SetString(PyExc_RuntimeError, "engine is not initialised"); \
        return nullptr;                                                   \
    }

// the arguments (state, lo, hi, pk=-1) of a win goal; false with the Python error set
static bool goal_args(PyEngine* self, PyObject* args, State& st, int& lo, int& hi, int& pk) {
    PyObject* so;
    pk = -1;
    return PyArg_ParseTuple(args, "Oii|i", &so, &lo, &hi, &pk) && parse_state(self, so, st);
}

// win (alpha-beta only) or solve (proof-number search from deep roots, opt.pn_min_left)
template <bool Solve>
static PyObject* m_win(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int lo, hi, pk;
    State st;
    if (!goal_args(self, args, st, lo, hi, pk)) return nullptr;
    bool r = false;
    if (!run([&] { r = Solve ? self->eng->solve(st, lo, hi, pk) : self->eng->win(st, lo, hi, pk); }))
        return nullptr;
    return PyBool_FromLong(r);
}

template <int Which>
static PyObject* m_window(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    PyObject* so;
    int a, b;
    State st;
    if (!PyArg_ParseTuple(args, "Oii", &so, &a, &b) || !parse_state(self, so, st)) return nullptr;
    int v = 0;
    if (!run([&] {
            v = Which == 0   ? self->eng->para(st, a, b)
                : Which == 1 ? self->eng->value(st, a, b)
                             : self->eng->para_probe(st, a, b);
        }))
        return nullptr;
    return PyLong_FromLong(v);
}

template <int Which>
static PyObject* m_exact(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    PyObject* so;
    int g;
    State st;
    if (!PyArg_ParseTuple(args, "Oi", &so, &g) || !parse_state(self, so, st)) return nullptr;
    int v = 0;
    if (!run([&] { v = Which == 0 ? self->eng->exact_para(st, g) : self->eng->exact_value(st, g); }))
        return nullptr;
    return PyLong_FromLong(v);
}

// The one argument of a binding taking a state, parsed into st (false: a Python error is set)
static bool state_arg(PyEngine* self, PyObject* args, State& st) {
    PyObject* so;
    return PyArg_ParseTuple(args, "O", &so) && parse_state(self, so, st);
}

// a state and an optional mutant switch (the bounds probes' test hooks)
static bool state_mutant_arg(PyEngine* self, PyObject* args, State& st, int& mutant) {
    PyObject* so;
    return PyArg_ParseTuple(args, "O|i", &so, &mutant) && parse_state(self, so, st);
}

static PyObject* m_avoid_possible(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    State st;
    if (!state_arg(self, args, st)) return nullptr;
    bool r = false;
    if (!run([&] { r = self->eng->avoid_possible(st); })) return nullptr;
    return PyBool_FromLong(r);
}

// Engine::proof_size: (inner, leaves, inner nodes by tricks left 0..8), or None when the goal
// is not proven
static PyObject* m_proof_size(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int lo, hi, pk;
    State st;
    if (!goal_args(self, args, st, lo, hi, pk)) return nullptr;
    catbox::ProofSize ps;
    bool r = false;
    if (!run([&] { r = self->eng->proof_size(st, lo, hi, pk, ps); })) return nullptr;
    if (!r) Py_RETURN_NONE;
    PyObject* by = PyTuple_New(9);
    if (!by) return nullptr;
    for (int i = 0; i < 9; ++i) {
        PyObject* v = PyLong_FromUnsignedLongLong(ps.by_left[i]);
        if (!v) {
            Py_DECREF(by);
            return nullptr;
        }
        PyTuple_SET_ITEM(by, i, v);
    }
    using u = unsigned long long;
    return Py_BuildValue("(KKN)", (u)ps.inner, (u)ps.leaves, by);
}

static PyObject* m_legal_mask(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    State st;
    if (!state_arg(self, args, st)) return nullptr;
    return PyLong_FromUnsignedLongLong(catbox::legal_mask(self->eng->cx, st));
}

static PyObject* m_apply(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    PyObject* so;
    int idx;
    State st;
    if (!PyArg_ParseTuple(args, "Oi", &so, &idx) || !parse_state(self, so, st)) return nullptr;
    if (idx < 0 || idx >= 4 * self->eng->cx.n) {
        PyErr_SetString(PyExc_ValueError, "cell out of range");
        return nullptr;
    }
    return state_tuple(self->eng->cx, catbox::apply(self->eng->cx, st, idx));
}

static PyObject* m_bounds(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    PyObject* so;
    int s_done, plays;
    State st;
    if (!PyArg_ParseTuple(args, "Oii", &so, &s_done, &plays) || !parse_state(self, so, st))
        return nullptr;
    const catbox::Ctx& cx = self->eng->cx;
    return Py_BuildValue("(Oiii)", catbox::never_stuck(cx, st, s_done) ? Py_True : Py_False,
                         catbox::s_plays_bound(cx, st), catbox::group_bound(cx, st, plays),
                         catbox::largest_group(cx, st.mine));
}

// merge or equivalent (order.h): the plays of mask kept for seat p
template <uint64_t (*Prune)(const catbox::Ctx&, const State&, uint64_t, int)>
static PyObject* m_prune(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    PyObject* so;
    unsigned long long lm;
    int p;
    State st;
    if (!PyArg_ParseTuple(args, "OKi", &so, &lm, &p) || !parse_state(self, so, st))
        return nullptr;
    return PyLong_FromUnsignedLongLong(Prune(self->eng->cx, st, lm, p));
}

static PyObject* m_set_budget(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    long long nl;
    double tl;
    if (!PyArg_ParseTuple(args, "Ld", &nl, &tl)) return nullptr;
    self->eng->set_budget(nl, tl);
    Py_RETURN_NONE;
}

// The only method another thread may call while this engine searches (an atomic flag).
static PyObject* m_set_stop(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int on;
    if (!PyArg_ParseTuple(args, "p", &on)) return nullptr;
    self->eng->set_stop(on != 0);
    Py_RETURN_NONE;
}

// SEARCH_PART (partition.h): the pairs of numbers whose order win's last answer depends on
static PyObject* m_relevance(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    return PyLong_FromUnsignedLongLong(self->eng->relevance());
}

static PyObject* m_configure(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int sym, tmin, pf = self->eng->opt.prefetch, canon = 0;
    int pn_min = self->eng->opt.pn_min_left, pn_leaf = self->eng->opt.pn_leaf;
    int pn_mob = self->eng->opt.pn_mobility;
    double pn_eps = self->eng->opt.pn_eps;
    int pn_slack = self->eng->opt.pn_slack, pn_weak = self->eng->opt.pn_weak;
    long long pn_probe = self->eng->opt.pn_probe;
    int pn_lazy = self->eng->opt.pn_lazy;
    if (!PyArg_ParseTuple(args, "pi|ppiipdppLp", &sym, &tmin, &pf, &canon, &pn_min, &pn_leaf,
                          &pn_mob, &pn_eps, &pn_slack, &pn_weak, &pn_probe, &pn_lazy))
        return nullptr;
    self->eng->opt.pn_lazy = pn_lazy != 0;
    self->eng->opt.pn_slack = pn_slack != 0;
    self->eng->opt.pn_weak = pn_weak != 0;
    self->eng->opt.pn_probe = pn_probe;
    self->eng->opt.pn_min_left = pn_min;
    self->eng->opt.pn_leaf = pn_leaf < 1 ? 1 : pn_leaf;
    self->eng->opt.pn_mobility = pn_mob != 0;
    self->eng->opt.pn_eps = pn_eps < 0 ? 0 : pn_eps;
    self->eng->opt.prefetch = pf != 0;
    self->eng->opt.canonical = canon != 0;
    self->eng->opt.symmetry = sym != 0;
    self->eng->opt.tt_min_left = tmin;
    Py_RETURN_NONE;
}

// one of the switch masks of Options (bounds, score, search)
template <int catbox::Options::*Field>
static PyObject* m_set_mask(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int mask;
    if (!PyArg_ParseTuple(args, "i", &mask)) return nullptr;
    self->eng->opt.*Field = mask;
    Py_RETURN_NONE;
}

// Engine::proof_size with a census: a sample of the proof's inner (state, goal) nodes, at most
// per_level for each count of tricks left, as a list of (state, lo, hi, pk) with the goal as
// win_static normalised it (deepest first); None when the goal is not proven
static PyObject* m_proof_census(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    PyObject* so;
    int lo, hi, pk, per;
    State st;
    if (!PyArg_ParseTuple(args, "Oiiii", &so, &lo, &hi, &pk, &per) || !parse_state(self, so, st))
        return nullptr;
    catbox::ProofSize ps;
    catbox::ProofCensus census;
    census.per_level = per < 0 ? 0 : (size_t)per;
    bool r = false;
    if (!run([&] { r = self->eng->proof_size(st, lo, hi, pk, ps, &census); })) return nullptr;
    if (!r) Py_RETURN_NONE;
    PyObject* out = PyList_New(0);
    if (!out) return nullptr;
    for (int l = catbox::MAX_NUMBER; l >= 0; --l)
        for (const catbox::CensusNode& c : census.keep[l]) {
            PyObject* t = state_tuple(self->eng->cx, c.st);
            PyObject* item = t ? Py_BuildValue("(Niii)", t, c.lo, c.hi, c.pk) : nullptr;
            if (!item || PyList_Append(out, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(out);
                return nullptr;
            }
            Py_DECREF(item);
        }
    return out;
}

// The round-end facts of st as win_static computes them (search.cpp), for the bindings
// below: S's place in the trick and round_end's Static under `mask`.
struct RoundEnd {
    int s_done;
    int top;  // the tricks S can still win (win_static's `top`)
    catbox::Static sb;
    RoundEnd(const catbox::Ctx& cx, const State& st, int mask)
        : s_done(cx.s_done(st)), top(st.left - (s_done && st.wseat != cx.seat ? 1 : 0)) {
        sb = catbox::round_end(cx, st, s_done, top, mask);
    }
};

// The static bounds of st for S (bounds.h): (ub, safe, doomed, denied); st must have a
// legal play.
static PyObject* m_static_bounds(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    State st;
    if (!state_arg(self, args, st)) return nullptr;
    const catbox::Ctx& cx = self->eng->cx;
    int mask = self->eng->opt.bounds;
    RoundEnd re(cx, st, mask);
    bool safe = catbox::s_safe(cx, st, re.s_done, re.sb, mask);
    bool doomed = mask & catbox::BOUND_DOOMED && catbox::s_doomed(cx, st, re.s_done, re.sb, mask);
    int denied = mask & catbox::BOUND_STOPPERS ? catbox::stoppers(cx, st, re.s_done) : 0;
    return Py_BuildValue("(iOOi)", re.sb.ub, safe ? Py_True : Py_False, doomed ? Py_True : Py_False,
                         denied);
}

// The tricks from the current one S surely loses by plays it surely has (bounds.h s_ducks):
// 0 or 1; st must have a legal play.
static PyObject* m_ducked(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    State st;
    if (!state_arg(self, args, st)) return nullptr;
    catbox::Seats r;
    catbox::seats_of(self->eng->cx, st, r);
    return PyLong_FromLong(catbox::s_ducks(self->eng->cx, st, r) ? 1 : 0);
}

// The paradox part's cap when S surely loses the current trick (bounds.h s_loses_trick,
// lost_cap, under the engine's bounds mask), else -1; st must have a legal play.
static PyObject* m_lost_trick(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    State st;
    if (!state_arg(self, args, st)) return nullptr;
    const catbox::Ctx& cx = self->eng->cx;
    int mask = self->eng->opt.bounds;
    RoundEnd re(cx, st, mask);
    uint64_t lm = catbox::legal_mask(cx, st);
    bool r = lm && catbox::s_loses_trick(cx, st, re.s_done, re.sb, lm, mask);
    return PyLong_FromLong(r ? catbox::lost_cap(re.sb.ub, re.top) : -1);
}

// S's sure losers (bounds.h s_losers with BOUND_LOST_TWO and its parts, whatever the engine's
// mask, and `mutant`): (j, cap), j the coming tricks S surely loses beyond what `top` counts
// (0-2) and the paradox part's cap they give (-1: none); st must have a legal play.
static PyObject* m_lost_tricks(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int mutant = 0;
    State st;
    if (!state_mutant_arg(self, args, st, mutant)) return nullptr;
    const catbox::Ctx& cx = self->eng->cx;
    int mask = self->eng->opt.bounds | catbox::BOUND_LOST_TWO | catbox::BOUND_LOST_PLAYS |
               catbox::BOUND_LOST_OVERTAKEN;
    RoundEnd re(cx, st, mask);
    uint64_t lm = catbox::legal_mask(cx, st);
    int cap = -1;
    int j = lm ? catbox::s_losers(cx, st, re.s_done, re.top, re.sb, lm, mask, cap, mutant) : 0;
    return Py_BuildValue("(ii)", j, j ? cap : -1);
}

// S's sure losers by a safe strategy (bounds.h s_safe_losers with BOUND_SAFE_TWO, whatever the
// engine's mask, and `mutant`): j (0-2), S then surely causes no paradox and wins at most
// ub - j more tricks; st must have a legal play.
static PyObject* m_safe_lost_tricks(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int mutant = 0;
    State st;
    if (!state_mutant_arg(self, args, st, mutant)) return nullptr;
    const catbox::Ctx& cx = self->eng->cx;
    int mask = self->eng->opt.bounds | catbox::BOUND_SAFE | catbox::BOUND_SAFE_TWO;
    RoundEnd re(cx, st, mask);
    uint64_t lm = catbox::legal_mask(cx, st);
    int j = 0;
    if (lm) {
        j = catbox::s_safe_losers(cx, st, re.s_done, re.sb, lm, mask, 2, mutant);
        if (!j) j = catbox::s_safe_losers(cx, st, re.s_done, re.sb, lm, mask, 1, mutant);
    }
    return PyLong_FromLong(j);
}

// The helper's strategy bounds with s_safe, as win_static takes them (BOUND_SAFE_DUCK's and
// BOUND_BEATEN's tests); st must have a legal play. Which == 0 (safe_ducked): S surely loses
// the current trick by a play its safe strategy allows (bounds.h s_safe_ducks) and never
// causes a paradox. Which == 1 (beaten): S, to play, has a play its safe strategy allows that
// surely does not win the current trick (bounds.h s_beaten) and never causes a paradox.
template <int Which>
static PyObject* m_safe_loss(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    State st;
    if (!state_arg(self, args, st)) return nullptr;
    const catbox::Ctx& cx = self->eng->cx;
    int mask = self->eng->opt.bounds | catbox::BOUND_SAFE;
    RoundEnd re(cx, st, mask);
    bool r;
    if (Which == 0) {
        r = catbox::s_safe_ducks(cx, st, re.sb);
    } else {
        uint64_t lm = catbox::legal_mask(cx, st);
        r = cx.to_play(st) == cx.seat && !re.s_done && lm && catbox::s_beaten(cx, st, re.sb, lm);
    }
    return PyBool_FromLong(r && catbox::s_safe(cx, st, re.s_done, re.sb, mask) ? 1 : 0);
}

// The per-seat play counts of st (bounds.h, counted in 4-bit lanes): (plays_bound of every
// seat, surely_makes(q, plays) of every seat q) -- checked against a plain count in tests.
static PyObject* m_play_bounds(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    PyObject* so;
    State st;
    int plays;
    if (!PyArg_ParseTuple(args, "Oi", &so, &plays) || !parse_state(self, so, st)) return nullptr;
    const catbox::Ctx& cx = self->eng->cx;
    int most[catbox::MAX_SEATS];
    for (int q = 0; q < cx.players; ++q) most[q] = catbox::plays_bound(cx, st, q);
    PyObject* m = PyTuple_New(cx.players);
    PyObject* sure = PyTuple_New(cx.players);
    if (!m || !sure) {
        Py_XDECREF(m);
        Py_XDECREF(sure);
        return nullptr;
    }
    for (int q = 0; q < cx.players; ++q) {
        PyTuple_SET_ITEM(m, q, PyLong_FromLong(most[q]));
        PyObject* b = catbox::surely_makes(cx, st, q, plays, most) ? Py_True : Py_False;
        Py_INCREF(b);
        PyTuple_SET_ITEM(sure, q, b);
    }
    return Py_BuildValue("(NN)", m, sure);
}

static PyObject* m_rules(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    const catbox::Rules& r = self->eng->cx.rules;
    return Py_BuildValue("(ii)", r.red_bonus, r.two_player_bonus_max);
}

// Engine::profile as a list of (tricks left, S to play, win, pn_eval, pn_mid, score, static
// yes, static no), the rows with a count.
static PyObject* m_profile(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    PyObject* out = PyList_New(0);
    if (!out) return nullptr;
    const auto& n = self->eng->profile.n;
    for (int left = 0; left <= catbox::MAX_NUMBER; ++left)
        for (int s = 0; s < 2; ++s) {
            const uint64_t* k = n[left][s];
            uint64_t any = 0;
            for (int i = 0; i < catbox::PROF_KINDS; ++i) any |= k[i];
            if (!any) continue;
            static_assert(catbox::PROF_KINDS == 6, "one K per kind below");
            using u = unsigned long long;
            PyObject* row = Py_BuildValue("(iiKKKKKK)", left, s, (u)k[0], (u)k[1], (u)k[2],
                                          (u)k[3], (u)k[4], (u)k[5]);
            if (!row || PyList_Append(out, row) < 0) {
                Py_XDECREF(row);
                Py_DECREF(out);
                return nullptr;
            }
            Py_DECREF(row);
        }
    return out;
}

// Engine::mono (search.h SEARCH_MONO, subsume.h MonoStats) as a dict; the claims kept as
// (state, lo, hi, pk, answer)
static PyObject* m_mono_stats(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    const catbox::MonoStats& m = self->eng->mono;
    auto tuple_of = [](const uint64_t* v, int n) {
        PyObject* t = PyTuple_New(n);
        for (int i = 0; t && i < n; ++i)
            PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLongLong(v[i]));
        return t;
    };
    PyObject* claims = PyList_New(0);
    if (!claims) return nullptr;
    for (const catbox::MonoClaim& c : m.claims) {
        PyObject* t = state_tuple(self->eng->cx, c.st);
        PyObject* item = t ? Py_BuildValue("(Niiii)", t, c.lo, c.hi, c.pk, c.res) : nullptr;
        if (!item || PyList_Append(claims, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(claims);
            return nullptr;
        }
        Py_DECREF(item);
    }
    using u = unsigned long long;
    return Py_BuildValue("{sNsNsKsKsKsKsNsNsKsN}", "asked", tuple_of(m.asked, 10), "hits",
                         tuple_of(m.hits, 10), "yes", (u)m.yes, "no", (u)m.no, "wrong",
                         (u)m.wrong, "checked", (u)m.checked, "by_gap", tuple_of(m.by_gap, 10),
                         "by_place", tuple_of(m.by_place, 4), "walk_subsumed",
                         (u)m.walk_subsumed, "claims", claims);
}

// the subsumption claims df-pn's probes keep at most with SEARCH_MONO_CHECK (MonoStats::keep)
static PyObject* m_set_mono_keep(PyEngine* self, PyObject* args) {
    ENGINE_CHECK
    int n;
    if (!PyArg_ParseTuple(args, "i", &n)) return nullptr;
    self->eng->mono.keep = n < 0 ? 0 : (size_t)n;
    Py_RETURN_NONE;
}

static PyObject* m_nodes(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    return PyLong_FromUnsignedLongLong(self->eng->nodes);
}

static PyObject* m_size(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    return PyLong_FromSize_t(self->eng->size());
}

static PyObject* m_bytes(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    return PyLong_FromSize_t(self->eng->bytes());
}

static PyObject* m_clear(PyEngine* self, PyObject*) {
    ENGINE_CHECK
    self->eng->clear();
    Py_RETURN_NONE;
}

static PyMethodDef engine_methods[] = {
    {"win", (PyCFunction)m_win<false>, METH_VARARGS, "win(state, lo, hi, pk=-1) -> bool"},
    {"solve", (PyCFunction)m_win<true>, METH_VARARGS,
     "solve(state, lo, hi, pk=-1) -> bool: win, by proof-number search from deep roots"},
    {"para", (PyCFunction)m_window<0>, METH_VARARGS, "para(state, alpha, beta) -> int"},
    {"value", (PyCFunction)m_window<1>, METH_VARARGS, "value(state, alpha, beta) -> int"},
    {"para_probe", (PyCFunction)m_window<2>, METH_VARARGS,
     "para_probe(state, alpha, beta) -> int: one window of exact_para's MTD(f)"},
    {"exact_para", (PyCFunction)m_exact<0>, METH_VARARGS, "exact_para(state, guess) -> int"},
    {"exact_value", (PyCFunction)m_exact<1>, METH_VARARGS, "exact_value(state, guess) -> int"},
    {"avoid_possible", (PyCFunction)m_avoid_possible, METH_VARARGS, "avoid_possible(state)"},
    {"lost_tricks", (PyCFunction)m_lost_tricks, METH_VARARGS,
     "lost_tricks(state, mutant=0) -> (j, cap): S surely loses j coming tricks beyond its "
     "top (0-2; bounds.h s_losers) and the paradox part's cap they give (-1: none)"},
    {"safe_lost_tricks", (PyCFunction)m_safe_lost_tricks, METH_VARARGS,
     "safe_lost_tricks(state, mutant=0) -> j: S surely loses j coming tricks beyond its top "
     "(0-2) by a strategy that surely causes no paradox (bounds.h s_safe_losers)"},
    {"proof_census", (PyCFunction)m_proof_census, METH_VARARGS,
     "proof_census(state, lo, hi, pk, per_level) -> [(state, lo, hi, pk)] | None: a sample of "
     "the proof's inner nodes by tricks left (search.h ProofCensus)"},
    {"proof_size", (PyCFunction)m_proof_size, METH_VARARGS,
     "proof_size(state, lo, hi, pk=-1) -> (inner, leaves, inner by tricks left) | None: the "
     "proof of a yes of win its tables hold (a measurement)"},
    {"legal_mask", (PyCFunction)m_legal_mask, METH_VARARGS, "legal_mask(state) -> int"},
    {"apply", (PyCFunction)m_apply, METH_VARARGS, "apply(state, cell) -> state"},
    {"bounds", (PyCFunction)m_bounds, METH_VARARGS,
     "bounds(state, s_done, plays) -> (never_stuck, s_plays_bound, group_bound, group)"},
    {"merge", (PyCFunction)m_prune<catbox::merge>, METH_VARARGS, "merge(state, mask, seat) -> int"},
    {"equivalent", (PyCFunction)m_prune<catbox::equivalent>, METH_VARARGS,
     "equivalent(state, mask, seat) -> int: mask less equivalent numbers (order.h)"},
    {"set_budget", (PyCFunction)m_set_budget, METH_VARARGS,
     "set_budget(node_limit, time_limit); negative: none"},
    {"relevance", (PyCFunction)m_relevance, METH_NOARGS,
     "relevance() -> int: with SEARCH_PART, the pairs {a, b} of numbers (bit per pair, a < b in "
     "order 1-2, 1-3, ..., 8-9) whose order win's last answer depends on (partition.h)"},
    {"set_stop", (PyCFunction)m_set_stop, METH_VARARGS,
     "set_stop(on): a running search (in another thread) stops at its next budget check"},
    {"configure", (PyCFunction)m_configure, METH_VARARGS,
     "configure(symmetry, tt_min_left, prefetch, canonical=False, pn_min_left, pn_leaf, "
     "pn_mobility, pn_eps, pn_slack, pn_weak, pn_probe, pn_lazy): algorithm switches"},
    {"set_bounds", (PyCFunction)m_set_mask<&catbox::Options::bounds>, METH_VARARGS,
     "set_bounds(mask): static bounds switched on (search.h Options.bounds; 0 = never_stuck)"},
    {"set_pn_other", (PyCFunction)m_set_mask<&catbox::Options::pn_other>, METH_VARARGS,
     "set_pn_other(d): other seats' new proof-number nodes start with the disproof number "
     "ceil(S's open cells / d) (search.h Options.pn_other; 0 = 1)"},
    {"set_pn_refuters", (PyCFunction)m_set_mask<&catbox::Options::pn_refuters>, METH_VARARGS,
     "set_pn_refuters(left): from df-pn roots with at least `left` tricks left the other seats' "
     "plays are ordered by their refutations per tricks left (search.h Options.pn_refuters; "
     "0 = never)"},
    {"set_para_pn", (PyCFunction)m_set_mask<&catbox::Options::para_pn>, METH_VARARGS,
     "set_para_pn(on): exact_para's windows as yes/no goals of solve (search.h para_pn)"},
    {"set_hist_age", (PyCFunction)m_set_mask<&catbox::Options::hist_age>, METH_VARARGS,
     "set_hist_age(shift): solve divides the move-ordering histories by 2^shift before each "
     "question (search.h Options.hist_age; 0 = never)"},
    {"set_search", (PyCFunction)m_set_mask<&catbox::Options::search>, METH_VARARGS,
     "set_search(mask): table keys and move pruning (search.h SEARCH_*; 0 = neither)"},
    {"set_score_bounds", (PyCFunction)m_set_mask<&catbox::Options::score>, METH_VARARGS,
     "set_score_bounds(mask): score bounds in value / para (search.h SCORE_*; 0 = none)"},
    {"play_bounds", (PyCFunction)m_play_bounds, METH_VARARGS,
     "play_bounds(state, plays) -> (plays_bound per seat, surely_makes(plays) per seat)"},
    {"static_bounds", (PyCFunction)m_static_bounds, METH_VARARGS,
     "static_bounds(state) -> (ub, safe, doomed, denied): S's trick caps, paradox proofs"},
    {"ducked", (PyCFunction)m_ducked, METH_VARARGS,
     "ducked(state) -> int: tricks S surely loses from the current one (bounds.h s_ducks)"},
    {"lost_trick", (PyCFunction)m_lost_trick, METH_VARARGS,
     "lost_trick(state) -> int: the cap on S's tricks before its paradox when S surely loses "
     "the current trick (bounds.h s_loses_trick, lost_cap), else -1"},
    {"beaten", (PyCFunction)m_safe_loss<1>, METH_VARARGS,
     "beaten(state) -> bool: S, to play, has a play its safe strategy allows that surely does "
     "not win the trick, and causes no paradox (bounds.h s_beaten, s_safe)"},
    {"safe_ducked", (PyCFunction)m_safe_loss<0>, METH_VARARGS,
     "safe_ducked(state) -> bool: S surely loses the current trick by a play its safe strategy "
     "allows and causes no paradox (bounds.h s_safe_ducks, s_safe)"},
    {"set_mono_min_left", (PyCFunction)m_set_mask<&catbox::Options::mono_min_left>,
     METH_VARARGS, "set_mono_min_left(k): SEARCH_MONO at nodes with k or more tricks left"},
    {"mono_stats", (PyCFunction)m_mono_stats, METH_NOARGS,
     "mono_stats() -> dict: what the subsumption table answered (search.h SEARCH_MONO)"},
    {"set_mono_keep", (PyCFunction)m_set_mono_keep, METH_VARARGS,
     "set_mono_keep(n): df-pn's subsumption claims kept with SEARCH_MONO_CHECK"},
    {"nodes", (PyCFunction)m_nodes, METH_NOARGS, "nodes searched so far"},
    {"profile", (PyCFunction)m_profile, METH_NOARGS,
     "profile() -> [(left, s_to_play, win, pn_eval, pn_mid, score, static_yes, static_no)]"},
    {"rules", (PyCFunction)m_rules, METH_NOARGS, "the rule numbers (red_bonus, two_player_bonus_max)"},
    {"size", (PyCFunction)m_size, METH_NOARGS, "table entries"},
    {"bytes", (PyCFunction)m_bytes, METH_NOARGS, "table memory in bytes"},
    {"clear", (PyCFunction)m_clear, METH_NOARGS, "forget every table entry"},
    {nullptr, nullptr, 0, nullptr}};

static PyTypeObject EngineType = {PyVarObject_HEAD_INIT(nullptr, 0)};

static PyObject* set_budget_exception(PyObject*, PyObject* cls) {
    Py_XINCREF(cls);
    Py_XSETREF(budget_error, cls);
    Py_RETURN_NONE;
}

static PyObject* pool_bytes(PyObject*, PyObject*) {
#ifdef __linux__
    return PyLong_FromSize_t(catbox::Pool::process().bytes());
#else
    return PyLong_FromSize_t(0);
#endif
}

static PyObject* drop_pool(PyObject*, PyObject*) {
#ifdef __linux__
    catbox::Pool::process().fit(true);
#endif
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_budget_exception", set_budget_exception, METH_O,
     "the exception class raised when a node or time limit runs out"},
    {"pool_bytes", pool_bytes, METH_NOARGS,
     "table memory dropped tables left for the next ones (bytes; table.h Pool)"},
    {"drop_pool", drop_pool, METH_NOARGS, "that memory back to the system"},
    {nullptr, nullptr, 0, nullptr}};

static PyModuleDef native_module = {PyModuleDef_HEAD_INIT, "_native",
                                    "catbox native search core (C++17)", -1, module_methods};

PyMODINIT_FUNC PyInit__native(void) {
    EngineType.tp_name = "catbox.solver.search._native.Engine";
    EngineType.tp_basicsize = sizeof(PyEngine);
    EngineType.tp_flags = Py_TPFLAGS_DEFAULT;
    EngineType.tp_doc = "Engine(players, seat, max_number, prediction, adjacency, cap_bytes)";
    EngineType.tp_new = engine_new;
    EngineType.tp_init = (initproc)engine_init;
    EngineType.tp_dealloc = (destructor)engine_dealloc;
    EngineType.tp_methods = engine_methods;
    if (PyType_Ready(&EngineType) < 0) return nullptr;
    PyObject* m = PyModule_Create(&native_module);
    if (!m) return nullptr;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject*)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
