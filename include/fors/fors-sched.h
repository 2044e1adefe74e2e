/* SPDX-License-Identifier: MIT */
#ifndef FORS_FORS_SCHED_H
#define FORS_FORS_SCHED_H

/*
 * libforssched: read the FORS schedule file (doc/schedule-format.md) and
 * answer, for a host and a phase, whom it sends to, with which DLID, and
 * from whom it receives. See doc/sched-api.md.
 *
 * A loaded schedule is immutable: lookups may run from several threads.
 * Every pointer returned stays valid until fors_sched_free().
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum fors_sched_status {
	FORS_SCHED_OK = 0,
	FORS_SCHED_ENOMEM = -2,		/* an allocation failed */
	FORS_SCHED_EFORMAT = -3,	/* malformed or inconsistent file */
	FORS_SCHED_EIO = -4,		/* cannot open or read the file */
};

/* A loaded schedule; opaque. */
struct fors_sched;

/* A host port: a `host` line of the file. */
struct fors_sched_host {
	uint32_t sid;		/* leaf * hosts-per-leaf + slot */
	uint32_t lid;		/* base LID */
	uint64_t guid;		/* port GUID; ibsim's may all be 0 */
	uint32_t port;		/* port number on its node */
	const char *desc;	/* node description, unescaped */
};

/* One transfer of a phase. */
struct fors_sched_xfer {
	uint32_t src;
	uint32_t dst;
	int32_t plane;		/* -1: within a leaf, or abstract */
	int32_t dlid;		/* the LID to send to; -1: abstract */
	const struct fors_sched_host *src_host;	/* NULL: no host line */
	const struct fors_sched_host *dst_host;	/* NULL: no host line */
};

/*
 * Load a schedule. On failure *out is NULL, the status says why and err
 * (if not NULL) holds one line such as "sched:4: truncated file: no 'end'
 * line", cut to errlen bytes; 512 bytes always suffice.
 */
int fors_sched_open(struct fors_sched **out, const char *path, char *err,
		    size_t errlen);

/*
 * Load a schedule for lookups, without a record per transfer: a compact
 * file (version 2) is answered from its runs, by sender and by receiver,
 * a few bytes a transfer where the records take 32 (an FT(2;72,144)
 * schedule's records alone would be 3.4 GB); a version-1 file is loaded
 * as by fors_sched_open. The load checks what fors_sched_open's does. On
 * a handle loaded from a compact file, fors_sched_phase, fors_sched_send
 * and fors_sched_recv find nothing (NULL): use fors_sched_send_into and
 * fors_sched_recv_into, which answer on every handle.
 */
int fors_sched_open_lookup(struct fors_sched **out, const char *path,
			   char *err, size_t errlen);

/* The same from a stream; name stands for it in messages. */
int fors_sched_read(struct fors_sched **out, FILE *in, const char *name,
		    char *err, size_t errlen);

void fors_sched_free(struct fors_sched *s);

/* The fabric line. */
uint64_t fors_sched_generation(const struct fors_sched *s);	/* 0: none */
/* T*, the fewest phases the fabric allows (guarantee 5); 0: not given. */
uint32_t fors_sched_bound(const struct fors_sched *s);
uint32_t fors_sched_hosts_per_leaf(const struct fors_sched *s);	/* M0 */
uint32_t fors_sched_leaves(const struct fors_sched *s);		/* M1 */
uint32_t fors_sched_planes(const struct fors_sched *s);		/* Q */
uint32_t fors_sched_reduction(const struct fors_sched *s);	/* f */
uint32_t fors_sched_impacted(const struct fors_sched *s);	/* m */
int fors_sched_lmc(const struct fors_sched *s);	/* -1: abstract */
uint32_t fors_sched_nphases(const struct fors_sched *s);
const char *fors_sched_method(const struct fors_sched *s);	/* or NULL */

/* Any other key of the fabric line (e.g. "split"); NULL when absent. */
const char *fors_sched_key(const struct fors_sched *s, const char *key);

/* Host ports in file order; an abstract schedule has none. */
size_t fors_sched_nhosts(const struct fors_sched *s);
const struct fors_sched_host *fors_sched_host_at(const struct fors_sched *s,
						 size_t i);

/* The host port with this sid; NULL when it has no host line. */
const struct fors_sched_host *fors_sched_find_sid(const struct fors_sched *s,
						  uint32_t sid);

/*
 * The host port with this port GUID, or this node description and port
 * number (0: any port). NULL unless exactly one matches; *n (if n is not
 * NULL) says how many do: an ibsim fabric gives every port GUID 0.
 */
const struct fors_sched_host *fors_sched_find_guid(const struct fors_sched *s,
						   uint64_t guid, size_t *n);
const struct fors_sched_host *fors_sched_find_desc(const struct fors_sched *s,
						   const char *desc,
						   uint32_t port, size_t *n);

/* The transfers of a phase in file order, *n of them; NULL past the end. */
const struct fors_sched_xfer *fors_sched_phase(const struct fors_sched *s,
					       uint32_t phase, size_t *n);

/*
 * What sid sends and receives in phase; NULL when it is idle then (or the
 * phase or sid is out of range). O(log n) in the phase's transfers.
 */
const struct fors_sched_xfer *fors_sched_send(const struct fors_sched *s,
					      uint32_t phase, uint32_t sid);
const struct fors_sched_xfer *fors_sched_recv(const struct fors_sched *s,
					      uint32_t phase, uint32_t sid);

/*
 * What sid sends, and receives, in phase, copied into *out: 1, or 0 when
 * it is idle then (or the phase or sid is out of range). Any handle; on
 * one from fors_sched_open_lookup a search among the host's runs, the
 * transfer computed.
 */
int fors_sched_send_into(const struct fors_sched *s, uint32_t phase,
			 uint32_t sid, struct fors_sched_xfer *out);
int fors_sched_recv_into(const struct fors_sched *s, uint32_t phase,
			 uint32_t sid, struct fors_sched_xfer *out);

#ifdef __cplusplus
}
#endif

#endif
