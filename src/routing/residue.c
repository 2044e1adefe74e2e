// SPDX-License-Identifier: MIT
/*
 * Why the residue rule is congestion-free, and what it costs in offsets
 * (doc/narrow-lmc.md, "Failures on the same planes"). In a phase the
 * senders of any leaf have the consecutive indices nt(p) .. nt(p + m0) - 1
 * (FORS paper, Appendix A), at most m0 - f of them, and the senders into
 * any leaf have the same indices: taken mod r = m0 - f they are distinct,
 * so each plane carries one transfer out of and one into every leaf. The
 * transfers from one leaf to one host all have one class (leaf distance,
 * slot), and the indices of a class differ by multiples of lcm(m1 - 1,
 * m0), so they take few residues; this counts them.
 */
#include <stdlib.h>

#include "routing/residue.h"

/* Record residue v for class c; 0 when c already has k others. */
static int note(uint16_t *seen, uint8_t *cnt, uint32_t c, uint32_t k,
		uint16_t v)
{
	uint16_t *s = &seen[(size_t)c * k];
	uint32_t i;

	for (i = 0; i < cnt[c]; i++)
		if (s[i] == v)
			return 1;
	if (cnt[c] == k)
		return 0;
	s[cnt[c]++] = v;
	return 1;
}

int fors_residue_fits(const struct inter *in, uint32_t r, uint32_t k)
{
	uint32_t ncls = in->m0 * (in->m1 - 1), a, sent;
	uint16_t *seen;
	uint8_t *cnt;
	int ok = 1;

	if (!r || r > UINT16_MAX || !k || k > UINT8_MAX)
		return 0;
	seen = malloc(sizeof(uint16_t) * ncls * k + 1);
	cnt = calloc(ncls + 1, 1);
	if (!seen || !cnt) {
		free(seen);
		free(cnt);
		return -1;
	}
	for (a = 0; ok && a < in->m0; a++) {
		uint64_t n = inter_first(in, a);

		for (sent = 0; ok && sent < ncls; sent++, n++)
			ok = note(seen, cnt, inter_class(in, a, n), k,
				  (uint16_t)(n % r));
	}
	free(seen);
	free(cnt);
	return ok;
}
