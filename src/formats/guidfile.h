/* SPDX-License-Identifier: MIT */
#ifndef FORS_GUIDFILE_H
#define FORS_GUIDFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* Port GUIDs, ascending and each once. */
struct fors_guids {
	uint64_t *g;
	size_t n;
};

/*
 * A GUID file as OpenSM's cn_guid_file has it: on each line a port GUID
 * (0x and hex digits, or hex digits), anything after a blank ignored (a
 * node name), blank lines and '#' comments skipped. FORS_EFORMAT naming
 * name:line for anything else or for no GUID at all; FORS_ENOMEM.
 */
int fors_guids_read(FILE *in, const char *name, struct fors_guids **out,
		    struct fors_error *err);

/* fors_guids_read on the file at path; FORS_EIO when it cannot be opened. */
int fors_guids_read_path(const char *path, struct fors_guids **out,
			 struct fors_error *err);

/* 1 when g holds guid. */
int fors_guids_has(const struct fors_guids *g, uint64_t guid);

void fors_guids_free(struct fors_guids *g);

#endif
