// SPDX-License-Identifier: MIT
/*
 * fors-sched-peer: whom a host sends to in a phase of the all-to-all, with
 * which DLID, and from whom it receives; an example of libforssched.
 * Against an installed fors:
 *
 *   cc -o fors-sched-peer fors-sched-peer.c $(pkg-config --cflags --libs fors-sched)
 */
#define _POSIX_C_SOURCE 200809L	/* strndup, even with -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fors/fors-sched.h>

static const char usage[] =
	"Usage: fors-sched-peer SCHEDULE HOST PHASE\n"
	"\n"
	"Print whom HOST sends to in PHASE (its id, node description, port,\n"
	"port GUID, base LID) with the DLID and plane to use, and from whom\n"
	"it receives. HOST is a host id, a port GUID (0x...), or a node\n"
	"description, DESCRIPTION:PORT for one port of a multi-port node.\n"
	"\n"
	"Exit status: 0 done, 1 bad arguments, 2 unreadable or bad SCHEDULE.\n";

static int fail(const char *fmt, const char *a, unsigned long b)
{
	fputs("fors-sched-peer: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 1;
}

/* A whole decimal or (base 16) hexadecimal number, without sign. */
static int number(const char *t, int base, uint64_t *v)
{
	const char *digits = base == 16 ? "0123456789abcdefABCDEF" :
			     "0123456789";
	char *end;

	if (!*t || t[strspn(t, digits)])
		return -1;
	errno = 0;
	*v = strtoull(t, &end, base);
	return errno ? -1 : 0;
}

static int by_guid(const struct fors_sched *s, const char *arg,
		   const struct fors_sched_host **h)
{
	uint64_t guid;
	size_t n;

	*h = NULL;
	if (number(arg + 2, 16, &guid))
		return fail("'%s' is not a port GUID", arg, 0);
	*h = fors_sched_find_guid(s, guid, &n);
	if (n > 1)
		return fail("port GUID %s names %lu host ports: name the host by id or description",
			    arg, n);
	return *h ? 0 : fail("no host port has port GUID %s", arg, 0);
}

/* DESCRIPTION, or DESCRIPTION:PORT when no node is called that. */
static int by_desc(const struct fors_sched *s, const char *arg,
		   const struct fors_sched_host **h)
{
	const char *colon = strrchr(arg, ':');
	uint64_t port;
	size_t n;
	char *d;

	*h = fors_sched_find_desc(s, arg, 0, &n);
	if (n > 1)
		return fail("'%s' names %lu host ports: add :PORT", arg, n);
	if (n == 0 && colon && !number(colon + 1, 10, &port) && port &&
	    port <= 255) {
		d = strndup(arg, (size_t)(colon - arg));
		if (!d)
			return fail("%s", "out of memory", 0);
		*h = fors_sched_find_desc(s, d, (uint32_t)port, &n);
		free(d);
	}
	return *h ? 0 : fail("no host port '%s' in the schedule", arg, 0);
}

/* The host id HOST names. */
static int resolve(const struct fors_sched *s, const char *arg, uint32_t *sid)
{
	uint32_t hosts = fors_sched_hosts_per_leaf(s) * fors_sched_leaves(s);
	const struct fors_sched_host *h;
	uint64_t v;
	int e;

	if (!number(arg, 10, &v)) {
		if (v >= hosts)
			return fail("host id %s is out of range 0..%lu", arg,
				    hosts - 1);
		if (fors_sched_nhosts(s) &&
		    !fors_sched_find_sid(s, (uint32_t)v))
			return fail("host id %s has no host port in the schedule",
				    arg, 0);
		*sid = (uint32_t)v;
		return 0;
	}
	if (!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2))
		e = by_guid(s, arg, &h);
	else
		e = by_desc(s, arg, &h);
	if (!e)
		*sid = h->sid;
	return e;
}

static void put_host(uint32_t sid, const struct fors_sched_host *h)
{
	const char *d;

	printf(" %" PRIu32, sid);
	if (!h)
		return;
	fputs(" \"", stdout);
	for (d = h->desc; *d; d++) {
		if (*d == '"' || *d == '\\')
			putchar('\\');
		putchar(*d);
	}
	printf("\" port %" PRIu32 " guid 0x%016" PRIx64 " lid %" PRIu32,
	       h->port, h->guid, h->lid);
}

static void put_num(const char *key, int32_t v)
{
	if (v < 0)
		printf(" %s -", key);
	else
		printf(" %s %" PRId32, key, v);
}

/* "send" or "recv": the peer, then the DLID and plane the transfer uses. */
static void put_xfer(const char *what, const struct fors_sched_xfer *x,
		     int send)
{
	fputs(what, stdout);
	if (!x) {
		puts(" idle");
		return;
	}
	if (send)
		put_host(x->dst, x->dst_host);
	else
		put_host(x->src, x->src_host);
	put_num("dlid", x->dlid);
	put_num("plane", x->plane);
	putchar('\n');
}

static int peer(const struct fors_sched *s, const char *host,
		const char *phase)
{
	uint32_t n = fors_sched_nphases(s), sid = 0;
	struct fors_sched_xfer x;
	uint64_t p;

	if (number(phase, 10, &p))
		return fail("'%s' is not a phase number", phase, 0);
	if (p >= n && n)
		return fail("phase %s is out of range 0..%lu", phase, n - 1);
	if (p >= n)
		return fail("phase %s: the schedule has no phases", phase, 0);
	if (resolve(s, host, &sid))
		return 1;
	printf("phase %" PRIu64 " of %" PRIu32, p, n);
	if (fors_sched_bound(s))
		printf(" (bound %" PRIu32 ")", fors_sched_bound(s));
	if (fors_sched_generation(s))
		printf(", generation %" PRIu64, fors_sched_generation(s));
	fputs("\nhost", stdout);
	put_host(sid, fors_sched_find_sid(s, sid));
	putchar('\n');
	put_xfer("send", fors_sched_send_into(s, (uint32_t)p, sid, &x) ? &x :
		 NULL, 1);
	put_xfer("recv", fors_sched_recv_into(s, (uint32_t)p, sid, &x) ? &x :
		 NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	struct fors_sched *s;
	char err[512];
	int e;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return fputs(usage, stdout), 0;
	if (argc != 4) {
		fputs(usage, stderr);
		return 1;
	}
	/* lookups alone: a compact file is answered from its runs */
	if (fors_sched_open_lookup(&s, argv[1], err, sizeof(err))) {
		fprintf(stderr, "fors-sched-peer: %s\n", err);
		return 2;
	}
	e = peer(s, argv[2], argv[3]);
	fors_sched_free(s);
	return e;
}
