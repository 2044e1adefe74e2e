/* SPDX-License-Identifier: MIT */
#ifndef FORS_SCENFILE_H
#define FORS_SCENFILE_H

#include <stdio.h>

#include "base/error.h"
#include "fabric/scenario.h"

/*
 * The text form:
 *   fors-scenario 1
 *   fabric m0 M0 m1 M1 planes Q
 *   leaf L hosts 0110.. planes 1101..   (one per leaf, in order)
 *   end
 */
int fors_scenario_write(FILE *out, const struct fors_scenario *sc);

/* Read that form; FORS_EFORMAT with name:line and what was expected. */
int fors_scenario_read(FILE *in, const char *name,
		       struct fors_scenario **out, struct fors_error *err);

#endif
