/* SPDX-License-Identifier: MIT */
#ifndef FORS_MEMORY_H
#define FORS_MEMORY_H

/*
 * Fix the C library's mmap threshold at 1 MiB for the whole process, so
 * that every block of 1 MiB or more is mapped on its own and given back
 * when freed, and let every thread allocate from the arenas there are
 * (one, where none was made yet): 0, or -1 when the library refused.
 */
int fors_memory_tune(void);

#endif
