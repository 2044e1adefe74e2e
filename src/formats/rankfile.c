// SPDX-License-Identifier: MIT
/*
 * Rank files: the hosts of an MPI job in rank order, for fors eval
 * --shift-ranks. Parsing only: which CA port a name means is the
 * topology's question (verify/eval.c). Bounded: a line, a name, the lines
 * and the ranks each have a limit, so a hostile file costs little memory.
 *
 *   # scontrol show hostnames "$SLURM_JOB_NODELIST"
 *   node001
 *   node002 slots=2 max_slots=4       (Open MPI hostfile: two ranks)
 *   0x0002c903000ffe35                (a port GUID)
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "formats/io.h"
#include "formats/rankfile.h"

#define BLANKS " \t\r\v\f"

struct rank_parser {
	struct fors_rankfile *rf;
	uint32_t cap;
	unsigned long lineno;
	struct fors_error *err;
};

static int bad(struct rank_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "name:line: what", FORS_EFORMAT. */
static int bad(struct rank_parser *p, const char *fmt, ...)
{
	char what[sizeof(p->err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fors_error_set(p->err, "%s:%lu: %s", p->rf->name, p->lineno, what);
	return FORS_EFORMAT;
}

/*
 * A line into buf (cap bytes, the newline dropped): its length; -1 at the
 * end of the file, -2 when it does not fit, -3 at a NUL byte.
 */
static int read_line(FILE *in, char *buf, int cap)
{
	int c, n = 0;

	while ((c = getc(in)) != EOF && c != '\n') {
		if (c == '\0')
			return -3;
		if (n == cap - 1)
			return -2;
		buf[n++] = (char)c;
	}
	if (c == EOF && n == 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* A key=value word: slots=N into *slots (0 until given); others ignored. */
static int key_word(struct rank_parser *p, const char *w, uint32_t *slots)
{
	const char *s = w + 6;
	uint64_t v;

	if (strncmp(w, "slots=", 6))
		return 0;
	if (*slots)
		return bad(p, "slots given twice");
	if (parse_u64(&s, 10, &v) || *s || v < 1 || v > FORS_RANKS_MAX)
		return bad(p, "'%s': expected slots=N with N in 1..%u", w,
			   FORS_RANKS_MAX);
	*slots = (uint32_t)v;
	return 0;
}

/* NAME's port GUID when it spells one (0x and hex digits), else 0. */
static int name_guid(struct rank_parser *p, const char *name, uint64_t *g)
{
	const char *s = name + 2;

	*g = 0;
	if (name[0] != '0' || (name[1] != 'x' && name[1] != 'X'))
		return 0;
	if (strlen(s) > 16 || parse_u64(&s, 16, g) || *s || !*g)
		return bad(p, "'%s' is not a port GUID (0x and 1 to 16 hex digits, not 0)",
			   name);
	return 0;
}

/* name with its slots appended, within the limits on names and ranks. */
static int add_host(struct rank_parser *p, const char *name, uint32_t slots)
{
	struct fors_rankfile *rf = p->rf;
	struct fors_rank_host *h;
	uint64_t guid;
	int r;

	if (strlen(name) > FORS_RANKFILE_NAME)
		return bad(p, "a host name longer than %u characters",
			   FORS_RANKFILE_NAME);
	r = name_guid(p, name, &guid);
	if (r)
		return r;
	if (rf->nranks + (uint64_t)slots > FORS_RANKS_MAX)
		return bad(p, "more than %u ranks", FORS_RANKS_MAX);
	if (rf->nhosts == p->cap) {
		uint32_t cap = p->cap ? 2 * p->cap : 64;

		h = realloc(rf->host, sizeof(*h) * cap);
		if (!h)
			return FORS_ENOMEM;
		rf->host = h;
		p->cap = cap;
	}
	h = &rf->host[rf->nhosts];
	h->name = strdup(name);
	if (!h->name)
		return FORS_ENOMEM;
	h->guid = guid;
	h->slots = slots;
	h->line = p->lineno;
	rf->nhosts++;
	rf->nranks += slots;
	return 0;
}

/* NAME (its words joined by one blank) and key=value words; or nothing. */
static int host_line(struct rank_parser *p, char *s)
{
	char name[FORS_RANKFILE_LINE + 1], *w, *save = NULL;
	uint32_t slots = 0;
	size_t len = 0;
	int keys = 0, r = 0;

	s[strcspn(s, "#")] = '\0';
	for (w = strtok_r(s, BLANKS, &save); w && !r;
	     w = strtok_r(NULL, BLANKS, &save)) {
		if (strchr(w, '=') && !len)
			r = bad(p, "expected a host name before '%s'", w);
		else if (strchr(w, '='))
			keys = 1, r = key_word(p, w, &slots);
		else if (keys)
			r = bad(p, "expected key=value after the host name, got '%s'",
				w);
		else
			len += (size_t)sprintf(name + len, "%s%s", len ? " " : "", w);
	}
	if (r || !len)
		return r;
	return add_host(p, name, slots ? slots : 1);
}

/* Every line of in, counted and bounded; 0 or the first error. */
static int lines(FILE *in, struct rank_parser *p)
{
	char buf[FORS_RANKFILE_LINE + 1];
	int n, r = 0;

	while (!r && (n = read_line(in, buf, sizeof(buf))) != -1) {
		if (++p->lineno > FORS_RANKFILE_LINES)
			r = bad(p, "more than %lu lines", FORS_RANKFILE_LINES);
		else if (n == -2)
			r = bad(p, "a line longer than %u characters",
				FORS_RANKFILE_LINE);
		else if (n == -3)
			r = bad(p, "a NUL byte: not a text file");
		else
			r = host_line(p, buf);
	}
	return r;
}

int fors_rankfile_read(FILE *in, const char *name,
		       struct fors_rankfile **out, struct fors_error *err)
{
	struct rank_parser p = { NULL, 0, 0, err };
	int r = FORS_ENOMEM;

	*out = NULL;
	p.rf = calloc(1, sizeof(*p.rf));
	if (p.rf && (p.rf->name = strdup(name)))
		r = lines(in, &p);
	if (!r && ferror(in)) {
		fors_error_set(err, "cannot read %s", name);
		r = FORS_EIO;
	}
	if (!r && !p.rf->nhosts) {
		fors_error_set(err, "%s: no host in the rank file", name);
		r = FORS_EFORMAT;
	}
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory reading %s", name);
	if (r) {
		fors_rankfile_free(p.rf);
		return r;
	}
	*out = p.rf;
	return 0;
}

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	return fors_rankfile_read(in, name, out, err);
}

int fors_rankfile_read_path(const char *path, struct fors_rankfile **out,
			    struct fors_error *err)
{
	*out = NULL;
	return read_path(path, read_cb, out, err);
}

void fors_rankfile_free(struct fors_rankfile *rf)
{
	uint32_t i;

	if (!rf)
		return;
	for (i = 0; i < rf->nhosts; i++)
		free(rf->host[i].name);
	free(rf->host);
	free(rf->name);
	free(rf);
}
