/* SPDX-License-Identifier: MIT */
#ifndef FORS_XORSHIFT_H
#define FORS_XORSHIFT_H

#include <stdint.h>

/* The next of a seeded xorshift sequence in *s, below bound (> 0). */
static inline uint32_t fors_xorshift(uint64_t *s, uint32_t bound)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)((*s >> 11) % bound);
}

#endif
