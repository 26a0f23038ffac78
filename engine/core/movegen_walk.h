/*
 * The GADDAG walk of movegen.c, included twice by it: once as is, and on x86 once more
 * compiled for the POPCNT instruction (MG_WALK names the functions, MG_WALK_TARGET is the
 * target attribute, MG_EDGE the edge accessor).  A build for every x86-64 (no -mpopcnt)
 * counts an edge's rank with a dozen instructions; the second copy, chosen at run time when
 * the processor has POPCNT, uses the one instruction.  Not a header to include elsewhere.
 */

MG_WALK_TARGET static void MG_WALK(mg_left)(MgState *S, int p, uint32_t node, int64_t ms,
                                            int64_t wmul, int64_t ct, int placed);
MG_WALK_TARGET static void MG_WALK(mg_right)(MgState *S, int q, uint32_t node, int lo,
                                             int64_t ms, int64_t wmul, int64_t ct, int placed);

/* Positions p..a are covered; `edge` is the edge cell that consumed position p. */
MG_WALK_TARGET static inline void MG_WALK(mg_after_left)(MgState *S, int p, uint32_t edge,
                                                         int64_t ms, int64_t wmul, int64_t ct,
                                                         int placed) {
    uint32_t node = edge >> 1;
    const uint8_t *row = S->row;
    if (p > 0 && row[p - 1] != MG_EMPTY) {
        MG_WALK(mg_left)(S, p - 1, node, ms, wmul, ct, placed); /* the word must go on left */
        return;
    }
    int e = S->e;
    if ((edge & 1u) && (e == MG_N - 1 || row[e + 1] == MG_EMPTY))
        mg_record(S, p, e, ms, wmul, ct, placed);
    /* placed - 1 tiles are left of the anchor (none placed yet while p > a); going on left
     * places at least one more */
    const MgAnchor *A = S->cur;
    if (p > 0 && placed < S->max_place && (!A || A->left[placed] >= S->best))
        MG_WALK(mg_left)(S, p - 1, node, ms, wmul, ct, placed);
    /* turning right needs the anchor covered */
    if (p <= S->a && e < MG_N - 1 && (!A || A->right[placed - 1][0] >= S->best)) {
        uint32_t mask = g_mask(S->g, node);
        if (mask & (1u << G_SEP)) {
            uint32_t sep = MG_EDGE(S->g, node, mask, G_SEP);
            S->kl = placed - 1;
            MG_WALK(mg_right)(S, e + 1, sep >> 1, p, ms, wmul, ct, placed);
        }
    }
}

MG_WALK_TARGET static inline void MG_WALK(mg_after_right)(MgState *S, int q, uint32_t edge,
                                                          int lo, int64_t ms, int64_t wmul,
                                                          int64_t ct, int placed) {
    uint32_t node = edge >> 1;
    const uint8_t *row = S->row;
    if (q < MG_N - 1 && row[q + 1] != MG_EMPTY) {
        MG_WALK(mg_right)(S, q + 1, node, lo, ms, wmul, ct, placed); /* the word must go on right */
        return;
    }
    if (edge & 1u) mg_record(S, lo, q, ms, wmul, ct, placed);
    /* placed - 1 - kl tiles are right of the anchor; going on right places one more */
    const MgAnchor *A = S->cur;
    if (q < MG_N - 1 && placed < S->max_place &&
        (!A || A->right[S->kl][placed - S->kl] >= S->best))
        MG_WALK(mg_right)(S, q + 1, node, lo, ms, wmul, ct, placed);
}

/* Place or read the tile at position p (p <= a), going left. */
MG_WALK_TARGET static void MG_WALK(mg_left)(MgState *S, int p, uint32_t node, int64_t ms,
                                            int64_t wmul, int64_t ct, int placed) {
    const uint32_t *g = S->g;
    uint32_t mask = g_mask(g, node);
    uint8_t c = S->row[p];
    if (c != MG_EMPTY) {
        int L = c & 31;
        if (!(mask & (1u << L))) return;
        int joker = (c & MG_JOKER_FLAG) != 0;
        S->word[p] = (char)((joker ? 'a' : 'A') + L);
        MG_WALK(mg_after_left)(S, p, MG_EDGE(g, node, mask, L),
                               ms + (joker ? 0 : S->values[L]), wmul, ct, placed);
        return;
    }
    if (p != S->a && S->ranchor[p]) return; /* found from that anchor instead */
    if (placed >= S->max_place) return;
    uint32_t avail = mask & S->rxset[p] & (S->counts[MG_JOKER] ? G_LETTERS_MASK : S->letmask);
    if (!avail) return;
    int64_t lm = S->rlm[p], wm = S->rwm[p];
    int xf = S->rxflag[p];
    int64_t xs = S->rxsum[p];
    while (avail) {
        int L = __builtin_ctz(avail);
        avail &= avail - 1;
        uint32_t edge = MG_EDGE(g, node, mask, L);
        if (S->counts[L]) {
            int64_t tv = S->values[L] * lm;
            if (--S->counts[L] == 0) S->letmask &= ~(1u << L);
            S->word[p] = (char)('A' + L);
            MG_WALK(mg_after_left)(S, p, edge, ms + tv, wmul * wm,
                                   xf ? ct + (xs + tv) * wm : ct, placed + 1);
            if (S->counts[L]++ == 0) S->letmask |= 1u << L;
        }
        if (S->counts[MG_JOKER]) {
            S->counts[MG_JOKER]--;
            S->word[p] = (char)('a' + L);
            MG_WALK(mg_after_left)(S, p, edge, ms, wmul * wm, xf ? ct + xs * wm : ct,
                                   placed + 1);
            S->counts[MG_JOKER]++;
        }
    }
}

/* Place or read the tile at position q (q > a), going right; `lo` is the word's start. */
MG_WALK_TARGET static void MG_WALK(mg_right)(MgState *S, int q, uint32_t node, int lo,
                                             int64_t ms, int64_t wmul, int64_t ct, int placed) {
    const uint32_t *g = S->g;
    uint32_t mask = g_mask(g, node);
    uint8_t c = S->row[q];
    if (c != MG_EMPTY) {
        int L = c & 31;
        if (!(mask & (1u << L))) return;
        int joker = (c & MG_JOKER_FLAG) != 0;
        S->word[q] = (char)((joker ? 'a' : 'A') + L);
        MG_WALK(mg_after_right)(S, q, MG_EDGE(g, node, mask, L), lo,
                                ms + (joker ? 0 : S->values[L]), wmul, ct, placed);
        return;
    }
    if (placed >= S->max_place) return;
    uint32_t avail = mask & S->rxset[q] & (S->counts[MG_JOKER] ? G_LETTERS_MASK : S->letmask);
    if (!avail) return;
    int64_t lm = S->rlm[q], wm = S->rwm[q];
    int xf = S->rxflag[q];
    int64_t xs = S->rxsum[q];
    while (avail) {
        int L = __builtin_ctz(avail);
        avail &= avail - 1;
        uint32_t edge = MG_EDGE(g, node, mask, L);
        if (S->counts[L]) {
            int64_t tv = S->values[L] * lm;
            if (--S->counts[L] == 0) S->letmask &= ~(1u << L);
            S->word[q] = (char)('A' + L);
            MG_WALK(mg_after_right)(S, q, edge, lo, ms + tv, wmul * wm,
                                    xf ? ct + (xs + tv) * wm : ct, placed + 1);
            if (S->counts[L]++ == 0) S->letmask |= 1u << L;
        }
        if (S->counts[MG_JOKER]) {
            S->counts[MG_JOKER]--;
            S->word[q] = (char)('a' + L);
            MG_WALK(mg_after_right)(S, q, edge, lo, ms, wmul * wm, xf ? ct + xs * wm : ct,
                                    placed + 1);
            S->counts[MG_JOKER]++;
        }
    }
}
