/*
 * Which seven-tile moves can exist at all: the anagram sets of the 7- and 8-letter words.
 *
 * Included by _core.c.  A move placing all seven tiles of a joker-free rack on a span
 * holding no board tile spells a 7-letter anagram of the rack; on a span holding one board
 * tile x, an 8-letter anagram of the rack plus x.  Most racks have no such word, yet the
 * bingo bonus keeps every span with room for seven tiles above any other score, so the top
 * search would walk every such span to the end.  The set of sorted-letter keys of the 7-
 * and 8-letter words, built once per automaton on first use (a walk of the reversed word
 * prefixes of length <= 8 from the root), answers both questions in 27 lookups per search.
 */
#include <stdint.h>
#include <stdlib.h>

#include "gaddag.h"

typedef struct {
    uint64_t *keys; /* open addressing, 0 = empty slot */
    size_t cap;     /* a power of two */
    size_t n;
} BgSet;

/* The multiset of `len` letters given by counts (letters in order, 5 bits each) and its
 * length: never 0. */
static uint64_t bg_key(const int *counts, int len) {
    uint64_t k = (uint64_t)len;
    for (int L = 0; L < 26; L++)
        for (int c = counts[L]; c > 0; c--) k = k << 5 | (uint64_t)(L + 1);
    return k;
}

static size_t bg_slot(uint64_t key, size_t cap) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static int bg_contains(const BgSet *s, uint64_t key) {
    for (size_t i = bg_slot(key, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->keys[i] == key) return 1;
        if (!s->keys[i]) return 0;
    }
}

static int bg_insert(BgSet *s, uint64_t key) {
    if (2 * (s->n + 1) > s->cap) { /* keep the load under one half */
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *keys = calloc(cap, sizeof *keys);
        if (!keys) return -1;
        for (size_t j = 0; j < s->cap; j++) {
            uint64_t k = s->keys[j];
            if (!k) continue;
            size_t i = bg_slot(k, cap);
            while (keys[i]) i = (i + 1) & (cap - 1);
            keys[i] = k;
        }
        free(s->keys);
        s->keys = keys;
        s->cap = cap;
    }
    size_t i = bg_slot(key, s->cap);
    while (s->keys[i]) {
        if (s->keys[i] == key) return 0;
        i = (i + 1) & (s->cap - 1);
    }
    s->keys[i] = key;
    s->n++;
    return 0;
}

/* Reversed word prefixes from `node` (letters only, never the separator): a final edge at
 * depth 7 or 8 ends a whole reversed word of that length. */
static int bg_walk(BgSet *s, const uint32_t *g, uint32_t node, int depth, int *counts) {
    uint32_t mask = g_mask(g, node) & G_LETTERS_MASK;
    const uint32_t *edges = g + node + 1; /* letter edges first, in letter order */
    for (int k = 0; mask; k++) {
        int L = __builtin_ctz(mask);
        mask &= mask - 1;
        uint32_t e = edges[k];
        counts[L]++;
        int rc = 0;
        if (depth + 1 >= 7 && (e & 1u)) rc = bg_insert(s, bg_key(counts, depth + 1));
        if (rc == 0 && depth + 1 < 8) rc = bg_walk(s, g, e >> 1, depth + 1, counts);
        counts[L]--;
        if (rc) return rc;
    }
    return 0;
}

/* Builds the set; returns -1 when out of memory (the set is then empty and unused). */
static int bg_build(BgSet *s, const uint32_t *g) {
    int counts[26] = {0};
    if (bg_insert(s, 1) < 0 || bg_walk(s, g, 0, 0, counts) < 0) { /* key 1: never a word */
        free(s->keys);
        s->keys = NULL;
        s->cap = s->n = 0;
        return -1;
    }
    return 0;
}

/* For a rack of seven letters (counts, no joker): whether a 7-letter anagram exists, and
 * the letters x such that the rack plus x has an 8-letter anagram (bit x).  The keys of
 * rack + x are built by inserting x into the rack's sorted letters. */
static void bg_query(const BgSet *s, const int *counts, int *seven, uint32_t *eight) {
    int sorted[8], n = 0;
    for (int L = 0; L < 26; L++)
        for (int c = counts[L]; c > 0 && n < 7; c--) sorted[n++] = L;
    uint64_t key = 7;
    for (int i = 0; i < n; i++) key = key << 5 | (uint64_t)(sorted[i] + 1);
    *seven = bg_contains(s, key);
    uint32_t m = 0;
    for (int x = 0, at = 0; x < 26; x++) {
        while (at < n && sorted[at] <= x) at++; /* x goes after the letters <= x */
        uint64_t k8 = 8;
        for (int i = 0; i < at; i++) k8 = k8 << 5 | (uint64_t)(sorted[i] + 1);
        k8 = k8 << 5 | (uint64_t)(x + 1);
        for (int i = at; i < n; i++) k8 = k8 << 5 | (uint64_t)(sorted[i] + 1);
        if (bg_contains(s, k8)) m |= 1u << x;
    }
    *eight = m;
}
