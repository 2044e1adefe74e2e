/* SPDX-License-Identifier: MIT */
#ifndef FORS_SCHEDRUNS_H
#define FORS_SCHEDRUNS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "schedule/schedule.h"

/*
 * The compact schedule's body (doc/schedule-format.md, "Version 2"): each
 * source's transfers as runs, a run being consecutive phases whose
 * destination steps by a fixed amount (among the hosts in sid order, or
 * within one leaf) and whose plane steps by a fixed amount mod Q, all to
 * one LID offset. A schedule built by a rule takes a few runs per host per
 * round; one without structure takes one per transfer, a few bytes each.
 */

/* A schedule's runs, encoded; opaque. */
struct fors_runs;

/*
 * s's transfers as runs, in one pass over the phases: 0, FORS_ENOMEM, or
 * FORS_EVERIFY when a host sends twice in one phase.
 */
int fors_runs_encode(const struct fors_schedule *s, struct fors_runs **out);

/* How many runs r holds, and in how many bytes. */
size_t fors_runs_count(const struct fors_runs *r);
size_t fors_runs_bytes(const struct fors_runs *r);

/* r's bytes to f, their FNV-1a into *fnv: 0, or FORS_EIO. */
int fors_runs_write(const struct fors_runs *r, FILE *f, uint64_t *fnv);

/* Free r; NULL is ignored. */
void fors_runs_free(struct fors_runs *r);

/* FNV-1a, 64 bits: n bytes at p folded into h (start: 0xcbf29ce484222325). */
uint64_t fors_runs_fnv(uint64_t h, const void *p, size_t n);

/*
 * The runs in len bytes of nruns records (the file's), for s (its fabric
 * line and host lines): each read once and checked, buf kept, not copied.
 * 0; FORS_EFORMAT with err naming where, the record and what was wrong;
 * FORS_ENOMEM.
 */
int fors_runs_parse(const struct fors_schedule *s, const unsigned char *buf,
		    size_t len, size_t nruns, const char *where,
		    struct fors_error *err, struct fors_runs **out);

/*
 * The most transfers the compact form holds for s's slots: one per ordered
 * pair. A schedule with more repeats a pair; a file that claims more is
 * refused before anything that size is allocated.
 */
uint64_t fors_runs_max_transfers(const struct fors_schedule *s);

/* How many transfers r's runs hold. */
size_t fors_runs_transfers(const struct fors_runs *r);

/*
 * The phases of r one at a time, in order, each by source: one cursor per
 * source, so a phase costs the sources and the schedule is never whole.
 */
struct fors_runs_iter;

/* An iterator at r's phase 0; s gives the hosts (r's own schedule's). */
int fors_runs_iter_new(const struct fors_runs *r,
		       const struct fors_schedule *s,
		       struct fors_runs_iter **out);

/*
 * The next phase's transfers into x (room for one per source): *n of
 * them. FORS_EFORMAT, with what was wrong in *why and the record (from 0)
 * in *run, once a DLID falls outside 0 .. 0xfffe (its transfer gets none).
 */
int fors_runs_iter_phase(struct fors_runs_iter *it, struct fors_xfer *x,
			 size_t *n, const char **why, size_t *run);

/* Free it; NULL is ignored. */
void fors_runs_iter_free(struct fors_runs_iter *it);

/*
 * Fill s's transfers (xfers, start, nxfers) from len bytes of nruns runs;
 * s has its fabric line and host lines. Each phase's transfers come in
 * source order. FORS_EFORMAT with the run and what was wrong in err
 * (prefixed by where), FORS_ENOMEM.
 */
int fors_runs_decode(struct fors_schedule *s, const unsigned char *buf,
		     size_t len, size_t nruns, const char *where,
		     struct fors_error *err);

/* r keeps buf (the bytes it was parsed from) and frees it with itself. */
void fors_runs_keep(struct fors_runs *r, unsigned char *buf);

/*
 * The same transfers by receiver: runs whose source is each transfer's
 * destination, DLIDs offset from that receiver's LID. 0; FORS_EVERIFY
 * when a host receives twice in a phase, FORS_EINVAL when one sends to
 * itself (that host and phase in *host and *phase); FORS_ENOMEM.
 */
int fors_runs_transpose(const struct fors_runs *r,
			const struct fors_schedule *s, struct fors_runs **out,
			uint32_t *host, uint32_t *phase);

/*
 * r's runs decoded by source, for a source's transfer in a phase: a
 * search among its runs, then the transfer computed, not stored.
 */
struct fors_runs_index;

/* The index of r (checked by its parse or encoding), for s's hosts. */
int fors_runs_index_new(const struct fors_runs *r,
			const struct fors_schedule *s,
			struct fors_runs_index **out);

/* 1 with src's transfer of phase p in *x (from the receiver's side for
 * transposed runs: x->src the receiver), 0 when it has none. */
int fors_runs_index_at(const struct fors_runs_index *ix, uint32_t src,
		       uint32_t p, struct fors_xfer *x);

/* Free ix; NULL is ignored. */
void fors_runs_index_free(struct fors_runs_index *ix);

#endif
