/*
 * GADDAG builder: sorted word list -> minimised flat automaton (see gaddag.h).
 *
 * Included by _core.c (single translation unit).  Pure C, no Python API, so the caller
 * may release the GIL around gb_build().
 *
 * Steps:
 *  1. check the words (A-Z, 2..15 letters, strictly increasing) and size the buffers;
 *  2. write every GADDAG string of every word into one byte buffer (letters 1..26,
 *     separator 27, terminator 0);
 *  3. sort the strings with an MSD radix sort;
 *  4. build the minimal acyclic automaton incrementally (Daciuk et al. 2000, sorted
 *     input): the path of the previous string stays "open"; when the next string leaves
 *     it, the states below the divergence are replaced by an equivalent registered state
 *     or registered themselves (hash table keyed by final flag + edges);
 *  5. lay the registered states out breadth first from the root into the cell array.
 */
#include <stdlib.h>
#include <string.h>

#include "gaddag.h"

#define GB_MAX_WORD 15
#define GB_MAX_STR (GB_MAX_WORD + 1) /* letters + separator */
#define GB_SEP_BYTE 27

enum {
    GB_OK = 0,
    GB_ERR_MEMORY = 1,
    GB_ERR_CHAR = 2,
    GB_ERR_LENGTH = 3,
    GB_ERR_ORDER = 4,
    GB_ERR_TOO_BIG = 5,
};

typedef struct {
    int error;           /* GB_* */
    size_t error_line;   /* 1-based line of the offending word */
    size_t n_words;
    size_t n_states;
    uint32_t *cells;     /* malloc'ed result */
    size_t n_cells;
} GbResult;

/* ---------------------------------------------------------------- sorting */

static void gb_insertion(const uint8_t *s, uint32_t *a, size_t n, size_t d) {
    for (size_t i = 1; i < n; i++) {
        uint32_t v = a[i];
        const char *sv = (const char *)s + v + d;
        size_t j = i;
        while (j > 0 && strcmp((const char *)s + a[j - 1] + d, sv) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* Strings are distinct and 0-terminated; bytes are 0..27. */
static void gb_msd(const uint8_t *s, uint32_t *a, uint32_t *aux, size_t n, size_t d) {
    if (n < 32) {
        gb_insertion(s, a, n, d);
        return;
    }
    size_t count[29] = {0};
    for (size_t i = 0; i < n; i++) count[s[a[i] + d] + 1]++;
    for (int b = 1; b < 29; b++) count[b] += count[b - 1];
    size_t start[28];
    memcpy(start, count, sizeof start);
    for (size_t i = 0; i < n; i++) aux[count[s[a[i] + d]]++] = a[i];
    memcpy(a, aux, n * sizeof *a);
    /* bucket 0: strings that end here (at most one since strings are distinct) */
    for (int b = 1; b < 28; b++) {
        size_t lo = start[b], hi = (b + 1 < 28) ? start[b + 1] : n;
        if (hi - lo > 1) gb_msd(s, a + lo, aux, hi - lo, d + 1);
    }
}

/* ------------------------------------------------------------- minimising */

typedef struct {
    uint8_t n;
    uint8_t final;
    uint8_t letter[28];
    uint32_t child[28];
} GbOpen;

typedef struct {
    /* registered states, ids 1..n (0 = none) */
    uint32_t *first; /* index of first edge in the edge pool */
    uint8_t *nedge;
    uint8_t *final;
    uint32_t *hash;
    size_t n, cap;
    /* edge pool */
    uint8_t *e_letter;
    uint32_t *e_child;
    size_t ne, ecap;
    /* open-addressing table of ids */
    uint32_t *table;
    size_t tsize;
    int oom;
} GbReg;

static uint32_t gb_hash(const GbOpen *st) {
    uint64_t h = 1469598103934665603ull ^ st->final;
    for (int i = 0; i < st->n; i++) {
        h = (h ^ st->letter[i]) * 1099511628211ull;
        h = (h ^ st->child[i]) * 1099511628211ull;
        h ^= h >> 29;
    }
    h ^= h >> 32;
    return (uint32_t)h;
}

static int gb_equal(const GbReg *r, uint32_t id, const GbOpen *st) {
    if (r->final[id] != st->final || r->nedge[id] != st->n) return 0;
    size_t f = r->first[id];
    for (int i = 0; i < st->n; i++) {
        if (r->e_letter[f + i] != st->letter[i] || r->e_child[f + i] != st->child[i]) return 0;
    }
    return 1;
}

static int gb_grow_table(GbReg *r) {
    size_t nsize = r->tsize ? r->tsize * 2 : (1u << 16);
    uint32_t *t = calloc(nsize, sizeof *t);
    if (!t) return 0;
    for (size_t id = 1; id <= r->n; id++) {
        size_t i = r->hash[id] & (nsize - 1);
        while (t[i]) i = (i + 1) & (nsize - 1);
        t[i] = (uint32_t)id;
    }
    free(r->table);
    r->table = t;
    r->tsize = nsize;
    return 1;
}

static int gb_reserve(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap : 1024;
    while (ncap < need) ncap *= 2;
    void *q = realloc(*p, ncap * elem);
    if (!q) return 0;
    *p = q;
    *cap = ncap;
    return 1;
}

/* Returns the id of the registered state equal to `st` (registering it if new), 0 on OOM. */
static uint32_t gb_register(GbReg *r, const GbOpen *st) {
    if ((r->n + 1) * 2 > r->tsize && !gb_grow_table(r)) return 0;
    uint32_t h = gb_hash(st);
    size_t i = h & (r->tsize - 1);
    while (r->table[i]) {
        if (gb_equal(r, r->table[i], st)) return r->table[i];
        i = (i + 1) & (r->tsize - 1);
    }
    size_t id = r->n + 1;
    if (id >= 0x7FFFFFFFu) return 0;
    size_t cap = r->cap;
    if (id + 1 > cap) {
        size_t c1 = cap, c2 = cap, c3 = cap, c4 = cap;
        if (!gb_reserve((void **)&r->first, &c1, id + 1, sizeof *r->first) ||
            !gb_reserve((void **)&r->nedge, &c2, id + 1, sizeof *r->nedge) ||
            !gb_reserve((void **)&r->final, &c3, id + 1, sizeof *r->final) ||
            !gb_reserve((void **)&r->hash, &c4, id + 1, sizeof *r->hash))
            return 0;
        r->cap = c1;
    }
    size_t ecap2 = r->ecap;
    if (!gb_reserve((void **)&r->e_letter, &r->ecap, r->ne + st->n, sizeof *r->e_letter) ||
        !gb_reserve((void **)&r->e_child, &ecap2, r->ne + st->n, sizeof *r->e_child))
        return 0;
    r->first[id] = (uint32_t)r->ne;
    r->nedge[id] = st->n;
    r->final[id] = st->final;
    r->hash[id] = h;
    for (int k = 0; k < st->n; k++) {
        r->e_letter[r->ne + k] = st->letter[k];
        r->e_child[r->ne + k] = st->child[k];
    }
    r->ne += st->n;
    r->n = id;
    r->table[i] = (uint32_t)id;
    return (uint32_t)id;
}

static void gb_reg_free(GbReg *r) {
    free(r->first);
    free(r->nedge);
    free(r->final);
    free(r->hash);
    free(r->e_letter);
    free(r->e_child);
    free(r->table);
}

/* ------------------------------------------------------------------ build */

static void gb_build(const char *blob, size_t len, GbResult *res) {
    memset(res, 0, sizeof *res);
    uint8_t *strs = NULL;
    uint32_t *offs = NULL, *aux = NULL, *order = NULL, *where = NULL;
    GbReg reg;
    memset(&reg, 0, sizeof reg);

    /* 1. check words, count strings and bytes */
    size_t n_words = 0, n_strings = 0, n_bytes = 0;
    const char *prev = NULL;
    size_t prev_len = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *w = blob + pos;
        const char *nl = memchr(w, '\n', len - pos);
        size_t wl = nl ? (size_t)(nl - w) : len - pos;
        n_words++;
        if (wl < 2 || wl > GB_MAX_WORD) {
            res->error = GB_ERR_LENGTH;
            res->error_line = n_words;
            return;
        }
        for (size_t k = 0; k < wl; k++) {
            if (w[k] < 'A' || w[k] > 'Z') {
                res->error = GB_ERR_CHAR;
                res->error_line = n_words;
                return;
            }
        }
        if (prev) {
            size_t m = prev_len < wl ? prev_len : wl;
            int c = memcmp(prev, w, m);
            if (c > 0 || (c == 0 && prev_len >= wl)) {
                res->error = GB_ERR_ORDER;
                res->error_line = n_words;
                return;
            }
        }
        prev = w;
        prev_len = wl;
        n_strings += wl;
        n_bytes += (wl - 1) * (wl + 2) + wl + 1;
        pos += wl + 1;
    }
    res->n_words = n_words;
    if (n_bytes >= 0xFFFFFFFFu || n_strings >= 0xFFFFFFFFu) {
        res->error = GB_ERR_TOO_BIG;
        return;
    }

    /* 2. write the GADDAG strings */
    strs = malloc(n_bytes + 1);
    offs = malloc((n_strings + 1) * sizeof *offs);
    aux = malloc((n_strings + 1) * sizeof *aux);
    if (!strs || !offs || !aux) goto oom;
    {
        size_t o = 0, si = 0;
        pos = 0;
        while (pos < len) {
            const char *w = blob + pos;
            const char *nl = memchr(w, '\n', len - pos);
            size_t wl = nl ? (size_t)(nl - w) : len - pos;
            for (size_t i = 1; i <= wl; i++) {
                offs[si++] = (uint32_t)o;
                for (size_t k = i; k-- > 0;) strs[o++] = (uint8_t)(w[k] - 'A' + 1);
                if (i < wl) {
                    strs[o++] = GB_SEP_BYTE;
                    for (size_t k = i; k < wl; k++) strs[o++] = (uint8_t)(w[k] - 'A' + 1);
                }
                strs[o++] = 0;
            }
            pos += wl + 1;
        }
    }

    /* 3. sort */
    if (n_strings > 1) gb_msd(strs, offs, aux, n_strings, 0);
    free(aux);
    aux = NULL;

    /* 4. incremental minimisation */
    {
        GbOpen path[GB_MAX_STR + 2];
        memset(&path[0], 0, sizeof path[0]);
        size_t plen = 0;
        const uint8_t *ps = NULL;
        for (size_t si = 0; si < n_strings; si++) {
            const uint8_t *s = strs + offs[si];
            size_t slen = strlen((const char *)s);
            size_t cp = 0;
            if (ps) {
                while (cp < plen && cp < slen && ps[cp] == s[cp]) cp++;
            }
            for (size_t d = plen; d > cp; d--) {
                uint32_t id = gb_register(&reg, &path[d]);
                if (!id) goto oom;
                path[d - 1].child[path[d - 1].n - 1] = id;
            }
            for (size_t d = cp; d < slen; d++) {
                GbOpen *st = &path[d];
                st->letter[st->n] = s[d];
                st->child[st->n] = 0;
                st->n++;
                memset(&path[d + 1], 0, sizeof path[d + 1]);
            }
            path[slen].final = 1;
            plen = slen;
            ps = s;
        }
        for (size_t d = plen; d > 0; d--) {
            uint32_t id = gb_register(&reg, &path[d]);
            if (!id) goto oom;
            path[d - 1].child[path[d - 1].n - 1] = id;
        }
        uint32_t root = gb_register(&reg, &path[0]);
        if (!root) goto oom;
        free(strs);
        strs = NULL;
        free(offs);
        offs = NULL;
        free(reg.table);
        reg.table = NULL;

        /* 5. breadth-first layout, root first */
        size_t n = reg.n;
        order = malloc((n + 1) * sizeof *order);
        where = malloc((n + 1) * sizeof *where);
        if (!order || !where) goto oom;
        for (size_t i = 0; i <= n; i++) where[i] = UINT32_MAX;
        size_t head = 0, tail = 0;
        size_t next = 0;
        order[tail++] = root;
        where[root] = 0;
        next = 1 + reg.nedge[root];
        while (head < tail) {
            uint32_t id = order[head++];
            size_t f = reg.first[id];
            for (int k = 0; k < reg.nedge[id]; k++) {
                uint32_t c = reg.e_child[f + k];
                if (where[c] == UINT32_MAX) {
                    where[c] = (uint32_t)next;
                    next += 1 + reg.nedge[c];
                    order[tail++] = c;
                }
            }
            if (next >= 0x7FFFFFFFu) {
                res->error = GB_ERR_TOO_BIG;
                goto done;
            }
        }
        uint32_t *cells = malloc((next ? next : 1) * sizeof *cells);
        if (!cells) goto oom;
        size_t o = 0;
        for (size_t qi = 0; qi < tail; qi++) {
            uint32_t id = order[qi];
            size_t f = reg.first[id];
            uint32_t mask = 0;
            for (int k = 0; k < reg.nedge[id]; k++) mask |= 1u << (reg.e_letter[f + k] - 1);
            cells[o++] = mask;
            for (int k = 0; k < reg.nedge[id]; k++) {
                uint32_t c = reg.e_child[f + k];
                cells[o++] = (where[c] << 1) | (reg.final[c] ? 1u : 0u);
            }
        }
        res->cells = cells;
        res->n_cells = o;
        res->n_states = tail;
    }
    goto done;

oom:
    res->error = GB_ERR_MEMORY;
done:
    free(strs);
    free(offs);
    free(aux);
    free(order);
    free(where);
    gb_reg_free(&reg);
}
