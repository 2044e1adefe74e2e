/* SPDX-License-Identifier: MIT */
#ifndef FORS_RANKFILE_H
#define FORS_RANKFILE_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define FORS_RANKS_MAX 65536	/* ranks in a file, the sum of its slots */
#define FORS_RANKFILE_LINE 1024	/* characters on a line */
#define FORS_RANKFILE_NAME 255	/* characters of a host name */
#define FORS_RANKFILE_LINES (1ul << 20)	/* lines, comments included */

/* One line of a rank file: a host and how many consecutive ranks it runs. */
struct fors_rank_host {
	char *name;		/* a node description, its first word, or 0x... */
	uint64_t guid;		/* the port GUID name spells, 0 if it is none */
	uint32_t slots;		/* ranks on it, 1 unless slots=N */
	unsigned long line;
};

/* The hosts of an MPI job in rank order. */
struct fors_rankfile {
	char *name;		/* the file, for messages */
	struct fors_rank_host *host;
	uint32_t nhosts;
	uint32_t nranks;	/* the sum of the slots */
};

/*
 * A rank file: on each line a host, in rank order, as `scontrol show
 * hostnames` prints them or as an Open MPI hostfile gives them: NAME
 * (the words before the first key=value word) and `slots=N` (N
 * consecutive ranks, 1..FORS_RANKS_MAX); other key=value words are
 * ignored; blank lines and '#' comments skipped. NAME "0x" and hex digits
 * is a port GUID. FORS_EFORMAT naming name:line for a malformed line, a
 * line or name too long, too many ranks or lines, or no host at all;
 * FORS_ENOMEM, FORS_EIO.
 */
int fors_rankfile_read(FILE *in, const char *name,
		       struct fors_rankfile **out, struct fors_error *err);

/* fors_rankfile_read on the file at path; FORS_EIO when it cannot be opened. */
int fors_rankfile_read_path(const char *path, struct fors_rankfile **out,
			    struct fors_error *err);

/* Free rf; NULL is ignored. */
void fors_rankfile_free(struct fors_rankfile *rf);

#endif
