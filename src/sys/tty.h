/* SPDX-License-Identifier: MIT */
#ifndef FORS_TTY_H
#define FORS_TTY_H

#include <stdio.h>

/* 1 when f is a terminal: binary output is not written there. */
int fors_is_terminal(FILE *f);

#endif
