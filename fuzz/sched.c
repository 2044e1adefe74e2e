// SPDX-License-Identifier: MIT
/*
 * Fuzzes fors_sched_read(), libforssched's reader, and the lookups an
 * application makes on what it accepts; each lookup must agree with the
 * transfers and host lines it indexes (doc/sched-api.md).
 */
#include "fors/fors-sched.h"
#include "fuzz.h"

static void hosts(const struct fors_sched *s)
{
	const struct fors_sched_host *h;
	size_t i, n;

	for (i = 0; (h = fors_sched_host_at(s, i)); i++) {
		fuzz_require(fors_sched_find_sid(s, h->sid) == h,
			     "find_sid misses a host line");
		fuzz_require(fors_sched_find_guid(s, h->guid, &n) == h ||
			     n > 1, "find_guid misses a unique GUID");
		fuzz_require(fors_sched_find_desc(s, h->desc, h->port, &n) == h ||
			     n > 1, "find_desc misses a unique host");
	}
	fuzz_require(i == fors_sched_nhosts(s), "host_at and nhosts disagree");
	fuzz_require(!fors_sched_find_sid(s, fors_sched_hosts_per_leaf(s) *
					      fors_sched_leaves(s)),
		     "a host past the last sid");
}

static void phases(const struct fors_sched *s)
{
	const struct fors_sched_xfer *x;
	uint32_t p, np = fors_sched_nphases(s);
	size_t i, n;

	for (p = 0; p < np; p++) {
		x = fors_sched_phase(s, p, &n);
		for (i = 0; i < n; i++) {
			fuzz_require(fors_sched_send(s, p, x[i].src) == &x[i],
				     "send misses a transfer");
			fuzz_require(fors_sched_recv(s, p, x[i].dst) == &x[i],
				     "recv misses a transfer");
			fuzz_require(x[i].src_host == fors_sched_find_sid(s, x[i].src),
				     "a transfer's source host is not its sid's");
		}
	}
	fuzz_require(!fors_sched_phase(s, np, &n) && n == 0,
		     "a phase past the last");
	fuzz_require(!fors_sched_send(s, np, 0), "a send past the last phase");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fuzz_open(data, size);
	struct fors_sched *s;
	char err[512];
	int r;

	if (!in)
		return 0;
	r = fors_sched_read(&s, in, "fuzz", err, sizeof(err));
	fuzz_require(r != FORS_SCHED_ENOMEM, FUZZ_NOMEM);
	if (r == FORS_SCHED_OK) {
		fors_sched_generation(s);
		fors_sched_method(s);
		fors_sched_key(s, "split");
		hosts(s);
		phases(s);
		fors_sched_free(s);
	}
	fclose(in);
	return 0;
}
