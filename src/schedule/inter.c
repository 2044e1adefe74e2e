// SPDX-License-Identifier: MIT
/*
 * FORS paper, Section 4 (Algorithm 1), proved in Appendix A. Everything is
 * computed from the counting function nt(x), the number of terms of
 * ceil(i * m0 / (m0 - f)) below x: by Claims 1-3 of Appendix A, slot a
 * sends in phase p iff nt(p + a + 1) > nt(p + a), it has then sent
 * nt(p + a) - nt(a) times before, and theta_a = nt(a). Integer arithmetic
 * only; floor rounds toward minus infinity, so theta_0 = 0.
 */
#include "schedule/schedule.h"
#include "schedule/inter.h"

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint64_t nt(const struct inter *in, uint64_t x)
{
	return x ? (x - 1) * (in->m0 - in->f) / in->m0 + 1 : 0;
}

uint32_t fors_pf(uint32_t m0, uint32_t m1, uint32_t f)
{
	uint64_t num = (uint64_t)m0 * ((uint64_t)m0 * m1 - m0);

	return (uint32_t)((num + (m0 - f) - 1) / (m0 - f));
}

void inter_init(struct inter *in, uint32_t m0, uint32_t m1, uint32_t f)
{
	in->m0 = m0;
	in->m1 = m1;
	in->f = f;
	in->pf = fors_pf(m0, m1, f);
	in->lcm = (uint32_t)((uint64_t)(m1 - 1) * m0 / gcd(m1 - 1, m0));
}

int inter_sends(const struct inter *in, uint32_t a, uint32_t p)
{
	uint64_t n = nt(in, (uint64_t)p + a);
	uint64_t sent = n - nt(in, a);

	return nt(in, (uint64_t)p + a + 1) > n &&
	       sent < (uint64_t)in->m0 * (in->m1 - 1);
}

int64_t inter_index(const struct inter *in, uint32_t a, uint32_t p)
{
	return inter_sends(in, a, p) ? (int64_t)nt(in, (uint64_t)p + a) : -1;
}

uint32_t inter_class(const struct inter *in, uint32_t a, uint64_t n)
{
	uint64_t sent = n - nt(in, a);

	return (uint32_t)((n + sent / in->lcm) % (in->m1 - 1) * in->m0 +
			  n % in->m0);
}

uint64_t inter_first(const struct inter *in, uint32_t a)
{
	return nt(in, a);
}

int64_t inter_dst(const struct inter *in, uint32_t g, uint32_t a, uint32_t p)
{
	int64_t n = inter_index(in, a, p);
	uint32_t c;

	if (n < 0)
		return -1;
	c = inter_class(in, a, (uint64_t)n);
	return (int64_t)(((g + 1 + c / in->m0) % in->m1) * in->m0 +
			 c % in->m0);
}
