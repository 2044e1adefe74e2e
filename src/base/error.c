// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>

#include "base/error.h"

void fors_error_set(struct fors_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}
