/* SPDX-License-Identifier: MIT */
#ifndef FORS_SCHEDFILE_H
#define FORS_SCHEDFILE_H

#include <stdio.h>

#include "schedule/schedule.h"
#include "formats/schedruns.h"

/* Which form a schedule file takes (doc/schedule-format.md). */
enum fors_sched_form {
	FORS_SCHED_TEXT,	/* version 1: a line per transfer */
	FORS_SCHED_COMPACT,	/* version 2: the text head, then runs */
};

/* The schedule file, version 1 (doc/schedule-format.md). */
int fors_schedule_write(FILE *out, const struct fors_schedule *s);

/*
 * The same with nmore keys of the fabric line after s's own, for a writer
 * that adds what is not the schedule's (the plugin's generation).
 */
int fors_schedule_write_keys(FILE *out, const struct fors_schedule *s,
			     const struct fors_kv *more, size_t nmore);

/*
 * The compact form (version 2) with more keys as fors_schedule_write_keys;
 * FORS_EVERIFY with err saying so when a host sends twice in one phase.
 */
int fors_schedule_write_compact(FILE *out, const struct fors_schedule *s,
				const struct fors_kv *more, size_t nmore,
				struct fors_error *err);

/*
 * A digest of the schedule the file holds: everything it says but the
 * fabric-line key skip (NULL: none), `bound` and `usable`, which say what
 * the fabric allows, not what applications do. A schedule read back from its
 * file has the digest it was written with, so a writer can tell whether
 * anything changed.
 */
uint64_t fors_schedule_digest(const struct fors_schedule *s, const char *skip);

/* Write to path in form atomically: a temporary file beside it, then rename. */
int fors_schedule_write_file(const char *path, const struct fors_schedule *s,
			     enum fors_sched_form form, struct fors_error *err);

/* The same with more keys, as fors_schedule_write_keys. */
int fors_schedule_write_file_keys(const char *path,
				  const struct fors_schedule *s,
				  const struct fors_kv *more, size_t nmore,
				  enum fors_sched_form form,
				  struct fors_error *err);

/*
 * Read a schedule file of either version. name is used in messages ("name:line: ..."). On a
 * malformed file: FORS_EFORMAT and the line and what was expected in err.
 */
int fors_schedule_read(FILE *in, const char *name, struct fors_schedule **out,
		       struct fors_error *err);

/*
 * The same, a compact file's runs kept in *runs (checked, with their
 * bytes) instead of expanded: *out then has its head and host lines and no
 * transfers. A version-1 file is read whole, *runs NULL.
 */
int fors_schedule_read_runs(FILE *in, const char *name,
			    struct fors_schedule **out, struct fors_runs **runs,
			    struct fors_error *err);

/* The same from path ("cannot open PATH: why" when it cannot be read). */
int fors_schedule_read_file(const char *path, struct fors_schedule **out,
			    struct fors_error *err);

/* The same, and which form the file has in *form. */
int fors_schedule_read_file_form(const char *path, struct fors_schedule **out,
				 enum fors_sched_form *form,
				 struct fors_error *err);

#endif
