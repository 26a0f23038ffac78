/*
 * Flat GADDAG layout shared by the builder, the loader and the move generator.
 *
 * The automaton is one array of little-endian uint32 "cells".  A node is a header cell
 * followed by one cell per outgoing edge:
 *
 *   header   bits 0..25  letters A..Z that have an edge, bit 26 the separator '+';
 *            bits 27..31 zero.
 *   edge k   (child << 1) | final, for the k-th set bit of the header, in bit order:
 *            `child` is the cell index of the target node, `final` says that the path
 *            ending with this edge spells a complete GADDAG string (an accepted word).
 *
 * The edge for letter L is therefore cells[node + 1 + popcount(mask & ((1 << L) - 1))]:
 * constant time, no search.  Nodes are laid out breadth first from the root (cell 0).
 *
 * GADDAG strings: a word w = c1..cn is stored as rev(c1..ci) '+' c(i+1)..cn for i < n and
 * as rev(c1..cn) (no separator) for i = n.  So "walk the reversed word from the root and
 * look at the final bit" tests membership.
 */
#ifndef TIRAGE_GADDAG_H
#define TIRAGE_GADDAG_H

#include <stddef.h>
#include <stdint.h>

#define G_SEP 26
#define G_LETTERS_MASK 0x3FFFFFFu /* bits 0..25 */
#define G_NODE_MASK 0x7FFFFFFu    /* bits 0..26 */

static inline uint32_t g_mask(const uint32_t *cells, uint32_t node) {
    return cells[node] & G_NODE_MASK;
}

/* Bits set in x.  Written out rather than __builtin_popcount: without -mpopcnt (kept off so
 * the build runs on every x86-64) gcc turns the builtin into a call to libgcc's
 * __popcountdi2, which was 14-17 % of the move generator's instructions. */
static inline uint32_t g_popcount(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}

/* Edge cell for `letter`; the caller has checked that the bit is set in `mask`. */
static inline uint32_t g_edge(const uint32_t *cells, uint32_t node, uint32_t mask, int letter) {
    return cells[node + 1 + g_popcount(mask & ((1u << letter) - 1u))];
}

#endif
