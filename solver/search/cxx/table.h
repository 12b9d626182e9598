// catbox native search core: transposition tables keyed by the canonical state.
//
// Open addressing in buckets of four slots. A table doubles while every table of the engine
// together stays under the memory cap; at the cap a new entry replaces the entry of its bucket
// that cost the least search work (nodes below it), so cheap facts go first.
#pragma once
#include <cstdint>
#include <vector>

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
// stays as one bit); the trick fields are all -1 between tricks.
inline Key core_key(const Ctx& cx, const State& st) {
    uint64_t alive = 0;
    for (int q = 0; q < cx.players; ++q) alive |= cx.hand_cols(st.hand[q]);
    uint64_t occ = st.occ & alive;
    if (st.occ & cx.red) occ |= cx.broken_bit;
    Key k;
    k.w[0] = occ | (uint64_t)st.perms << 37 | (uint64_t)st.leader << 57 | (uint64_t)st.cnt << 60;
    k.w[1] = st.hand[0] | (uint64_t)st.hand[1] << 27 | (uint64_t)(st.led + 1) << 54 |
             (uint64_t)(st.wseat + 1) << 57;
    k.w[2] = st.hand[2] | (uint64_t)st.hand[3] << 27 | (uint64_t)(st.wval + 1) << 54;
    k.w[3] = st.hand[4];
    k.w[4] = 0;
    return k;
}

struct Budget {
    size_t cap_bytes;  // every table of one engine together
    size_t used = 0;
};

template <class P>
class Table {
  public:
    struct Slot {
        Key key;
        uint32_t work;  // nodes searched to get this entry (replacement priority)
        uint8_t used;
        P data;
    };

    explicit Table(Budget* budget) : budget_(budget) { reset(); }

    void reset() {
        budget_->used -= slots_.size() * sizeof(Slot);
        size_t n = 1 << 12;
        slots_.assign(n, Slot{});
        budget_->used += n * sizeof(Slot);
        mask_ = n - 1;
        count_ = 0;
    }

    size_t size() const { return count_; }

    P* find(const Key& k) {
        size_t b = (size_t)k.hash() & mask_ & ~(size_t)3;
        for (size_t i = b; i < b + 4; ++i)
            if (slots_[i].used && slots_[i].key == k) return &slots_[i].data;
        return nullptr;
    }

    // The entry of k, created from init when absent (possibly replacing a cheap one).
    // The pointer is valid until the next insert into this table.
    P* insert(const Key& k, const P& init, uint32_t work) {
        if (P* p = find(k)) {
            return p;
        }
        if ((count_ + 1) * 2 > slots_.size()) grow();
        Slot* s = place(k);
        if (!s->used) ++count_;
        s->key = k;
        s->used = 1;
        s->work = work;
        s->data = init;
        return &s->data;
    }

    void set_work(const Key& k, uint32_t work) {
        size_t b = (size_t)k.hash() & mask_ & ~(size_t)3;
        for (size_t i = b; i < b + 4; ++i)
            if (slots_[i].used && slots_[i].key == k) {
                slots_[i].work = work;
                return;
            }
    }

  private:
    Slot* place(const Key& k) {
        size_t b = (size_t)k.hash() & mask_ & ~(size_t)3;
        Slot* victim = &slots_[b];
        for (size_t i = b; i < b + 4; ++i) {
            if (!slots_[i].used) return &slots_[i];
            if (slots_[i].work < victim->work) victim = &slots_[i];
        }
        return victim;
    }

    void grow() {
        size_t n = slots_.size();
        if (budget_->used + n * sizeof(Slot) > budget_->cap_bytes) return;  // at the cap
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(2 * n, Slot{});
        budget_->used += n * sizeof(Slot);
        mask_ = 2 * n - 1;
        count_ = 0;
        for (const Slot& s : old)
            if (s.used) {
                Slot* d = place(s.key);
                if (!d->used) ++count_;
                *d = s;
            }
    }

    Budget* budget_;
    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t count_ = 0;
};

}  // namespace catbox
