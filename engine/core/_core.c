/*
 * engine._core: the compiled part of the engine.
 *
 *   build_gaddag(blob) -> (cells: bytes, n_words, n_states)
 *       blob = sorted words, one a line (final newline optional); raises ValueError
 *       ("line N: ...") on a bad list.  Cells are little-endian uint32, root at cell 0.
 *   Gaddag(buffer, offset, n_cells)
 *       wraps an automaton held in any buffer (kept alive, never copied); checks that every
 *       edge points at a node inside the array, so a corrupt file cannot crash the walk.
 *       .contains(word) -> bool
 *   configure(move_type, reference_type)
 *       the Python classes to build results with (engine.moves.Move, engine.notation.Reference).
 *   generate(gaddag, cells, rack, values, letter_mult, word_mult, bonus, max_tiles, mode, n)
 *       mode 0: every move, sorted -> list[Move]
 *       mode 1: top only, pruned by the anchor bounds -> (score, list[Move] of the tied tops,
 *               sorted, None)
 *       mode 2: the n best, sorted -> list[Move]
 *       mode 3: top only, nothing pruned -> (score, tied tops, number of legal moves)
 *   board_tables(gaddag, cells, values, kept), hardware_popcount([enable])
 *       test hooks: see engine.movegen.board_tables and tests/engine/test_conformance.py.
 *   anchor_bounds(gaddag, cells, rack, values, letter_mult, word_mult, bonus, max_tiles)
 *       test hook: every anchor as (vertical, line, position, bound, best) where `bound` is
 *       what the top search prunes with and `best` the best score of the moves actually
 *       generated from that anchor (-1 when none).  The search is exact only if
 *       bound >= best everywhere.
 *
 * The other C files (gaddag_build.c, movegen.c with movegen_walk.h, bingo.c) are #included so
 * the whole core is one translation unit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "gaddag_build.c"
#include "movegen.c"
#include "bingo.c"

/* ================================================================== Gaddag */

/* A board's cross-check tables kept for the next call (see "Kept boards" below). */
typedef struct {
    MgBoard B;
    uint8_t board[MG_SQ];
    int64_t values[27];
    uint64_t used; /* 0: free slot, else the call that last used it */
} KeptBoard;

#define KEPT_MAX 8      /* most boards kept per automaton */
#define KEPT_LINES 20   /* an update touching more rows + columns than this starts afresh */

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int has_view;
    const uint32_t *cells;
    uint32_t n_cells;
    uint32_t n_nodes;
    KeptBoard *kept;    /* n_kept slots, allocated on first use */
    int n_kept;
    uint64_t clock;
    BgSet bingo;        /* anagram keys of the 7- and 8-letter words (bingo.c) */
    int bingo_state;    /* 0: not built yet, 1: built, -1: could not be built */
} GaddagObject;

static PyTypeObject Gaddag_Type;

/* Returns NULL when the cells form a well-formed automaton, else a message. */
static const char *gaddag_check(const uint32_t *cells, uint32_t n, uint32_t *n_nodes) {
    if (n == 0) return "the automaton is empty";
    uint8_t *start = calloc(((size_t)n + 7) / 8, 1);
    if (!start) return "out of memory while checking the automaton";
    const char *err = NULL;
    uint32_t nodes = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t h = cells[i];
        if (h & ~G_NODE_MASK) {
            err = "a node header has unknown bits";
            goto out;
        }
        start[i >> 3] |= (uint8_t)(1u << (i & 7));
        nodes++;
        i += 1 + (size_t)g_popcount(h);
        if (i > n) {
            err = "a node runs past the end of the automaton";
            goto out;
        }
    }
    i = 0;
    while (i < n) {
        uint32_t k = (uint32_t)g_popcount(cells[i]);
        for (uint32_t e = 1; e <= k; e++) {
            uint32_t child = cells[i + e] >> 1;
            if (child >= n || !(start[child >> 3] & (1u << (child & 7)))) {
                err = "an edge points outside the automaton";
                goto out;
            }
        }
        i += 1 + k;
    }
    *n_nodes = nodes;
out:
    free(start);
    return err;
}

static PyObject *Gaddag_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"buffer", "offset", "n_cells", NULL};
    PyObject *buf;
    Py_ssize_t offset, n_cells;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Onn", kwlist, &buf, &offset, &n_cells))
        return NULL;
    GaddagObject *self = (GaddagObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (PyObject_GetBuffer(buf, &self->view, PyBUF_SIMPLE) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->has_view = 1;
    if (offset < 0 || n_cells <= 0 || n_cells > 0x7FFFFFFF ||
        offset > self->view.len || (self->view.len - offset) / 4 < n_cells) {
        PyErr_SetString(PyExc_ValueError, "the automaton does not fit in the buffer");
        Py_DECREF(self);
        return NULL;
    }
    const char *p = (const char *)self->view.buf + offset;
    if (((uintptr_t)p) % sizeof(uint32_t)) {
        PyErr_SetString(PyExc_ValueError, "the automaton is not aligned on 4 bytes");
        Py_DECREF(self);
        return NULL;
    }
    self->cells = (const uint32_t *)p;
    self->n_cells = (uint32_t)n_cells;
    self->n_kept = KEPT_MAX;
    const char *err;
    Py_BEGIN_ALLOW_THREADS
    err = gaddag_check(self->cells, self->n_cells, &self->n_nodes);
    Py_END_ALLOW_THREADS
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void Gaddag_dealloc(GaddagObject *self) {
    if (self->has_view) PyBuffer_Release(&self->view);
    free(self->kept);
    free(self->bingo.keys);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int gaddag_contains(const uint32_t *cells, const char *w, Py_ssize_t n) {
    if (n < 1) return 0;
    uint32_t node = 0, edge = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        int L = w[i] - 'A';
        if (L < 0 || L >= 26) return 0;
        uint32_t mask = g_mask(cells, node);
        if (!(mask & (1u << L))) return 0;
        edge = g_edge(cells, node, mask, L);
        node = edge >> 1;
    }
    return (int)(edge & 1u);
}

static PyObject *Gaddag_contains(GaddagObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) Py_RETURN_FALSE;
    Py_ssize_t n;
    const char *w = PyUnicode_AsUTF8AndSize(arg, &n);
    if (!w) return NULL;
    return PyBool_FromLong(gaddag_contains(self->cells, w, n));
}

static PyObject *Gaddag_keep_boards(GaddagObject *self, PyObject *arg) {
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0 || n > KEPT_MAX) {
        PyErr_Format(PyExc_ValueError, "keep_boards: from 0 to %d boards", KEPT_MAX);
        return NULL;
    }
    int before = self->n_kept;
    free(self->kept);
    self->kept = NULL;
    self->n_kept = (int)n;
    return PyLong_FromLong(before);
}

static PyMethodDef Gaddag_methods[] = {
    {"contains", (PyCFunction)Gaddag_contains, METH_O,
     "contains(word) -> bool: whether the upper-case word is in the automaton."},
    {"keep_boards", (PyCFunction)Gaddag_keep_boards, METH_O,
     "keep_boards(n) -> previous n: forget the kept boards and keep at most n (0-8) from now "
     "on; 0 computes every board's cross-checks afresh (tests, benchmarks)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Gaddag_members[] = {
    {"n_cells", T_UINT, offsetof(GaddagObject, n_cells), READONLY, "cells in the array"},
    {"n_nodes", T_UINT, offsetof(GaddagObject, n_nodes), READONLY, "nodes in the automaton"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject Gaddag_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._core.Gaddag",
    .tp_basicsize = sizeof(GaddagObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A GADDAG held in a buffer: Gaddag(buffer, offset, n_cells).",
    .tp_new = Gaddag_new,
    .tp_dealloc = (destructor)Gaddag_dealloc,
    .tp_methods = Gaddag_methods,
    .tp_members = Gaddag_members,
};

/* ============================================================ build_gaddag */

static PyObject *core_build_gaddag(PyObject *module, PyObject *arg) {
    (void)module;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    GbResult res;
    Py_BEGIN_ALLOW_THREADS
    gb_build((const char *)view.buf, (size_t)view.len, &res);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    switch (res.error) {
    case GB_OK:
        break;
    case GB_ERR_MEMORY:
        return PyErr_NoMemory();
    case GB_ERR_CHAR:
        return PyErr_Format(PyExc_ValueError, "line %zu: a word holds a character outside A-Z",
                            res.error_line);
    case GB_ERR_LENGTH:
        return PyErr_Format(PyExc_ValueError, "line %zu: a word has fewer than 2 or more than "
                            "15 letters", res.error_line);
    case GB_ERR_ORDER:
        return PyErr_Format(PyExc_ValueError, "line %zu: the words are not sorted or not "
                            "distinct", res.error_line);
    default:
        return PyErr_Format(PyExc_ValueError, "the word list is too big for the automaton");
    }
#if PY_BIG_ENDIAN
    for (size_t i = 0; i < res.n_cells; i++) res.cells[i] = __builtin_bswap32(res.cells[i]);
#endif
    PyObject *cells = PyBytes_FromStringAndSize((const char *)res.cells,
                                                (Py_ssize_t)(res.n_cells * sizeof(uint32_t)));
    free(res.cells);
    if (!cells) return NULL;
    return Py_BuildValue("(Nnn)", cells, (Py_ssize_t)res.n_words, (Py_ssize_t)res.n_states);
}

/* ================================================================ results */

static PyTypeObject *move_type = NULL, *ref_type = NULL;
/* slot descriptors when both classes are plain slotted dataclasses (fast path) */
static PyObject *d_reference, *d_word, *d_score, *d_placed, *d_row, *d_col, *d_horizontal;
static int fast_objects = 0;

static PyObject *slot_descriptor(PyTypeObject *type, const char *name) {
    PyObject *d = PyDict_GetItemString(type->tp_dict, name); /* borrowed */
    if (!d || Py_TYPE(d) != &PyMemberDescr_Type) return NULL;
    Py_INCREF(d);
    return d;
}

static PyObject *core_configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *m, *r;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &m, &PyType_Type, &r)) return NULL;
    Py_INCREF(m);
    Py_INCREF(r);
    Py_XSETREF(move_type, (PyTypeObject *)m);
    Py_XSETREF(ref_type, (PyTypeObject *)r);
    Py_CLEAR(d_reference);
    Py_CLEAR(d_word);
    Py_CLEAR(d_score);
    Py_CLEAR(d_placed);
    Py_CLEAR(d_row);
    Py_CLEAR(d_col);
    Py_CLEAR(d_horizontal);
    d_reference = slot_descriptor(move_type, "reference");
    d_word = slot_descriptor(move_type, "word");
    d_score = slot_descriptor(move_type, "score");
    d_placed = slot_descriptor(move_type, "placed");
    d_row = slot_descriptor(ref_type, "row");
    d_col = slot_descriptor(ref_type, "col");
    d_horizontal = slot_descriptor(ref_type, "horizontal");
    /* __post_init__ would be skipped by the fast path: only use it when there is none */
    fast_objects = d_reference && d_word && d_score && d_placed && d_row && d_col &&
                   d_horizontal && !PyObject_HasAttrString(m, "__post_init__") &&
                   !PyObject_HasAttrString(r, "__post_init__");
    Py_RETURN_NONE;
}

static int set_slot(PyObject *descr, PyObject *obj, PyObject *value) {
    /* the member descriptor's own setter: bypasses the frozen dataclass __setattr__ */
    return Py_TYPE(descr)->tp_descr_set(descr, obj, value);
}

static PyObject *new_instance(PyTypeObject *type) {
    return type->tp_alloc(type, 0);
}

static PyObject *make_reference(int row, int col, int horizontal) {
    PyObject *r_row = PyLong_FromLong(row), *r_col = PyLong_FromLong(col);
    PyObject *r_h = PyBool_FromLong(horizontal);
    PyObject *ref = NULL;
    if (!r_row || !r_col || !r_h) goto done;
    if (fast_objects) {
        ref = new_instance(ref_type);
        if (ref && (set_slot(d_row, ref, r_row) < 0 || set_slot(d_col, ref, r_col) < 0 ||
                    set_slot(d_horizontal, ref, r_h) < 0))
            Py_CLEAR(ref);
    } else {
        ref = PyObject_CallFunctionObjArgs((PyObject *)ref_type, r_row, r_col, r_h, NULL);
    }
done:
    Py_XDECREF(r_row);
    Py_XDECREF(r_col);
    Py_XDECREF(r_h);
    return ref;
}

/* refs: cache of 2 * 225 references, filled lazily */
static PyObject *make_move(const MgMove *m, PyObject **refs) {
    int idx = (m->vertical ? MG_SQ : 0) + m->row * MG_N + m->col;
    if (!refs[idx]) {
        refs[idx] = make_reference(m->row, m->col, !m->vertical);
        if (!refs[idx]) return NULL;
    }
    PyObject *word = PyUnicode_New(m->len, 127);
    if (!word) return NULL;
    memcpy(PyUnicode_DATA(word), m->word, m->len);
    PyObject *score = PyLong_FromLongLong(m->score);
    PyObject *placed = PyLong_FromLong(m->placed);
    PyObject *mv = NULL;
    if (!score || !placed) goto done;
    if (fast_objects) {
        mv = new_instance(move_type);
        if (mv && (set_slot(d_reference, mv, refs[idx]) < 0 || set_slot(d_word, mv, word) < 0 ||
                   set_slot(d_score, mv, score) < 0 || set_slot(d_placed, mv, placed) < 0))
            Py_CLEAR(mv);
    } else {
        mv = PyObject_CallFunctionObjArgs((PyObject *)move_type, refs[idx], word, score, placed,
                                          NULL);
    }
done:
    Py_DECREF(word);
    Py_XDECREF(score);
    Py_XDECREF(placed);
    return mv;
}

static PyObject *moves_to_list(const MgMove *moves, size_t n) {
    PyObject *refs[2 * MG_SQ] = {NULL};
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    /* Tens of thousands of new objects would trigger the cyclic collector again and again
     * (a sixth of the all-moves time with two jokers); they form no cycle, so it is paused
     * while they are built. */
    int gc_was_on = n > 1000 ? PyGC_Disable() : 0;
    for (size_t i = 0; i < n; i++) {
        PyObject *mv = make_move(&moves[i], refs);
        if (!mv) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, mv);
    }
    for (int i = 0; i < 2 * MG_SQ; i++) Py_XDECREF(refs[i]);
    if (gc_was_on) PyGC_Enable();
    return list;
}

/* ================================================================ generate */

static int read_ints(PyObject *seq, int64_t *out, Py_ssize_t n, int64_t lo, int64_t hi,
                     const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd integers", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < lo || v > hi) {
            PyErr_Format(PyExc_ValueError, "%s: %lld is out of range", what, v);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}

static int read_table(PyObject *obj, uint8_t *out, const char *what) {
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_SIMPLE) < 0) return -1;
    int ok = b.len == MG_SQ;
    if (ok) {
        memcpy(out, b.buf, MG_SQ);
        for (int i = 0; i < MG_SQ; i++) ok &= (out[i] >= 1 && out[i] <= 4);
    }
    PyBuffer_Release(&b);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: expected 225 multipliers from 1 to 4", what);
        return -1;
    }
    return 0;
}

/* Premium table in both views (view 1 is the transpose). */
static int read_premiums(PyObject *obj, uint8_t out[2][MG_N][MG_N], const char *what) {
    uint8_t t[MG_SQ];
    if (read_table(obj, t, what) < 0) return -1;
    for (int r = 0; r < MG_N; r++)
        for (int c = 0; c < MG_N; c++) out[0][r][c] = out[1][c][r] = t[r * MG_N + c];
    return 0;
}

/* The scoring rules of a call.  engine.movegen passes the same constant tuples and bytes
 * every time, so the last ones (when they are exact tuples or bytes, hence immutable) are
 * kept with their checked and transposed form and recognised by identity. */
static int read_rules(PyObject *values, PyObject *lm, PyObject *wm, PyObject *bonus,
                      MgRules *out) {
    static PyObject *k_values, *k_lm, *k_wm, *k_bonus;
    static MgRules kept;
    int same_v = values == k_values, same_lm = lm == k_lm, same_wm = wm == k_wm,
        same_b = bonus == k_bonus;
    if (same_v)
        memcpy(out->values, kept.values, sizeof out->values);
    else if (read_ints(values, out->values, 27, 0, 100, "letter values") < 0)
        return -1;
    if (same_b)
        memcpy(out->bonus, kept.bonus, sizeof out->bonus);
    else if (read_ints(bonus, out->bonus, MG_MAX_RACK + 1, 0, 100000, "bonus table") < 0)
        return -1;
    if (same_lm)
        memcpy(out->lm, kept.lm, sizeof out->lm);
    else if (read_premiums(lm, out->lm, "letter multipliers") < 0)
        return -1;
    if (same_wm)
        memcpy(out->wm, kept.wm, sizeof out->wm);
    else if (read_premiums(wm, out->wm, "word multipliers") < 0)
        return -1;
    if (!same_v && PyTuple_CheckExact(values)) {
        memcpy(kept.values, out->values, sizeof kept.values);
        Py_INCREF(values);
        Py_XSETREF(k_values, values);
    }
    if (!same_b && PyTuple_CheckExact(bonus)) {
        memcpy(kept.bonus, out->bonus, sizeof kept.bonus);
        Py_INCREF(bonus);
        Py_XSETREF(k_bonus, bonus);
    }
    if (!same_lm && PyBytes_CheckExact(lm)) {
        memcpy(kept.lm, out->lm, sizeof kept.lm);
        Py_INCREF(lm);
        Py_XSETREF(k_lm, lm);
    }
    if (!same_wm && PyBytes_CheckExact(wm)) {
        memcpy(kept.wm, out->wm, sizeof kept.wm);
        Py_INCREF(wm);
        Py_XSETREF(k_wm, wm);
    }
    return 0;
}

/* '.' -> MG_EMPTY, 'A'-'Z' -> 0-25, 'a'-'z' -> 0-25 | MG_JOKER_FLAG, anything else 0xFE. */
static uint8_t square_code[256];

static void init_square_code(void) {
    memset(square_code, 0xFE, sizeof square_code);
    square_code['.'] = MG_EMPTY;
    for (int L = 0; L < 26; L++) {
        square_code['A' + L] = (uint8_t)L;
        square_code['a' + L] = (uint8_t)(L | MG_JOKER_FLAG);
    }
}

static int read_board(PyObject *obj, uint8_t *out) {
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(obj, &n);
    if (!text) return -1;
    if (n != MG_SQ) {
        PyErr_SetString(PyExc_ValueError, "the board must have 225 squares");
        return -1;
    }
    uint8_t bad = 0;
    for (int i = 0; i < MG_SQ; i++) {
        uint8_t v = square_code[(unsigned char)text[i]];
        out[i] = v;
        bad |= v == 0xFE;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a board square must be '.', A-Z or a-z");
        return -1;
    }
    return 0;
}

/* ----------------------------------------------------------- kept boards
 *
 * The cross-checks and anchors of a board (MgBoard) cost about a third of a no-joker top,
 * and consecutive calls usually see boards that differ by one move (a game's next round,
 * the same board with another rack).  Each automaton keeps its last KEPT_MAX boards; a call
 * starts from the kept board whose differing squares lie on the fewest rows + columns and
 * recomputes only those lines (mg_board_refresh), or computes everything when none is
 * within KEPT_LINES.  Board values stay immutable on the Python side: this is a cache keyed
 * by the board's contents and the letter values, read and written with the GIL held. */

/* Rows and columns holding a square where a and b differ; gives up (returns 0) as soon as
 * they number more than `limit` together. */
static int board_diff(const uint8_t *a, const uint8_t *b, int limit, unsigned *rows,
                      unsigned *cols) {
    unsigned r = 0, c = 0;
    for (int k = 0; k < MG_SQ; k += 8) {
        uint64_t x, y;
        if (k + 8 <= MG_SQ) {
            memcpy(&x, a + k, 8);
            memcpy(&y, b + k, 8);
        } else { /* the last square */
            x = a[k];
            y = b[k];
        }
        if (x == y) continue;
        for (int i = k; i < k + 8 && i < MG_SQ; i++)
            if (a[i] != b[i]) {
                r |= 1u << (i / MG_N);
                c |= 1u << (i % MG_N);
            }
        if ((int)(g_popcount(r) + g_popcount(c)) > limit) return 0;
    }
    *rows = r;
    *cols = c;
    return 1;
}

/* Starts B from the closest kept board and says which lines to recompute (all 15 + 15 when
 * none is close).  Returns the slot used, or -1. */
static int kept_lookup(GaddagObject *self, const uint8_t *board, const int64_t *values,
                       MgBoard *B, uint16_t *rows, uint16_t *cols) {
    int best = -1, best_cost = KEPT_LINES + 1;
    unsigned best_r = 0x7FFF, best_c = 0x7FFF;
    for (int k = 0; self->kept && k < self->n_kept && best_cost > 0; k++) {
        const KeptBoard *K = &self->kept[k];
        if (!K->used || memcmp(K->values, values, sizeof K->values) != 0) continue;
        unsigned r, c;
        if (!board_diff(K->board, board, best_cost - 1, &r, &c)) continue;
        int cost = (int)(g_popcount(r) + g_popcount(c));
        if (cost < best_cost) {
            best = k;
            best_cost = cost;
            best_r = r;
            best_c = c;
        }
    }
    if (best >= 0) memcpy(B, &self->kept[best].B, sizeof *B);
    *rows = (uint16_t)best_r;
    *cols = (uint16_t)best_c;
    return best;
}

/* Keeps B (the tables of `board`) for the next calls; `slot` is kept_lookup's answer. */
static void kept_store(GaddagObject *self, int slot, int exact, const uint8_t *board,
                       const int64_t *values, const MgBoard *B) {
    if (self->n_kept <= 0) return;
    if (!self->kept) {
        self->kept = calloc((size_t)self->n_kept, sizeof *self->kept);
        if (!self->kept) return; /* only a cache */
    }
    self->clock++;
    if (slot >= 0 && exact) {
        self->kept[slot].used = self->clock;
        return;
    }
    int k = 0; /* a free slot, else the least recently used */
    for (int j = 1; j < self->n_kept && self->kept[k].used; j++)
        if (self->kept[j].used < self->kept[k].used) k = j;
    KeptBoard *K = &self->kept[k];
    memcpy(&K->B, B, sizeof K->B);
    memcpy(K->board, board, MG_SQ);
    memcpy(K->values, values, sizeof K->values);
    K->used = self->clock;
}

/* Test hook: the tables of a board, through the kept boards (kept=True) or afresh. */
static PyObject *core_board_tables(PyObject *module, PyObject *args) {
    (void)module;
    GaddagObject *gaddag;
    PyObject *board_obj, *values_obj;
    int use_kept;
    if (!PyArg_ParseTuple(args, "O!UOp", &Gaddag_Type, &gaddag, &board_obj, &values_obj,
                          &use_kept))
        return NULL;
    uint8_t board[MG_SQ];
    int64_t values[27];
    if (read_board(board_obj, board) < 0) return NULL;
    if (read_ints(values_obj, values, 27, 0, 100, "letter values") < 0) return NULL;
    MgBoard *B = malloc(sizeof *B);
    if (!B) return PyErr_NoMemory();
    uint16_t rows = 0x7FFF, cols = 0x7FFF;
    int slot = use_kept ? kept_lookup(gaddag, board, values, B, &rows, &cols) : -1;
    if (rows || cols) mg_board_refresh(B, board, gaddag->cells, 0, values, rows, cols);
    if (use_kept) kept_store(gaddag, slot, !rows && !cols, board, values, B);
    PyObject *xset = PyTuple_New(2 * MG_SQ), *xsum = PyTuple_New(2 * MG_SQ),
             *xflag = PyTuple_New(2 * MG_SQ), *anchor = PyTuple_New(2 * MG_SQ);
    PyObject *result = NULL;
    if (xset && xsum && xflag && anchor) {
        for (int v = 0; v < 2; v++)
            for (int i = 0; i < MG_N; i++)
                for (int j = 0; j < MG_N; j++) {
                    Py_ssize_t k = v * MG_SQ + i * MG_N + j;
                    PyTuple_SET_ITEM(xset, k, PyLong_FromUnsignedLong(B->xset[v][i][j]));
                    PyTuple_SET_ITEM(xsum, k, PyLong_FromLong(B->xsum[v][i][j]));
                    PyTuple_SET_ITEM(xflag, k, PyLong_FromLong(B->xflag[v][i][j]));
                    PyTuple_SET_ITEM(anchor, k, PyLong_FromLong(B->anchor[v][i][j]));
                }
        if (!PyErr_Occurred())
            result = Py_BuildValue("(OOOOi)", xset, xsum, xflag, anchor, B->tiles);
    }
    Py_XDECREF(xset);
    Py_XDECREF(xsum);
    Py_XDECREF(xflag);
    Py_XDECREF(anchor);
    free(B);
    return result;
}

static PyObject *run_generate(PyObject *args, int debug) {
    GaddagObject *gaddag;
    PyObject *board_obj, *rack_obj, *values_obj, *lm_obj, *wm_obj, *bonus_obj;
    int max_tiles, mode = 0;
    Py_ssize_t nbest = 0;
    if (debug ? !PyArg_ParseTuple(args, "O!UUOOOOi", &Gaddag_Type, &gaddag, &board_obj,
                                  &rack_obj, &values_obj, &lm_obj, &wm_obj, &bonus_obj,
                                  &max_tiles)
              : !PyArg_ParseTuple(args, "O!UUOOOOiin", &Gaddag_Type, &gaddag, &board_obj,
                                  &rack_obj, &values_obj, &lm_obj, &wm_obj, &bonus_obj,
                                  &max_tiles, &mode, &nbest))
        return NULL;
    if (!move_type || !ref_type) {
        PyErr_SetString(PyExc_RuntimeError, "engine._core.configure() was not called");
        return NULL;
    }
    if (mode < 0 || mode > 3) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0, 1, 2 or 3");
        return NULL;
    }
    MgInput *in = malloc(sizeof *in);
    MgState *S = malloc(sizeof *S); /* mg_generate clears it; only what `done` frees first */
    if (!in || !S) {
        free(in);
        free(S);
        return PyErr_NoMemory();
    }
    memset(in->counts, 0, sizeof in->counts);
    S->moves = NULL;
    S->anchors = NULL;
    S->abest = NULL;
    PyObject *result = NULL;

    Py_ssize_t rlen;
    if (read_board(board_obj, in->board) < 0) goto done;
    const char *rack = PyUnicode_AsUTF8AndSize(rack_obj, &rlen);
    if (!rack) goto done;
    if (rlen > MG_MAX_RACK) {
        PyErr_SetString(PyExc_ValueError, "a rack holds at most 9 tiles");
        goto done;
    }
    for (Py_ssize_t i = 0; i < rlen; i++) {
        char ch = rack[i];
        if (ch == '?')
            in->counts[MG_JOKER]++;
        else if (ch >= 'A' && ch <= 'Z')
            in->counts[ch - 'A']++;
        else {
            PyErr_SetString(PyExc_ValueError, "a rack tile must be A-Z or '?'");
            goto done;
        }
    }
    if (read_rules(values_obj, lm_obj, wm_obj, bonus_obj, &in->rules) < 0) goto done;
    if (max_tiles < 0) max_tiles = 0;
    in->max_place = (int)rlen < max_tiles ? (int)rlen : max_tiles;
    in->cells = gaddag->cells;
    in->root = 0;
    in->mode = mode == 1 ? MG_MODE_TOP : mode == 3 ? MG_MODE_COUNT : MG_MODE_ALL;
    in->debug = debug;
    in->bingo = 0;
    if ((mode == 1 || debug) && rlen == 7 && in->max_place == 7 && !in->counts[MG_JOKER]) {
        /* a seven-tile move needs a 7- or 8-letter anagram (bingo.c) */
        if (gaddag->bingo_state == 0) /* once per automaton, GIL held: no other builder */
            gaddag->bingo_state = bg_build(&gaddag->bingo, gaddag->cells) < 0 ? -1 : 1;
        if (gaddag->bingo_state == 1) {
            in->bingo = 1;
            bg_query(&gaddag->bingo, in->counts, &in->bingo7, &in->bingo8);
        }
    }
    int slot = kept_lookup(gaddag, in->board, in->rules.values, &S->B, &in->dirty_rows,
                           &in->dirty_cols);
    int exact = !in->dirty_rows && !in->dirty_cols;

    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mg_generate(in, S);
    if (rc == 0) mg_sort(S);
    Py_END_ALLOW_THREADS
    kept_store(gaddag, slot, exact, in->board, in->rules.values, &S->B);
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (debug) {
        result = PyList_New((Py_ssize_t)S->n_anchors);
        for (size_t i = 0; result && i < S->n_anchors; i++) {
            const MgAnchor *A = &S->anchors[i];
            PyObject *t = Py_BuildValue("(Niiii)", PyBool_FromLong(A->view), (int)A->line,
                                        (int)A->a, (int)A->bound, (int)S->abest[i]);
            if (!t) Py_CLEAR(result);
            else PyList_SET_ITEM(result, (Py_ssize_t)i, t);
        }
    } else if (mode == 1 || mode == 3) {
        PyObject *list = moves_to_list(S->moves, S->n);
        if (list && mode == 1)
            result = Py_BuildValue("(LNO)", (long long)(S->best < 0 ? 0 : S->best), list,
                                   Py_None);
        else if (list)
            result = Py_BuildValue("(LNn)", (long long)(S->best < 0 ? 0 : S->best), list,
                                   (Py_ssize_t)S->total);
    } else {
        size_t n = S->n;
        if (mode == 2) n = nbest <= 0 ? 0 : ((size_t)nbest < n ? (size_t)nbest : n);
        result = moves_to_list(S->moves, n);
    }
done:
    free(S->moves);
    free(S->anchors);
    free(S->abest);
    free(S);
    free(in);
    return result;
}

static PyObject *core_generate(PyObject *module, PyObject *args) {
    (void)module;
    return run_generate(args, 0);
}

static PyObject *core_hardware_popcount(PyObject *module, PyObject *args) {
    (void)module;
    int enable = -1;
    if (!PyArg_ParseTuple(args, "|p", &enable)) return NULL;
    if (enable >= 0) mg_hw_popcount = enable && mg_cpu_popcount;
    return PyBool_FromLong(mg_hw_popcount);
}

static PyObject *core_anchor_bounds(PyObject *module, PyObject *args) {
    (void)module;
    return run_generate(args, 1);
}

/* ================================================================== module */

static PyMethodDef core_methods[] = {
    {"build_gaddag", core_build_gaddag, METH_O,
     "build_gaddag(blob) -> (cells, n_words, n_states): minimised GADDAG of sorted words."},
    {"configure", core_configure, METH_VARARGS,
     "configure(move_type, reference_type): classes used to build generated moves."},
    {"generate", core_generate, METH_VARARGS,
     "generate(gaddag, board, rack, values, letter_mult, word_mult, bonus, max_tiles, mode, n)"},
    {"hardware_popcount", core_hardware_popcount, METH_VARARGS,
     "hardware_popcount([enable]) -> bool: whether the walk uses the POPCNT copy (only "
     "possible when the processor has it); tests turn it off to check the portable copy."},
    {"board_tables", core_board_tables, METH_VARARGS,
     "board_tables(gaddag, board, values, kept) -> (xset, xsum, xflag, anchor, tiles): test "
     "hook, a board's cross-check tables (views 0 then 1), through the kept boards or afresh."},
    {"anchor_bounds", core_anchor_bounds, METH_VARARGS,
     "anchor_bounds(gaddag, board, rack, values, letter_mult, word_mult, bonus, max_tiles): "
     "test hook, [(vertical, line, position, bound, best)] for every anchor."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "engine._core", "Compiled core of the Tirage engine.", -1,
    core_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_square_code();
    mg_init();
    if (PyType_Ready(&Gaddag_Type) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&Gaddag_Type);
    if (PyModule_AddObject(m, "Gaddag", (PyObject *)&Gaddag_Type) < 0) {
        Py_DECREF(&Gaddag_Type);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "FORMAT_CELLS_VERSION", 1);
    return m;
}
