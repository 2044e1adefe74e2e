/* SPDX-License-Identifier: MIT */
#ifndef FORS_MEMORY_H
#define FORS_MEMORY_H

/*
 * Fix the C library's mmap threshold at 1 MiB for the whole process, so
 * that every block of 1 MiB or more is mapped on its own and given back
 * when freed: 0, or -1 when the library refused.
 */
int fors_memory_fix_threshold(void);

#endif
