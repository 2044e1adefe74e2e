// SPDX-License-Identifier: MIT
/* GUID files: who takes part in the exchange (doc/schedule.md). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "formats/guidfile.h"
#include "formats/io.h"

#define MAX_GUIDS (1u << 20)	/* past any subnet's 49,151 unicast LIDs */

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The GUID a line starts with; 1 for a line with none; -1 if malformed. */
static int line_guid(const char *s, uint64_t *g)
{
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '#' || *p == '\n' || *p == '\r')
		return 1;
	if (parse_u64(&p, 16 * !(p[0] == '0' && (p[1] == 'x' || p[1] == 'X')),
		      g) || !*g)
		return -1;
	return *p && !isspace((unsigned char)*p) && *p != '#' ? -1 : 0;
}

/* Sorted, each once. */
static void unique(struct fors_guids *g)
{
	size_t i, n = 0;

	qsort(g->g, g->n, sizeof(uint64_t), cmp_u64);
	for (i = 0; i < g->n; i++)
		if (!n || g->g[n - 1] != g->g[i])
			g->g[n++] = g->g[i];
	g->n = n;
}

static int add(struct fors_guids *g, size_t *cap, uint64_t v)
{
	if (g->n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		uint64_t *x = realloc(g->g, sizeof(uint64_t) * c);

		if (!x)
			return FORS_ENOMEM;
		g->g = x;
		*cap = c;
	}
	g->g[g->n++] = v;
	return 0;
}

static int lines(FILE *in, const char *name, struct fors_guids *g,
		 struct fors_error *err)
{
	char *line = NULL;
	size_t len = 0, cap = 0;
	uint32_t no = 0;
	uint64_t v;
	int r = 0, k;

	while (!r && getline(&line, &len, in) > 0) {
		no++;
		k = line_guid(line, &v);
		if (k < 0 || (!k && g->n == MAX_GUIDS)) {
			fors_error_set(err, "%s:%u: %s", name, no, k < 0 ?
				       "not a port GUID (0x and hex digits, then anything after a blank)" :
				       "more GUIDs than any subnet has ports");
			r = FORS_EFORMAT;
		} else if (!k && add(g, &cap, v)) {
			fors_error_set(err, "out of memory reading %s", name);
			r = FORS_ENOMEM;
		}
	}
	free(line);
	return r;
}

int fors_guids_read(FILE *in, const char *name, struct fors_guids **out,
		    struct fors_error *err)
{
	struct fors_guids *g = calloc(1, sizeof(*g));
	int r = g ? lines(in, name, g, err) : FORS_ENOMEM;

	*out = NULL;
	if (!g)
		fors_error_set(err, "out of memory reading %s", name);
	if (!r && ferror(in)) {
		fors_error_set(err, "cannot read %s", name);
		r = FORS_EIO;
	}
	if (!r && !g->n) {
		fors_error_set(err, "%s: no port GUID in the file", name);
		r = FORS_EFORMAT;
	}
	if (r) {
		fors_guids_free(g);
		return r;
	}
	unique(g);
	*out = g;
	return 0;
}

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	return fors_guids_read(in, name, out, err);
}

int fors_guids_read_path(const char *path, struct fors_guids **out,
			 struct fors_error *err)
{
	*out = NULL;
	return read_path(path, read_cb, out, err);
}

int fors_guids_has(const struct fors_guids *g, uint64_t guid)
{
	return bsearch(&guid, g->g, g->n, sizeof(uint64_t), cmp_u64) != NULL;
}

void fors_guids_free(struct fors_guids *g)
{
	if (g)
		free(g->g);
	free(g);
}
