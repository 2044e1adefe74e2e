/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_CORE_H
#define FORS_LEC_CORE_H

#include "lec/state.h"

/*
 * Solve the core around the best colouring's uncoloured edges with at most
 * nodes nodes of exact search: 1 when the core, and so the whole, has no
 * colouring; 0 when that is not shown; -1 out of memory.
 */
int lec_core_refuted(const struct state *s, long nodes);

#endif
