// SPDX-License-Identifier: MIT
#include <unistd.h>

#include "sys/tty.h"

int fors_is_terminal(FILE *f)
{
	return isatty(fileno(f)) == 1;
}
