// catbox native search core: transposition tables keyed by the canonical state.
//
// Open addressing in buckets of four slots. A table doubles while every table of the process
// together stays under the memory cap (Budget); a new entry for a full bucket replaces the
// entry that cost the least search work (nodes below it, as a class kept in its tag), so cheap
// facts go first. Dropped tables leave their memory to the next ones (Pool).
#pragma once
#include <cstdint>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>
#include <vector>
#ifdef __linux__
#include <pthread.h>
#include <sys/mman.h>
#endif

#include "core.h"

namespace catbox {

struct Key {
    uint64_t w[5];
    bool operator==(const Key& o) const {
        return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && w[3] == o.w[3] &&
               w[4] == o.w[4];
    }
    uint64_t hash() const {
        uint64_t h = 0x9E3779B97F4A7C15ULL;
        for (uint64_t x : w) {
            h ^= x;
            h *= 0xBF58476D1CE4E5B9ULL;
            h ^= h >> 31;
        }
        return h;
    }
};

struct KeyHash {
    size_t operator()(const Key& k) const { return (size_t)k.hash(); }
};

// The canonical state for the rest of the round, without any trick count: cells of numbers no
// hand holds any more can never be played again and are dropped (only "red is broken", L3a,
// stays as one bit); the trick fields are all -1 between tricks. With `symmetric`, blue,
// yellow and green are put in a canonical order (sorted by their rows, every seat's
// permission for them, whether they are led, and with `mine` S's tokens in them): the rules
// treat the three alike, so colour-permuted states have the same answers.
//
// With `norm` (Options::search SEARCH_NORM) the key keeps only what the rest of the round can
// use. Let F_q be the cells seat q can fill now: empty (L1), of a number q holds, in a colour
// q still holds (L2). These only shrink (I4), and every legal play of q from now on is a cell
// of F_q (L1-L3; L3's "can declare blue, yellow or green" is a test on F_q too). So:
// - a cell in no F_q is never filled again: it is "used" (the board reduces to the union U of
//   the F_q as free, everything else used; "red is broken" stays one bit, L3a);
// - q's permission for a colour without a cell of F_q is never used again (F2 only takes
//   permissions away): dropped;
// - q's count of a number k is capped at |F_q ∩ column k|: with h >= f copies q still holds
//   one whenever a cell of k is left for it (each of its plays of k fills one such cell, a play
//   of another seat fills one without using q's copies), and the counts with no cell left are
//   dead cards, never played (E1 ends the round by the trick count, not the hand size).
// Two states with equal keys have equal F_q at every step of every line, hence equal legal
// plays, trick winners (W1 compares only the cards played) and paradoxes (X1): the same
// answers for every goal of win, para and pn. value keys add S's tokens (`mine`), which
// decide the groups (Sc3); a cell nobody can fill is not S's and never becomes S's either.
// The least of a and b in each of nine 3-bit count fields: the even and the odd fields
// apart, each with the next field's bits as room for a guard bit per field
inline uint32_t min_fields(uint32_t a, uint32_t b) {
    constexpr uint32_t EVEN = 0x71C71C7u;   // fields 0, 2, 4, 6, 8
    constexpr uint32_t GUARD = 0x8208208u;  // bit 3 of each of them
    auto half = [](uint32_t x, uint32_t y) {
        uint32_t m = (((x | GUARD) - y) & GUARD) >> 3;  // 1 where x >= y
        m *= 7;
        return (y & m) | (x & (m ^ EVEN));
    };
    return half(a & EVEN, b & EVEN) | half(a >> 3 & EVEN, b >> 3 & EVEN) << 3;
}

inline Key core_key(const Ctx& cx, const State& st, bool symmetric = false, bool mine = false,
                    bool norm = false) {
    uint64_t alive = 0;
    uint32_t hands[MAX_SEATS] = {};
    uint32_t perms = st.perms;
    uint64_t occ;
    if (norm) {
        perms = 0;
        const int n = cx.n;
        const uint64_t row = (1ULL << n) - 1;
        // (branch-free: a loop over the numbers held twice or more and one over the colours
        // held core_key's hottest lines, core_key 11 % of a df-pn probe's CPU; same keys)
        constexpr uint32_t ONE = 0x1249249u;  // bit 0 of each 3-bit count field
        for (int q = 0; q < cx.players; ++q) {
            uint64_t f = cx.hand_cols(st.hand[q]) & ~st.occ & cx.perm_cells(st, q);
            alive |= f;
            uint32_t r0 = (uint32_t)(f & row), r1 = (uint32_t)(f >> n & row),
                     r2 = (uint32_t)(f >> 2 * n & row), r3 = (uint32_t)(f >> 3 * n & row);
            // each count capped at its cells in F_q (0 for a number without one)
            uint32_t e = (cx.fields[r0] & ONE) + (cx.fields[r1] & ONE) + (cx.fields[r2] & ONE) +
                         (cx.fields[r3] & ONE);
            hands[q] = min_fields(st.hand[q], e);
            perms |= (uint32_t)((r0 != 0) | (r1 != 0) << 1 | (r2 != 0) << 2 | (r3 != 0) << 3)
                     << (4 * q);
        }
        occ = cx.pc[15] & ~alive;
    } else {
        for (int q = 0; q < cx.players; ++q) {
            alive |= cx.hand_cols(st.hand[q]);
            hands[q] = st.hand[q];
        }
        occ = st.occ & alive;
    }
    int led = st.led;
    uint64_t mine_bits = st.mine;
    if (symmetric) {
        const int n = cx.n;
        const uint64_t row = (1ULL << n) - 1;
        uint64_t sig[4];
        int src[4] = {0, 1, 2, 3};
        for (int c = 1; c <= 3; ++c) {
            sig[c] = (occ >> (c * n) & row) | (uint64_t)((perms >> c) & 0x11111u) << 9 |
                     (uint64_t)(led == c) << 29;
            if (mine) sig[c] |= (mine_bits >> (c * n) & row) << 30;
        }
        // sort colours 1..3 by signature (three compare-exchanges)
        auto cx_ = [&](int i, int j) {
            if (sig[src[i]] > sig[src[j]]) std::swap(src[i], src[j]);
        };
        cx_(1, 2);
        cx_(2, 3);
        cx_(1, 2);
        if (src[1] != 1 || src[2] != 2 || src[3] != 3) {
            uint64_t o = occ & row, m = mine_bits & row;
            uint32_t p = perms & 0x11111u;
            int l = led <= 0 ? led : -2;
            for (int j = 1; j <= 3; ++j) {
                int c = src[j];
                o |= (occ >> (c * n) & row) << (j * n);
                m |= (mine_bits >> (c * n) & row) << (j * n);
                p |= ((perms >> c) & 0x11111u) << j;
                if (led == c) l = j;
            }
            occ = o;
            mine_bits = m;
            perms = p;
            led = l;
        }
    }
    if (st.occ & cx.red) occ |= cx.broken_bit;
    Key k;
    k.w[0] = occ | (uint64_t)perms << 37 | (uint64_t)st.leader << 57 | (uint64_t)st.cnt << 60;
    k.w[1] = hands[0] | (uint64_t)hands[1] << 27 | (uint64_t)(led + 1) << 54 |
             (uint64_t)(st.wseat + 1) << 57;
    k.w[2] = hands[2] | (uint64_t)hands[3] << 27 | (uint64_t)(st.wval + 1) << 54;
    // the two kinds of keys never meet; normalised hands (dead cards dropped) do not tell the
    // tricks left, which decide when the round ends (E1)
    k.w[3] = hands[4] | (uint64_t)norm << 39 | (norm ? (uint64_t)st.left << 31 : 0);
    k.w[4] = mine ? mine_bits : 0;
    return k;
}

// A hint to fetch the cache line at p. On x86-64 an explicit prefetcht0: g++ 12 -O2/-O3
// deleted both __builtin_prefetch calls of Table::prefetch (the tags' and the slots' line of
// one bucket; either alone was kept), so until this change no table prefetch was ever executed.
inline void prefetch_line(const void* p) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
    __builtin_prefetch(p);
#endif
}

// The memory of every table of every engine in the process together (one cap for all the
// engines the API keeps, one per asking seat).
struct Budget {
    std::atomic<size_t> cap_bytes{size_t(1) << 30};
    std::atomic<size_t> used{0};
};

inline Budget& process_budget() {
    static Budget budget;
    return budget;
}

constexpr size_t HUGE_PAGE = size_t(2) << 20;

#ifdef __linux__
// Table memory a dropped table gave back, kept (mapped) for the tables that grow next, so
// that the kernel need not zero fresh pages for them: a session's engines, a batch's jobs and
// the helper engines of a shared search are made and dropped many times in one process.
// Whole 2 MiB pieces only, moved (mremap, no copy) to where a table grows. Kept only while
// the tables' memory and the kept memory together stay under the process's cap (Budget).
// One lock for the process: tables grow and are dropped rarely (a table doubles). A fork
// waits for it (a worker process forked while another thread held it would never get it).
class Pool {
  public:
    static Pool& process() {
        static Pool pool;
        return pool;
    }

    // Takes [p, p + bytes) (2 MiB aligned) if it fits under the cap; false: the caller
    // unmaps it.
    bool keep(char* p, size_t bytes) {
        std::lock_guard<std::mutex> lock(mu_);
        Budget& b = process_budget();
        if (!bytes || b.used + bytes_ + bytes > b.cap_bytes) return false;  // (fit trims)
        spans_.push_back({p, bytes});
        bytes_ += bytes;
        return true;
    }

    // Moves kept pages to the first `got` bytes of [dst, dst + len) (dst 2 MiB aligned, len a
    // multiple of 2 MiB, in a mapping of the caller's); they hold what a table before wrote.
    size_t fill(char* dst, size_t len) {
        std::lock_guard<std::mutex> lock(mu_);
        size_t got = 0;
        while (got < len && !spans_.empty()) {
            auto& [p, n] = spans_.back();
            size_t m = n < len - got ? n : len - got;
            if (mremap(p, m, m, MREMAP_MAYMOVE | MREMAP_FIXED, dst + got) == MAP_FAILED) break;
            p += m;
            n -= m;
            bytes_ -= m;
            got += m;
            if (!n) spans_.pop_back();
        }
        return got;
    }

    size_t bytes() {
        std::lock_guard<std::mutex> lock(mu_);
        return bytes_;
    }

    // kept pages back to the system until the tables and the pool fit under the cap again
    // (after a table grew, or the cap was lowered); everything with `all`
    void fit(bool all = false) {
        std::lock_guard<std::mutex> lock(mu_);
        Budget& b = process_budget();
        while (!spans_.empty() && (all || b.used + bytes_ > b.cap_bytes)) {
            auto [p, n] = spans_.back();
            spans_.pop_back();
            munmap(p, n);
            bytes_ -= n;
        }
    }

  private:
    Pool() { pthread_atfork(&before_fork, &after_fork, &after_fork); }
    static void before_fork() { process().mu_.lock(); }
    static void after_fork() { process().mu_.unlock(); }

    std::mutex mu_;
    std::vector<std::pair<char*, size_t>> spans_;
    size_t bytes_ = 0;
};
#endif

// Storage for a table; on Linux from mmap with transparent huge pages requested (the tables
// are probed at random: 2 MiB pages save most TLB misses), aligned to 2 MiB so that every page
// of it can be a huge one, and grown in place (`grow`): the old pages are moved, not copied,
// and the new part is the Pool's pages where it has them, else fresh memory for the kernel
// to zero. `Zero`: every element reads zero until written; else only what this buffer wrote
// is defined (the Pool's pages hold old contents).
template <class T, bool Zero = true>
class Buffer {
  public:
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { release(); }

    void assign(size_t n) {  // n zeroed elements
        release();
        bytes_ = n * sizeof(T);
        data_ = static_cast<T*>(fresh(bytes_));
        n_ = n;
    }
    // n >= size() elements: the first size() kept, the rest zeroed (Zero) or undefined
    void grow(size_t n) {
        size_t bytes = n * sizeof(T);
#ifdef __linux__
        char* p = static_cast<char*>(fresh(bytes));
        // the old pages moved (not copied) to the start of the new span
        if (data_ && mremap(data_, bytes_, bytes_, MREMAP_MAYMOVE | MREMAP_FIXED, p) ==
                         MAP_FAILED) {
            munmap(p, bytes);
            throw std::bad_alloc();
        }
        // the whole 2 MiB pieces of the new part from the pool
        uintptr_t at = reinterpret_cast<uintptr_t>(p);
        uintptr_t from = (at + bytes_ + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        uintptr_t to = (at + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);
        if (to > from) {
            size_t got = Pool::process().fill(reinterpret_cast<char*>(from), to - from);
            if (Zero && got) std::memset(reinterpret_cast<char*>(from), 0, got);
        }
#else
        void* p = std::realloc(data_, bytes);
        if (!p) throw std::bad_alloc();
        std::memset(static_cast<char*>(p) + bytes_, 0, bytes - bytes_);
#endif
        data_ = reinterpret_cast<T*>(p);
        n_ = n;
        bytes_ = bytes;
    }
    size_t size() const { return n_; }
    T* data() { return data_; }
    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }

  private:
    // `bytes` of zeroed memory (at a 2 MiB boundary when that big, huge pages requested)
    static void* fresh(size_t bytes) {
#ifdef __linux__
        bool huge = bytes >= HUGE_PAGE;
        size_t span = huge ? bytes + HUGE_PAGE : bytes;
        void* p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        if (!huge) return p;
        uintptr_t at = reinterpret_cast<uintptr_t>(p);
        uintptr_t aligned = (at + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        if (aligned > at) munmap(p, aligned - at);  // the unaligned head and tail back
        uintptr_t end = aligned + bytes;
        if (end < at + span) munmap(reinterpret_cast<void*>(end), at + span - end);
        p = reinterpret_cast<void*>(aligned);
        if (!std::getenv("CATBOX_NO_HUGEPAGES")) madvise(p, bytes, MADV_HUGEPAGE);
        return p;
#else
        void* p = std::calloc(bytes, 1);
        if (!p) throw std::bad_alloc();
        return p;
#endif
    }
    void release() {
        if (!data_) return;
#ifdef __linux__
        // its whole 2 MiB pieces to the pool (a span of 2 MiB or more starts at a 2 MiB
        // boundary: fresh), the rest unmapped
        char* p = reinterpret_cast<char*>(data_);
        size_t whole = bytes_ >= HUGE_PAGE ? bytes_ & ~(HUGE_PAGE - 1) : 0;
        if (!Pool::process().keep(p, whole)) whole = 0;
        if (bytes_ > whole) munmap(p + whole, bytes_ - whole);
#else
        std::free(data_);
#endif
        data_ = nullptr;
        n_ = 0;
    }
    T* data_ = nullptr;
    size_t n_ = 0, bytes_ = 0;
};

// A key's last word as a slot keeps it: whole, or (`Short`) its low 40 bits in five bytes
// (read back with shifts: a copy through memory stalls on the store's forwarding)
template <bool Short>
struct LastWord {
    uint64_t w;
    uint64_t get() const { return w; }
    void set(uint64_t x) { w = x; }
};
template <>
struct __attribute__((packed)) LastWord<true> {
    uint32_t lo;
    uint8_t hi;
    uint64_t get() const { return (uint64_t)lo | (uint64_t)hi << 32; }
    void set(uint64_t x) {
        lo = (uint32_t)x;
        hi = (uint8_t)(x >> 32);
    }
};

// A table of entries P keyed by the first W words of a Key (the rest must be zero: the
// AND-OR, paradox and proof-number keys never use w[4], S's tokens; W = 4 there makes a win
// entry one 64-byte cache line).
//
// A slot keeps the key's last word whole, or its low 40 bits only when the entry is three
// bytes or less and W is 4 (para's entries): such a slot is 32 bytes, four to a bucket of two
// cache lines (48 bytes, with two of the four slots across two lines, before). Such a table
// must only hold keys whose last word is below 2^40 (two keys equal in the low 40 bits would
// be taken for each other): core_key's w[3] is hands[4] (bits 0-26), the tricks left (31-34)
// and the normalised flag (39). The proof-number keys add their goal above bit 40
// (pn.cpp goal_key), and their entries are too big for a short slot (search.h asserts it).
template <class P, int W = 5>
class Table {
  public:
    static constexpr bool SHORT = W == 4 && sizeof(P) <= 3;  // the last word's low 40 bits
    struct Slot {
        uint64_t key[W - 1];
        LastWord<SHORT> last;
        P data;
        bool holds(const Key& k) const {
            for (int i = 0; i < W - 1; ++i)
                if (key[i] != k.w[i]) return false;
            return last.get() == k.w[W - 1];
        }
        void set_key(const Key& k) {
            for (int i = 0; i < W - 1; ++i) key[i] = k.w[i];
            last.set(k.w[W - 1]);
        }
    };
    static uint64_t hash(const Key& k) { return k.hash(); }  // the words past W are zero
    static uint64_t hash(const Slot& s) {
        Key k{};
        for (int i = 0; i < W - 1; ++i) k.w[i] = s.key[i];
        k.w[W - 1] = s.last.get();
        return k.hash();
    }

    explicit Table(Budget* budget) : budget_(budget) { reset(); }
    ~Table() { budget_->used -= bytes(); }
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    size_t bytes() const { return slots_.size() * PER_SLOT; }

    void reset() {
        ++gen_;
        budget_->used -= bytes();
        size_t n = 1 << 12;
        slots_.assign(n);
        tags_.assign(n);
        budget_->used += n * PER_SLOT;
        mask_ = n - 1;
        count_ = 0;
    }

    size_t size() const { return count_; }

    // The slot of k, created from init when absent (possibly replacing the cheapest entry of
    // its bucket); `found` tells which. Valid until the next insert into this table.
    // A bucket is four slots; their 32-bit tags (0: empty) share one cache line, so a miss
    // touches one line and a hit two. A tag is 24 bits of the key's hash (never 0) over the
    // work class of its entry (set_work): choosing the entry to replace reads the tags only.
    // (Measured, bench_native.py --only speed, 4p / 5 seed 901, para's alpha-beta: with the
    // work in the slots, reading the four slots' work was 58 % of Table::insert's time.)
    Slot* insert(const Key& k, const P& init, bool* found = nullptr) {
        uint64_t h = hash(k);
        uint32_t tag = tag_of(h);
        size_t b = (size_t)h & mask_ & ~(size_t)3;
        const uint32_t* tg = &tags_[b];
        for (int i = 0; i < 4; ++i)
            if ((tg[i] & ~WORK) == tag && slots_[b + i].holds(k)) {
                if (found) *found = true;
                return &slots_[b + i];
            }
        if (found) *found = false;
        // doubles at three quarters full (buckets of four keep most entries there). Measured
        // (3p / 6 tricks left, alpha-beta, fresh tables, same run): doubling at half full,
        // the kernel zeroing the fresh pages of each bigger table took a quarter of the CPU
        // (1.5 s system time of 5.5 s): at three quarters 0.55 s of 4.1 s, nodes +0.5 %
        if ((count_ + 1) * 4 > slots_.size() * 3 && grow()) return insert(k, init, found);
        size_t j = place(b);
        if (!tags_[j]) ++count_;
        tags_[j] = tag;  // work class 0
        Slot& s = slots_[j];
        s.set_key(k);
        s.data = init;
        return &s;
    }

    // the search work (nodes) behind s's entry, its priority to stay (s: this table's)
    void set_work(const Slot* s, uint64_t nodes) {
        uint32_t& t = tags_[(size_t)(s - slots_.data())];
        t = (t & ~WORK) | work_class(nodes);
    }

    P* find(const Key& k) {
        Slot* s = lookup(k);
        return s ? &s->data : nullptr;
    }

    // k's slot, null when absent
    Slot* lookup(const Key& k) {
        uint64_t h = hash(k);
        uint32_t tag = tag_of(h);
        size_t b = (size_t)h & mask_ & ~(size_t)3;
        for (size_t i = b; i < b + 4; ++i)
            if ((tags_[i] & ~WORK) == tag && slots_[i].holds(k)) return &slots_[i];
        return nullptr;
    }

    // `s` if it still holds k (as revisit), else insert(k, init). The same slot as insert:
    // keys are unique in a table, so a slot holding k is the one insert would find.
    Slot* reuse(Slot* s, uint64_t gen, const Key& k, const P& init) {
        if (s) return revisit(s, gen, k, init);
        return insert(k, init);
    }

    // `s` if it still holds k (no insert since moved or replaced it), else k's slot anew.
    Slot* revisit(Slot* s, uint64_t gen, const Key& k, const P& init) {
        if (gen == gen_ && s->holds(k) && tags_[(size_t)(s - slots_.data())]) return s;
        return insert(k, init);
    }

    uint64_t generation() const { return gen_; }

    void prefetch(const Key& k) const {
        size_t b = (size_t)hash(k) & mask_ & ~(size_t)3;
        prefetch_line(&tags_[b]);
        prefetch_line(&slots_[b]);
    }

    // the line of k's bucket tags only. Measured (3p/7 seed 700 row 0 j = 2 probe, same
    // nodes, 3 runs each): df-pn's children prefetching the tags and first slot line of both
    // tables 11.3-11.6 s CPU, the tags only 10.7-11.0 s (every miss is a line more to wait for)
    void prefetch_tags(const Key& k) const {
        size_t b = (size_t)hash(k) & mask_ & ~(size_t)3;
        prefetch_line(&tags_[b]);
    }

    // every cache line of k's bucket (its tags and its four slots)
    void prefetch_bucket(const Key& k) const {
        size_t b = (size_t)hash(k) & mask_ & ~(size_t)3;
        prefetch_line(&tags_[b]);
        const char* p = reinterpret_cast<const char*>(&slots_[b]);
        const char* end = reinterpret_cast<const char*>(&slots_[b + 3] + 1);
        for (p = reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(p) & ~(uintptr_t)63);
             p < end; p += 64)
            prefetch_line(p);
    }

  private:
    static constexpr size_t PER_SLOT = sizeof(Slot) + sizeof(uint32_t);  // a slot and its tag
    static constexpr uint32_t WORK = 0xFF;  // a tag's low byte: its entry's work class
    static uint32_t tag_of(uint64_t h) { return ((uint32_t)(h >> 40) | 1) << 8; }
    // 0..255, four classes per doubling of the nodes: floor(4 log2(nodes + 1)), roughly
    static uint32_t work_class(uint64_t nodes) {
        uint64_t x = nodes + 1;
        int msb = 63 - __builtin_clzll(x);
        uint32_t frac = (uint32_t)(msb >= 2 ? x >> (msb - 2) : x << (2 - msb)) & 3;
        return 4 * (uint32_t)msb + frac;
    }

    // an empty slot of bucket b, else the one whose entry cost the least work
    size_t place(size_t b) const {
        size_t victim = b;
        for (size_t i = b; i < b + 4; ++i) {
            if (!tags_[i]) return i;
            if ((tags_[i] & WORK) < (tags_[victim] & WORK)) victim = i;
        }
        return victim;
    }

    // Doubles the table in place: bucket b of the old mask splits into b and b + n of the new
    // one (a bucket is four slots and n a multiple of four), each keeping its entries in their
    // old order, compacted from the bucket's first slot -- the same layout as inserting every
    // old entry in slot order into a fresh table twice the size, without a second table.
    bool grow() {
        size_t n = slots_.size();
        size_t more = n * PER_SLOT;
        if (budget_->used + more > budget_->cap_bytes) return false;  // at the cap
        ++gen_;
        slots_.grow(2 * n);
        tags_.grow(2 * n);
        budget_->used += more;
#ifdef __linux__
        Pool::process().fit();
#endif
        mask_ = 2 * n - 1;
        for (size_t b = 0; b < n; b += 4) {
            size_t stay = b, move = b + n;
            for (size_t i = b; i < b + 4; ++i) {
                uint32_t tag = tags_[i];
                if (!tag) continue;
                size_t j = (size_t)hash(slots_[i]) & mask_ & ~(size_t)3;
                j = j == b ? stay++ : move++;
                if (j == i) continue;
                slots_[j] = slots_[i];
                tags_[j] = tag;
                tags_[i] = 0;
            }
        }
        return true;
    }

    Budget* budget_;
    Buffer<Slot, false> slots_;  // a slot is read only under its tag
    Buffer<uint32_t> tags_;
    size_t mask_ = 0;
    size_t count_ = 0;
    uint64_t gen_ = 0;
};

}  // namespace catbox
