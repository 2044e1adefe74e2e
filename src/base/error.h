/* SPDX-License-Identifier: MIT */
#ifndef FORS_ERROR_H
#define FORS_ERROR_H

/* Return codes of the core library: 0 on success, one of these otherwise. */
enum fors_status {
	FORS_OK = 0,
	FORS_EINVAL = -1,	/* bad argument or parameter */
	FORS_ENOMEM = -2,	/* an allocation failed */
	FORS_EFORMAT = -3,	/* malformed input file */
	FORS_EIO = -4,		/* read or write failed */
	FORS_EVERIFY = -5,	/* a schedule breaks a guarantee */
	FORS_ENOENT = -6,	/* a file that may be missing is */
	FORS_ELIMIT = -7,	/* a search stopped at the limit it was given */
};

/* One human-readable message: what was wrong and where. */
struct fors_error {
	char msg[512];
};

/* Set err's message, printf-style, cut to fit. */
void fors_error_set(struct fors_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
