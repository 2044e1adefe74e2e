// SPDX-License-Identifier: MIT
/*
 * The dialects' parser kit (reader.h). A verdict is only as good as the
 * least understood line, so nothing here is lenient: numbers are decimal
 * digits only, values 0 or 1, names exactly the model's, and a refusal's
 * message carries no byte of the input (it ends up in logs).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilp/reader.h"

int ilp_reader_fail(struct ilp_reader *rd, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->no)
		fors_error_set(rd->err, "%s solution, line %lu: %s", rd->who,
			       rd->no, msg);
	else
		fors_error_set(rd->err, "%s solution: %s", rd->who, msg);
	memset(rd->x, 0, rd->n);
	return FORS_EFORMAT;
}

/* A file cut short has a last line without its newline. */
int ilp_reader_begin(struct ilp_reader *rd, const char *who,
		     const char *text, uint32_t n, uint8_t *x,
		     struct fors_error *err)
{
	size_t len = text ? strlen(text) : 0;

	*rd = (struct ilp_reader){ .who = who, .p = text, .n = n, .x = x,
				   .err = err };
	memset(x, 0, n);
	if (!text)
		return ilp_reader_fail(rd, "no solution file");
	if (!len)
		return ilp_reader_fail(rd, "empty");
	if (text[len - 1] != '\n')
		return ilp_reader_fail(rd, "truncated: the last line has no newline");
	return 0;
}

/* A log's last line may lack its newline. */
int ilp_reader_next(struct ilp_reader *rd)
{
	const char *e;

	if (!*rd->p)
		return 0;
	e = strchrnul(rd->p, '\n');
	rd->line = rd->p;
	rd->len = (size_t)(e - rd->p);
	rd->p = *e ? e + 1 : e;
	rd->no++;
	return 1;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void ilp_reader_split(const struct ilp_reader *rd, struct ilp_tokens *t)
{
	const char *s = rd->line, *e = rd->line + rd->len;

	for (t->n = 0; t->n <= ILP_NTOK; t->n++) {
		while (s < e && blank(*s))
			s++;
		if (s == e)
			return;
		if (t->n == ILP_NTOK) {
			t->n++;
			return;
		}
		t->s[t->n] = s;
		while (s < e && !blank(*s))
			s++;
		t->len[t->n] = (size_t)(s - t->s[t->n]);
	}
}

int ilp_token_is(const struct ilp_tokens *t, int i, const char *w)
{
	return i < t->n && t->len[i] == strlen(w) &&
	       !memcmp(t->s[i], w, t->len[i]);
}

int ilp_line_is(const struct ilp_reader *rd, const char *w)
{
	return rd->len == strlen(w) && !memcmp(rd->line, w, rd->len);
}

int ilp_line_starts(const struct ilp_reader *rd, const char *w)
{
	return rd->len >= strlen(w) && !memcmp(rd->line, w, strlen(w));
}

int ilp_line_has(const struct ilp_reader *rd, const char *w)
{
	return memmem(rd->line, rd->len, w, strlen(w)) != NULL;
}

int ilp_decimal(const char *s, size_t len, uint64_t *v)
{
	size_t i;

	if (!len || len > 10 || (s[0] == '0' && len > 1))
		return -1;
	for (*v = 0, i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return 0;
}

/* x<i> with i < n, spelt as the model spells it: x7, never x07. */
static int var_index(const char *s, size_t len, uint32_t n, uint32_t *i)
{
	uint64_t v;

	if (len < 2 || s[0] != 'x' || ilp_decimal(s + 1, len - 1, &v) ||
	    v >= n)
		return -1;
	*i = (uint32_t)v;
	return 0;
}

int ilp_binary(const char *s, size_t len, uint8_t *b)
{
	char buf[40], *end;
	double d;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	d = strtod(buf, &end);
	if (end != buf + len)
		return -1;
	if (d >= -1e-6 && d <= 1e-6)
		*b = 0;
	else if (d >= 1 - 1e-6 && d <= 1 + 1e-6)
		*b = 1;
	else
		return -1;
	return 0;
}

static int bad_name(struct ilp_reader *rd)
{
	if (!rd->n)
		return ilp_reader_fail(rd, "a variable, but the model has none");
	return ilp_reader_fail(rd, "a name that is not a variable x0 .. x%u",
			       rd->n - 1);
}

int ilp_reader_take(struct ilp_reader *rd, const struct ilp_tokens *t,
		    int name, int val)
{
	uint32_t i;
	uint8_t b;

	if (var_index(t->s[name], t->len[name], rd->n, &i))
		return bad_name(rd);
	if (ilp_binary(t->s[val], t->len[val], &b))
		return ilp_reader_fail(rd, "a value that is not 0 or 1");
	if ((rd->x[i] & 2) && (rd->x[i] & 1) != b)
		return ilp_reader_fail(rd,
				       "x%u listed again with another value", i);
	rd->x[i] = 2 | b;
	return 0;
}

/* Every variable the solver left out is 0. */
int ilp_reader_done(struct ilp_reader *rd, enum ilp_verdict v,
		    enum ilp_verdict *out)
{
	uint32_t i;

	for (i = 0; i < rd->n; i++)
		rd->x[i] = v == ILP_FEASIBLE ? rd->x[i] & 1 : 0;
	*out = v;
	return 0;
}
