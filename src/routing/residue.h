/* SPDX-License-Identifier: MIT */
#ifndef FORS_RESIDUE_H
#define FORS_RESIDUE_H

#include <stdint.h>

#include "schedule/inter.h"

/*
 * The residue rule (doc/narrow-lmc.md): Algorithm 1's send of index n
 * takes the (n mod r)-th plane of a list of r planes alive at every leaf,
 * r = m0 - f. 1 when every host is then reached from each leaf through at
 * most k planes (k LID offsets suffice), 0 when not, -1 out of memory.
 */
int fors_residue_fits(const struct inter *in, uint32_t r, uint32_t k);

#endif
