/*
 * Move generator on the flat GADDAG (see gaddag.h and docs/engine.md).
 *
 * Included by _core.c.  Pure C, no Python API: the caller fills an MgInput and the board
 * tables MgState.B (a kept board, see _core.c, with the lines to bring up to date), releases
 * the GIL, calls mg_generate(), takes the GIL back and turns the MgMove records into Python
 * objects.
 *
 * The board is looked at through two "views": view 0 is the board itself (lines = rows,
 * positions = columns, horizontal moves), view 1 its transpose (lines = columns, positions
 * = rows, vertical moves).  Every move is generated along a line of one view.
 *
 * Per view and empty square we precompute:
 *   xset  letters allowed by the perpendicular word (all 26 when there is none),
 *   xflag whether a perpendicular word of >= 2 letters is formed,
 *   xsum  face value of the perpendicular word's existing tiles (jokers 0),
 *   anchor whether the square touches a tile (or is H8 on an empty board).
 *
 * For each anchor `a`, Gordon's GADDAG walk places the anchor tile, goes left (through
 * existing tiles, or onto empty squares that are NOT anchors), then crosses the separator
 * and goes right from a+1.  When tiles follow the anchor (a+1..e), the walk starts at e
 * and reads them before the anchor tile, then crosses the separator towards e+1.  Forbidding other anchors on the left part means a move is only
 * found from its leftmost newly covered anchor, and the GADDAG path for a given split point
 * is unique, so no move is produced twice within a view.  Letters are iterated over the set
 * of distinct letters (real tile, then joker), so equal rack tiles never duplicate a move.
 * A one-tile move forms at most one word per direction: it is kept in view 0 when it makes
 * a horizontal word of >= 2 letters, and in view 1 only when it does not.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gaddag.h"

#define MG_N 15
#define MG_SQ (MG_N * MG_N)
#define MG_EMPTY 0xFF
#define MG_JOKER_FLAG 0x40
#define MG_JOKER 26
#define MG_MAX_RACK 9

/* ALL: every move.  TOP: the best score and its ties, pruned by the anchor bounds (below).
 * COUNT: like TOP but nothing pruned, so `total` counts every legal move. */
enum { MG_MODE_ALL = 0, MG_MODE_TOP = 1, MG_MODE_COUNT = 2 };

/* Largest number of tiles placed left (or right) of the anchor, plus 2 for the tables. */
#define MG_K (MG_MAX_RACK + 1)
#define MG_NO_BOUND (-(1 << 30)) /* a span no move can take: below every score and -1 */

/* One anchor square of one view, with the score bounds of the moves found from it.
 * kl / kr = tiles placed left / right of the anchor (the anchor tile itself not counted).
 * right[kl][kr] = best bound over spans with exactly kl left and at least kr right tiles;
 * left[kl] = best bound over spans with at least kl left tiles (any right part). */
typedef struct {
    uint8_t view, line, a;
    int32_t bound;            /* = left[0], every move from this anchor */
    int32_t left[MG_K + 1];
    int32_t right[MG_K][MG_K + 1];
} MgAnchor;

typedef struct {
    int64_t score;
    uint8_t row, col, vertical, len, placed;
    char word[MG_N];
} MgMove;

/* The scoring rules of a call, premium tables already in both views. */
typedef struct {
    uint8_t lm[2][MG_N][MG_N], wm[2][MG_N][MG_N];
    int64_t values[27];
    int64_t bonus[MG_MAX_RACK + 1];
} MgRules;

/* What depends only on the board, the automaton and the letter values: the board in both
 * views and, per view and empty square, the cross-check facts and the anchor flag (zero on
 * covered squares).  _core.c keeps the last few per automaton and brings a kept one up to
 * date for the next board by recomputing only the lines through the squares that changed. */
typedef struct {
    uint8_t cell[2][MG_N][MG_N];
    uint32_t xset[2][MG_N][MG_N];
    int32_t xsum[2][MG_N][MG_N];
    uint8_t xflag[2][MG_N][MG_N];
    uint8_t anchor[2][MG_N][MG_N];
    int tiles; /* tiles on the board */
} MgBoard;

typedef struct {
    const uint32_t *cells; /* automaton */
    uint32_t root;
    uint8_t board[MG_SQ];  /* MG_EMPTY, letter 0..25, | MG_JOKER_FLAG for a joker */
    MgRules rules;
    int counts[27];        /* rack: letters then jokers */
    int max_place;         /* min(rack size, max tiles) */
    int mode;
    int debug;             /* compute the anchor bounds and each anchor's true best, no pruning */
    uint16_t dirty_rows, dirty_cols; /* lines of S->B to bring up to date (bit i = line i) */
    int bingo;             /* a 7-tile joker-free rack: bingo7 / bingo8 are known (bingo.c) */
    int bingo7;            /* some 7-letter word is an anagram of the rack */
    uint32_t bingo8;       /* bit x: some 8-letter word is an anagram of the rack + x */
} MgInput;

typedef struct {
    const uint32_t *g;
    /* walk state */
    int view, line, a;
    int e;                   /* where the walk starts: a, or the end of the tiles right of a */
    const uint8_t *row;      /* B.cell[view][line] */
    const uint8_t *rlm, *rwm, *rxflag, *ranchor;
    const uint32_t *rxset;
    const int32_t *rxsum;
    int counts[27];
    uint32_t letmask;        /* letters with counts > 0 */
    int max_place;
    char word[MG_N];
    /* bounds (top mode): the anchor being walked and its table; kl of the current right part */
    const MgAnchor *cur;
    int kl;
    MgAnchor *anchors;       /* every anchor of both views (the caller frees it) */
    size_t n_anchors;
    int32_t *abest;          /* debug: best score recorded per anchor, or NULL */
    size_t cur_index;
    /* output */
    int mode;
    MgMove *moves;
    size_t n, cap;
    int64_t best;
    size_t total;
    int oom;
    /* not cleared by mg_generate: the caller fills B (a kept board or anything, see
     * MgInput.dirty_rows) */
    int64_t values[27];
    int64_t bonus[MG_MAX_RACK + 1];
    const MgRules *R;
    const MgInput *in;
    MgBoard B;
} MgState;

/* ------------------------------------------------------------------ output */

static void mg_record(MgState *S, int lo, int hi, int64_t ms, int64_t wmul, int64_t ct,
                      int placed) {
    int len = hi - lo + 1;
    if (len < 2 || placed < 1) return;
    /* a one-tile move forming a horizontal word was already listed in view 0 */
    if (S->view == 1 && placed == 1 && S->rxflag[S->a]) return;
    int64_t score = ms * wmul + ct + S->bonus[placed];
    S->total++;
    if (S->abest && score > S->abest[S->cur_index]) S->abest[S->cur_index] = (int32_t)score;
    if (S->mode != MG_MODE_ALL) {
        if (score < S->best) return;
        if (score > S->best) {
            S->best = score;
            S->n = 0;
        }
    }
    if (S->oom) return;
    if (S->n == S->cap) {
        size_t ncap = S->cap ? S->cap * 2 : 256;
        MgMove *m = realloc(S->moves, ncap * sizeof *m);
        if (!m) {
            S->oom = 1;
            return;
        }
        S->moves = m;
        S->cap = ncap;
    }
    MgMove *m = &S->moves[S->n++];
    m->score = score;
    if (S->view == 0) {
        m->row = (uint8_t)S->line;
        m->col = (uint8_t)lo;
        m->vertical = 0;
    } else {
        m->row = (uint8_t)lo;
        m->col = (uint8_t)S->line;
        m->vertical = 1;
    }
    m->len = (uint8_t)len;
    m->placed = (uint8_t)placed;
    memset(m->word, 0, sizeof m->word); /* zero padding: see mg_word_order */
    memcpy(m->word, S->word + lo, (size_t)len);
}

/* -------------------------------------------------------------------- walk */

/* mg_left / mg_right (movegen_walk.h), and on x86 with GCC or Clang mg_left_hw / mg_right_hw,
 * the same walk with the POPCNT instruction, used when the processor has it. */
#define MG_WALK(name) name
#define MG_WALK_TARGET
#define MG_EDGE g_edge
#include "movegen_walk.h"
#undef MG_WALK
#undef MG_WALK_TARGET
#undef MG_EDGE

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define MG_HAVE_HW_WALK 1
__attribute__((target("popcnt"))) static inline uint32_t g_edge_hw(const uint32_t *cells,
                                                                   uint32_t node, uint32_t mask,
                                                                   int letter) {
    return cells[node + 1 + __builtin_popcount(mask & ((1u << letter) - 1u))];
}
#define MG_WALK(name) name##_hw
#define MG_WALK_TARGET __attribute__((target("popcnt")))
#define MG_EDGE g_edge_hw
#include "movegen_walk.h"
#undef MG_WALK
#undef MG_WALK_TARGET
#undef MG_EDGE
#else
#define MG_HAVE_HW_WALK 0
#endif

/* Whether the processor has POPCNT (set once by mg_init), and whether the walk uses it
 * (tests turn it off to check the portable copy too). */
static int mg_cpu_popcount = 0, mg_hw_popcount = 0;

static void mg_init(void) {
#if MG_HAVE_HW_WALK
    __builtin_cpu_init();
    mg_cpu_popcount = mg_hw_popcount = __builtin_cpu_supports("popcnt") != 0;
#endif
}


/* ---------------------------------------------------------------- bounds */

/* Upper bounds of the scores of the moves found from anchor `a` of line `line`, view `v`.
 *
 * A move from the anchor covers a span [lo, hi] fixed by kl and kr, the tiles it places left
 * and right of the anchor: the left part stops before another anchor (the move would be
 * found from there) or before an empty square no rack tile can fill (cross-check), the right
 * part before such a square; both run through the board's tiles.  For one span the exact
 * score is
 *     WM * (tiles on the board + sum lm_s v_s) + sum over cross squares (xsum_s + lm_s v_s) wm_s
 *     + bonus[k]
 * with WM the product of the word multipliers of the k squares covered.  Tile value v_s
 * counts c_s = lm_s (WM + wm_s [cross word]) times, so the best any rack can do is to pair
 * the largest c with the largest rack value (rearrangement inequality); jokers count 0.
 * Dictionary and cross-check letters are ignored, so this is never below the true score,
 * with one exception that is exact too: when the rack is seven tiles without a joker, a
 * span taking all seven with no board tile inside needs a 7-letter anagram of the rack, and
 * with one board tile x an 8-letter anagram of rack + x (MgInput.bingo7 / bingo8, from
 * bingo.c); without one the span holds no move and gets no bound.
 * `vs` holds the rack's tile values, largest first. */
static void mg_bound_anchor(const MgState *S, int v, int line, int a, uint32_t playable,
                            const int64_t *vs, MgAnchor *A) {
    const MgBoard *B = &S->B;
    const uint8_t *row = B->cell[v][line], *lm = S->R->lm[v][line], *wm = S->R->wm[v][line];
    const uint8_t *xf = B->xflag[v][line], *an = B->anchor[v][line];
    const uint32_t *xs = B->xset[v][line];
    const int32_t *xsum = B->xsum[v][line];
    int maxp = S->max_place;
    A->view = (uint8_t)v;
    A->line = (uint8_t)line;
    A->a = (uint8_t)a;
    for (int i = 0; i <= MG_K; i++) A->left[i] = MG_NO_BOUND;
    for (int i = 0; i < MG_K; i++)
        for (int j = 0; j <= MG_K; j++) A->right[i][j] = MG_NO_BOUND;

    int64_t tsum[MG_N + 1]; /* face value of the board's tiles before each position */
    tsum[0] = 0;
    for (int p = 0; p < MG_N; p++) {
        uint8_t c = row[p];
        tsum[p + 1] = tsum[p] + (c != MG_EMPTY && !(c & MG_JOKER_FLAG) ? S->values[c & 31] : 0);
    }
    int el[MG_K], m = 0, lstop = -1;
    for (int p = a - 1; p >= 0 && m < maxp; p--) {
        if (row[p] != MG_EMPTY) continue;
        if (an[p] || !(xs[p] & playable)) {
            lstop = p;
            break;
        }
        el[m++] = p;
    }
    int fr[MG_K], n = 0, rstop = MG_N;
    for (int q = a + 1; q < MG_N && n < maxp; q++) {
        if (row[q] != MG_EMPTY) continue;
        if (!(xs[q] & playable)) {
            rstop = q;
            break;
        }
        fr[n++] = q;
    }
    int KL = m < maxp - 1 ? m : maxp - 1, KR = n < maxp - 1 ? n : maxp - 1;
    int32_t best_any = MG_NO_BOUND;
    for (int kl = KL; kl >= 0; kl--) {
        int lo = kl < m ? el[kl] + 1 : lstop + 1;
        /* the span grows one right square at a time: WM, cross words and the weights (kept
         * sorted, largest first) are updated rather than rebuilt, unless a word premium
         * changes WM and so every weight */
        int sq[MG_K + 1], k = 0;
        sq[k++] = a;
        for (int i = 0; i < kl; i++) sq[k++] = el[i];
        int64_t WM = 1, cross = 0, c[MG_K + 1];
        for (int i = 0; i < k; i++) {
            WM *= wm[sq[i]];
            if (xf[sq[i]]) cross += xsum[sq[i]] * wm[sq[i]];
        }
        int stale = 1; /* c must be rebuilt from sq */
        for (int kr = 0; kr <= KR && kl + kr + 1 <= maxp; kr++) {
            if (kr > 0) { /* add square fr[kr - 1] */
                int s2 = fr[kr - 1];
                sq[k++] = s2;
                if (xf[s2]) cross += xsum[s2] * wm[s2];
                if (wm[s2] != 1) {
                    WM *= wm[s2];
                    stale = 1;
                } else if (!stale) {
                    int64_t ci = lm[s2] * (WM + (xf[s2] ? 1 : 0));
                    int j = k - 1;
                    while (j > 0 && c[j - 1] < ci) {
                        c[j] = c[j - 1];
                        j--;
                    }
                    c[j] = ci;
                }
            }
            int hi = kr < n ? fr[kr] - 1 : rstop - 1;
            if (hi - lo + 1 < 2) continue;
            if (k == 7 && S->in->bingo && hi - lo + 1 <= 8) {
                /* the word is the rack alone, or the rack and one board tile (bingo.c) */
                if (hi - lo + 1 == 7 && !S->in->bingo7) continue;
                if (hi - lo + 1 == 8) {
                    int x = 0;
                    for (int p = lo; p <= hi; p++)
                        if (row[p] != MG_EMPTY) x = row[p] & 31;
                    if (!(S->in->bingo8 >> x & 1)) continue;
                }
            }
            if (stale) {
                for (int i = 0; i < k; i++) {
                    int s3 = sq[i];
                    int64_t ci = lm[s3] * (WM + (xf[s3] ? wm[s3] : 0));
                    int j = i; /* insertion, largest first */
                    while (j > 0 && c[j - 1] < ci) {
                        c[j] = c[j - 1];
                        j--;
                    }
                    c[j] = ci;
                }
                stale = 0;
            }
            int64_t b = (tsum[hi + 1] - tsum[lo]) * WM + cross + S->bonus[k];
            for (int i = 0; i < k; i++) b += c[i] * vs[i];
            A->right[kl][kr] = b > INT32_MAX ? INT32_MAX : (int32_t)b; /* extreme tables */
        }
        for (int kr = MG_K - 1; kr >= 0; kr--)
            if (A->right[kl][kr + 1] > A->right[kl][kr]) A->right[kl][kr] = A->right[kl][kr + 1];
        if (A->right[kl][0] > best_any) best_any = A->right[kl][0];
        A->left[kl] = best_any;
    }
    A->bound = A->left[0];
}

/* ------------------------------------------------------------ preparation */

/* Letters L such that up + L + down is a word, where `cl` is the perpendicular line (the
 * other view) and the square is at position i of it.  Sets *flag / *sum to the cross-word
 * facts.  With the GADDAG the longer part is walked once, then for each letter the shorter
 * part; the letter edges of a node are consecutive cells in letter order, so the k-th
 * letter's edge is read directly (no rank to count). */
static uint32_t mg_cross(const uint32_t *g, const int64_t *values, const uint8_t *cl, int i,
                         uint32_t root, int *flag, int32_t *sum) {
    int top = i, bottom = i;
    while (top > 0 && cl[top - 1] != MG_EMPTY) top--;
    while (bottom < MG_N - 1 && cl[bottom + 1] != MG_EMPTY) bottom++;
    if (top == i && bottom == i) {
        *flag = 0;
        *sum = 0;
        return G_LETTERS_MASK;
    }
    *flag = 1;
    int64_t s = 0;
    for (int p = top; p <= bottom; p++) {
        if (p != i && !(cl[p] & MG_JOKER_FLAG)) s += values[cl[p] & 31];
    }
    *sum = (int32_t)s;
    /* the part walked first, then the one read per letter, in walking order */
    int first_from, first_to, step1, then_from, then_to, step2;
    uint32_t node = root;
    if (i - top > bottom - i) {
        /* longer part above: GADDAG string rev(up) '+' L down */
        first_from = i - 1, first_to = top, step1 = -1;
        then_from = i + 1, then_to = bottom, step2 = 1;
    } else {
        /* GADDAG string rev(word) = rev(down) L rev(up) */
        first_from = bottom, first_to = i + 1, step1 = -1;
        then_from = i - 1, then_to = top, step2 = -1;
    }
    for (int p = first_from; step1 < 0 ? p >= first_to : p <= first_to; p += step1) {
        int U = cl[p] & 31;
        uint32_t mask = g_mask(g, node);
        if (!(mask & (1u << U))) return 0;
        node = g_edge(g, node, mask, U) >> 1;
    }
    if (i - top > bottom - i) {
        uint32_t mask = g_mask(g, node);
        if (!(mask & (1u << G_SEP))) return 0;
        node = g_edge(g, node, mask, G_SEP) >> 1;
    }
    uint32_t cand = g_mask(g, node) & G_LETTERS_MASK, ok = 0;
    const uint32_t *edges = g + node + 1;
    if (step2 > 0 ? then_from > then_to : then_from < then_to) {
        /* nothing to read after the letter: its edge's final bit says it all */
        for (int k = 0; cand; k++) {
            int L = __builtin_ctz(cand);
            cand &= cand - 1;
            ok |= (edges[k] & 1u) << L;
        }
        return ok;
    }
    for (int k = 0; cand; k++) {
        int L = __builtin_ctz(cand);
        cand &= cand - 1;
        uint32_t edge = edges[k];
        for (int p = then_from; step2 < 0 ? p >= then_to : p <= then_to; p += step2) {
            int D = cl[p] & 31;
            uint32_t n2 = edge >> 1;
            uint32_t m2 = g_mask(g, n2);
            if (!(m2 & (1u << D))) {
                edge = 0;
                break;
            }
            edge = g_edge(g, n2, m2, D);
        }
        ok |= (edge & 1u) << L;
    }
    return ok;
}

/* Brings B up to date for `board`: B holds either garbage (all 15 rows and columns dirty)
 * or the tables of a board that differs from this one only in the dirty rows and columns
 * (every changed square lies on a dirty row and a dirty column).  A square's cross-check
 * (view 0) reads its column, and its view-1 cross-check its row, so recomputing the view-0
 * entries of the dirty columns and the view-1 entries of the dirty rows is exact; anchors
 * are recomputed around the changed squares, or everywhere when the board is or was empty
 * (H8 is then the only anchor). */
static void mg_board_refresh(MgBoard *B, const uint8_t *board, const uint32_t *g, uint32_t root,
                             const int64_t *values, unsigned rows, unsigned cols) {
    int full = rows == 0x7FFF && cols == 0x7FFF;
    int tiles = full ? 0 : B->tiles, was_empty = full || B->tiles == 0;
    for (int r = 0; r < MG_N; r++) {
        if (!(rows >> r & 1)) continue;
        for (int c = 0; c < MG_N; c++) {
            if (!(cols >> c & 1)) continue;
            uint8_t v = board[r * MG_N + c], old = B->cell[0][r][c];
            if (!full && v == old) continue;
            if (!full) tiles -= old != MG_EMPTY;
            tiles += v != MG_EMPTY;
            B->cell[0][r][c] = B->cell[1][c][r] = v;
        }
    }
    B->tiles = tiles;
    /* cross-checks: view 0 along the dirty columns, view 1 along the dirty rows */
    for (int v = 0; v < 2; v++) {
        unsigned lines = v == 0 ? cols : rows; /* the perpendicular lines j to read */
        for (int j = 0; j < MG_N; j++) {
            if (!(lines >> j & 1)) continue;
            const uint8_t *cl = B->cell[1 - v][j];
            for (int i = 0; i < MG_N; i++) {
                int flag = 0;
                int32_t sum = 0;
                uint32_t set = 0;
                if (cl[i] == MG_EMPTY) set = mg_cross(g, values, cl, i, root, &flag, &sum);
                B->xset[v][i][j] = set;
                B->xflag[v][i][j] = (uint8_t)flag;
                B->xsum[v][i][j] = sum;
            }
        }
    }
    /* anchors: a square's flag reads the square and its four neighbours */
    unsigned arows = rows | rows << 1 | rows >> 1, acols = cols | cols << 1 | cols >> 1;
    if (was_empty || tiles == 0) arows = acols = 0x7FFF;
    for (int r = 0; r < MG_N; r++) {
        if (!(arows >> r & 1)) continue;
        for (int c = 0; c < MG_N; c++) {
            if (!(acols >> c & 1)) continue;
            int anchor = 0;
            if (B->cell[0][r][c] == MG_EMPTY) {
                if (tiles == 0) {
                    anchor = (r == MG_N / 2 && c == MG_N / 2);
                } else {
                    anchor = (r > 0 && B->cell[0][r - 1][c] != MG_EMPTY) ||
                             (r < MG_N - 1 && B->cell[0][r + 1][c] != MG_EMPTY) ||
                             (c > 0 && B->cell[0][r][c - 1] != MG_EMPTY) ||
                             (c < MG_N - 1 && B->cell[0][r][c + 1] != MG_EMPTY);
                }
            }
            B->anchor[0][r][c] = B->anchor[1][c][r] = (uint8_t)anchor;
        }
    }
}

/* Max-heap of 64-bit keys (top mode's anchor order: largest bound first). */
static void mg_heap_down(uint64_t *h, size_t n, size_t i) {
    uint64_t x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] > h[c]) c++;
        if (h[c] <= x) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* Runs the generator; the caller frees out->moves.  Returns 0, or -1 when out of memory.
 * S->R and S->B are the caller's (see MgState); the rest of S is set here. */
static int mg_generate(const MgInput *in, MgState *S) {
    memset(S, 0, offsetof(MgState, values));
    S->g = in->cells;
    S->mode = in->mode;
    S->best = -1;
    S->R = &in->rules;
    S->in = in;
    memcpy(S->values, in->rules.values, sizeof S->values);
    memcpy(S->bonus, in->rules.bonus, sizeof S->bonus);
    memcpy(S->counts, in->counts, sizeof S->counts);
    S->max_place = in->max_place;
    for (int L = 0; L < 26; L++)
        if (S->counts[L] > 0) S->letmask |= 1u << L;
    MgBoard *B = &S->B;
    if (in->dirty_rows || in->dirty_cols)
        mg_board_refresh(B, in->board, in->cells, in->root, S->values, in->dirty_rows,
                         in->dirty_cols);

    if (S->max_place <= 0) return 0;
    /* the anchors worth a walk: some rack tile fits the cross-check */
    uint32_t playable = S->counts[MG_JOKER] ? G_LETTERS_MASK : S->letmask;
    size_t na = 0;
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < MG_N; i++)
            for (int a = 0; a < MG_N; a++)
                na += B->anchor[v][i][a] && (B->xset[v][i][a] & playable);
    if (!na) return 0;
    MgAnchor *anchors = malloc(na * sizeof *anchors);
    if (!anchors) return -1;
    S->anchors = anchors;
    S->n_anchors = na;
    int bounded = S->mode == MG_MODE_TOP || in->debug;
    int64_t vs[MG_MAX_RACK + 1] = {0};
    if (bounded) { /* rack tile values, largest first (jokers 0) */
        int nt = 0;
        for (int L = 0; L < 27; L++)
            for (int c = 0; c < S->counts[L]; c++) {
                int64_t val = L == MG_JOKER ? 0 : S->values[L];
                int j = nt++;
                while (j > 0 && vs[j - 1] < val) {
                    vs[j] = vs[j - 1];
                    j--;
                }
                vs[j] = val;
            }
    }
    size_t k = 0;
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < MG_N; i++)
            for (int a = 0; a < MG_N; a++) {
                if (!B->anchor[v][i][a] || !(B->xset[v][i][a] & playable)) continue;
                MgAnchor *A = &anchors[k++];
                if (bounded) {
                    mg_bound_anchor(S, v, i, a, playable, vs, A);
                } else {
                    A->view = (uint8_t)v;
                    A->line = (uint8_t)i;
                    A->a = (uint8_t)a;
                }
            }
    /* walking order: in top mode the most promising anchor first, popped from a max-heap of
     * 64-bit keys (bound, then lower index first) so that the anchors never reached by the
     * search are not sorted either */
    uint64_t *order = malloc(na * sizeof *order);
    if (!order) return -1;
    int pruned = S->mode == MG_MODE_TOP && !in->debug;
    for (size_t j = 0; j < na; j++)
        order[j] = pruned ? (uint64_t)((int64_t)anchors[j].bound - INT32_MIN) << 32 |
                                (0xFFFFFFFFu - (uint32_t)j)
                          : j;
    if (pruned)
        for (size_t j = na / 2; j-- > 0;) mg_heap_down(order, na, j);
    if (in->debug) {
        S->abest = malloc(na * sizeof *S->abest);
        if (!S->abest) return -1;
        for (size_t j = 0; j < na; j++) S->abest[j] = -1;
    }
    for (size_t o = 0, left = na; o < na; o++) {
        size_t j;
        if (pruned) {
            j = 0xFFFFFFFFu - (uint32_t)(order[0] & 0xFFFFFFFFu);
            order[0] = order[--left];
            mg_heap_down(order, left, 0);
        } else {
            j = (size_t)order[o];
        }
        const MgAnchor *A = &anchors[j];
        if (pruned) {
            if (A->bound < S->best) break; /* largest first: no later anchor can reach the top */
            S->cur = A;
        }
        int v = A->view, i = A->line;
        S->cur_index = j;
        S->view = v;
        S->line = i;
        S->row = B->cell[v][i];
        S->rlm = in->rules.lm[v][i];
        S->rwm = in->rules.wm[v][i];
        S->rxflag = B->xflag[v][i];
        S->ranchor = B->anchor[v][i];
        S->rxset = B->xset[v][i];
        S->rxsum = B->xsum[v][i];
        S->a = A->a;
        /* With tiles right of the anchor, the walk starts from their far end: reading them
         * (reversed) first constrains the GADDAG path before any rack tile is tried, instead
         * of trying every reversed prefix left of the anchor only to reject it at the
         * separator.  Each move is still found once: from its leftmost anchor. */
        int e = A->a;
        while (e < MG_N - 1 && S->row[e + 1] != MG_EMPTY) e++;
        S->e = e;
#if MG_HAVE_HW_WALK
        if (mg_hw_popcount) {
            mg_left_hw(S, e, in->root, 0, 1, 0, 0);
            continue;
        }
#endif
        mg_left(S, e, in->root, 0, 1, 0, 0);
    }
    free(order);
    return S->oom ? -1 : 0;
}

/* Listing order: score descending, row, column, horizontal first, word (code points). */
static int mg_compare(const void *pa, const void *pb) {
    const MgMove *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    if (a->row != b->row) return a->row < b->row ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    if (a->vertical != b->vertical) return a->vertical < b->vertical ? -1 : 1;
    int m = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->word, b->word, (size_t)m);
    if (c) return c;
    return (a->len > b->len) - (a->len < b->len);
}

/* mg_compare for records that differ only by word: the first 8 letters compared as one
 * big-endian integer (zero padded, so a prefix sorts first, as in mg_compare). */
static int mg_word_order(const void *pa, const void *pb) {
    const MgMove *a = pa, *b = pb;
    uint64_t x, y;
    memcpy(&x, a->word, 8);
    memcpy(&y, b->word, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    x = __builtin_bswap64(x);
    y = __builtin_bswap64(y);
#endif
    if (x != y) return x < y ? -1 : 1;
    return mg_compare(pa, pb);
}

/* Sorts the records in listing order (mg_compare).  qsort over 32-byte records was a third
 * of the all-moves time with jokers (tens of thousands of moves): instead, a 64-bit key
 * (score descending, row, column, direction, record index) is radix sorted, the records
 * are gathered in that order, and only runs with the same score, square and direction
 * (e.g. a joker on different letters) are put in word order by qsort. */
static void mg_sort(MgState *S) {
    size_t n = S->n;
    MgMove *moves = S->moves;
    if (n < 2) return;
    int64_t lo = moves[0].score, hi = moves[0].score;
    for (size_t i = 1; i < n; i++) {
        if (moves[i].score < lo) lo = moves[i].score;
        if (moves[i].score > hi) hi = moves[i].score;
    }
    uint64_t *keys = n < 64 || n > 0x7FFFFFFF || hi - lo >= (1 << 23)
                         ? NULL
                         : malloc(2 * n * sizeof *keys);
    MgMove *out = keys ? malloc(n * sizeof *out) : NULL;
    if (!out) {
        free(keys);
        qsort(moves, n, sizeof *moves, mg_compare);
        return;
    }
    uint64_t *tmp = keys + n;
    for (size_t i = 0; i < n; i++)
        keys[i] = ((uint64_t)(hi - moves[i].score) << 40) | ((uint64_t)moves[i].row << 36) |
                  ((uint64_t)moves[i].col << 32) | ((uint64_t)moves[i].vertical << 31) | i;
    for (int shift = 31; shift < 63; shift += 8) { /* bits 31..62, stable LSD passes */
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++) count[((keys[i] >> shift) & 0xFF) + 1]++;
        if (count[((keys[0] >> shift) & 0xFF) + 1] == n) continue; /* one bucket: no-op */
        for (int b = 0; b < 256; b++) count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++) tmp[count[(keys[i] >> shift) & 0xFF]++] = keys[i];
        uint64_t *t = keys;
        keys = tmp;
        tmp = t;
    }
    for (size_t i = 0; i < n; i++) out[i] = moves[keys[i] & 0x7FFFFFFFu];
    for (size_t i = 0, j; i < n; i = j) { /* same key but the index: order by word */
        for (j = i + 1; j < n && (keys[j] >> 31) == (keys[i] >> 31); j++) {
        }
        if (j - i > 1) qsort(out + i, j - i, sizeof *out, mg_word_order);
    }
    free(keys < tmp ? keys : tmp); /* the block allocated first */
    free(moves);
    S->moves = out;
    S->cap = n;
}
