// SPDX-License-Identifier: MIT
/*
 * MILP solvers as separate programs (doc/ilp.md). Each run gets a private
 * directory for the model, the solution and any log, removed afterwards;
 * the solver stops itself at the time limit and fors_spawn() kills it a
 * grace period later. What a solver writes is parsed as untrusted text:
 * a verdict is kept only when every line is understood.
 *
 *   cbc     cbc MODEL timeMode elapsed sec S solve solu SOL
 *   glpsol  glpsol --lp MODEL --tmlim S -o SOL  (printable report: names)
 *   highs   highs --model_file MODEL --time_limit S --solution_file SOL
 *   gurobi  gurobi_cl TimeLimit=S ResultFile=SOL LogFile=LOG MODEL
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/slurp.h"
#include "sys/spawn.h"
#include "sys/tmpdir.h"
#include "ilp/solver.h"

/* Writing the solution and exiting after the solver's own time limit. */
#define GRACE_MS 1000

#define NTOK 8
#define MAXARG 12

/* One solver run's files and command line. */
struct job {
	char dir[PATH_MAX];
	char model[PATH_MAX + 16], sol[PATH_MAX + 16], log[PATH_MAX + 16];
	char limit[32];			/* seconds, as the solver takes them */
	char word[3][PATH_MAX + 32];	/* gurobi's parameter=value */
	const char *argv[MAXARG];
	uint32_t kill_ms;
};

struct ops {
	struct ilp_solver sv;
	int whole_seconds;	/* the time limit option takes an integer */
	int exit_max;		/* highest exit status of a normal run */
	int need_sol;		/* no solution file is an error */
	void (*args)(struct job *j, const char *prog);
	int (*parse)(const char *text, const char *out, uint32_t n,
		     uint8_t *x, enum ilp_verdict *v, struct fors_error *err);
};

/* The current line of a solution file being read. */
struct parse {
	const char *who;
	const char *p;		/* the next line */
	const char *line;
	size_t len;		/* without its newline */
	unsigned long no;
	uint32_t n;
	uint8_t *x;		/* until done(): bit 1 listed, bit 0 value */
	struct fors_error *err;
};

struct toks {
	int n;			/* NTOK + 1: more than NTOK */
	const char *s[NTOK];
	size_t len[NTOK];
};

static int bad(struct parse *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct parse *ps, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ps->no)
		fors_error_set(ps->err, "%s solution, line %lu: %s", ps->who,
			       ps->no, msg);
	else
		fors_error_set(ps->err, "%s solution: %s", ps->who, msg);
	memset(ps->x, 0, ps->n);
	return FORS_EFORMAT;
}

/* A file cut short has a last line without its newline. */
static int begin(struct parse *ps, const char *who, const char *text,
		 uint32_t n, uint8_t *x, struct fors_error *err)
{
	size_t len = text ? strlen(text) : 0;

	*ps = (struct parse){ .who = who, .p = text, .n = n, .x = x,
			      .err = err };
	memset(x, 0, n);
	if (!text)
		return bad(ps, "no solution file");
	if (!len)
		return bad(ps, "empty");
	if (text[len - 1] != '\n')
		return bad(ps, "truncated: the last line has no newline");
	return 0;
}

/* The next line; a log's last may lack its newline. */
static int next(struct parse *ps)
{
	const char *e;

	if (!*ps->p)
		return 0;
	e = strchrnul(ps->p, '\n');
	ps->line = ps->p;
	ps->len = (size_t)(e - ps->p);
	ps->p = *e ? e + 1 : e;
	ps->no++;
	return 1;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void split(const struct parse *ps, struct toks *t)
{
	const char *s = ps->line, *e = ps->line + ps->len;

	for (t->n = 0; t->n <= NTOK; t->n++) {
		while (s < e && blank(*s))
			s++;
		if (s == e)
			return;
		if (t->n == NTOK) {
			t->n++;
			return;
		}
		t->s[t->n] = s;
		while (s < e && !blank(*s))
			s++;
		t->len[t->n] = (size_t)(s - t->s[t->n]);
	}
}

static int tok_is(const struct toks *t, int i, const char *w)
{
	return i < t->n && t->len[i] == strlen(w) &&
	       !memcmp(t->s[i], w, t->len[i]);
}

/* The line is exactly w, starts with it, holds it. */
static int line_is(const struct parse *ps, const char *w)
{
	return ps->len == strlen(w) && !memcmp(ps->line, w, ps->len);
}

static int line_starts(const struct parse *ps, const char *w)
{
	return ps->len >= strlen(w) && !memcmp(ps->line, w, strlen(w));
}

static int line_has(const struct parse *ps, const char *w)
{
	return memmem(ps->line, ps->len, w, strlen(w)) != NULL;
}

/* A decimal number of at most 10 digits, no sign, no leading zero. */
static int number(const char *s, size_t len, uint64_t *v)
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

	if (len < 2 || s[0] != 'x' || number(s + 1, len - 1, &v) || v >= n)
		return -1;
	*i = (uint32_t)v;
	return 0;
}

/* 0 or 1 within 1e-6; anything else, NaN included, is refused. */
static int binary(const char *s, size_t len, uint8_t *b)
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

static int bad_name(struct parse *ps)
{
	if (!ps->n)
		return bad(ps, "a variable, but the model has none");
	return bad(ps, "a name that is not a variable x0 .. x%u",
		   ps->n - 1);
}

/* The value of variable name; listing one twice is fine if they agree. */
static int take(struct parse *ps, const struct toks *t, int name, int val)
{
	uint32_t i;
	uint8_t b;

	if (var_index(t->s[name], t->len[name], ps->n, &i))
		return bad_name(ps);
	if (binary(t->s[val], t->len[val], &b))
		return bad(ps, "a value that is not 0 or 1");
	if ((ps->x[i] & 2) && (ps->x[i] & 1) != b)
		return bad(ps, "x%u listed again with another value", i);
	ps->x[i] = 2 | b;
	return 0;
}

/* Every variable the solver left out is 0. */
static int done(struct parse *ps, enum ilp_verdict v, enum ilp_verdict *out)
{
	uint32_t i;

	for (i = 0; i < ps->n; i++)
		ps->x[i] = v == ILP_FEASIBLE ? ps->x[i] & 1 : 0;
	*out = v;
	return 0;
}

/*
 * cbc: "Optimal - objective value 0.00000000", then "index name value
 * reduced-cost" for each nonzero variable. Its status line, from
 * CbcSolver.cpp: Optimal [(within gap tolerance)], Infeasible, Integer
 * infeasible, Stopped on time|iterations|difficulties|ctrl-c [(no integer
 * solution - continuous used)], Status unknown, Unbounded.
 */
static int cbc_status(struct parse *ps, enum ilp_verdict *v, int *stopped)
{
	*stopped = 0;
	if (!line_has(ps, " - objective value "))
		return bad(ps, "not a cbc status line");
	if (line_starts(ps, "Optimal"))
		*v = ILP_FEASIBLE;
	else if (line_starts(ps, "Infeasible") ||
		 line_starts(ps, "Integer infeasible"))
		*v = ILP_INFEASIBLE;
	else if (line_starts(ps, "Status unknown") ||
		 (line_starts(ps, "Stopped on ") &&
		  line_has(ps, "(no integer solution")))
		*v = ILP_UNKNOWN;
	else if (line_starts(ps, "Stopped on "))
		*stopped = 1;
	else
		return bad(ps, "a cbc status fors does not know");
	if (*stopped)
		*v = ILP_FEASIBLE;
	return 0;
}

int ilp_parse_cbc(const char *text, uint32_t n, uint8_t *x,
		  enum ilp_verdict *v, struct fors_error *err)
{
	struct parse ps;
	struct toks t;
	uint64_t idx;
	int r, stopped, o;
	uint8_t b;

	r = begin(&ps, "cbc", text, n, x, err);
	if (r || !next(&ps) || (r = cbc_status(&ps, v, &stopped)))
		return r ? r : bad(&ps, "empty");
	while (*v == ILP_FEASIBLE && next(&ps)) {
		split(&ps, &t);
		o = tok_is(&t, 0, "**");	/* cbc's mark of a violated bound */
		if (t.n != 4 + o || number(t.s[o], t.len[o], &idx))
			return bad(&ps, "not 'index name value reduced-cost'");
		/*
		 * Stopped before branch and bound, cbc prints the relaxation
		 * without saying so: fractional values are no solution.
		 */
		if (stopped && binary(t.s[o + 2], t.len[o + 2], &b))
			return done(&ps, ILP_UNKNOWN, v);
		r = take(&ps, &t, o + 1, o + 2);
		if (r)
			return r;
	}
	return done(&ps, *v, v);
}

/*
 * glpsol -o: glp_print_mip()'s report. A header ("Columns:    N (...)",
 * "Status:     INTEGER OPTIMAL"), the rows, then the columns table "No.
 * name * activity bounds" with the names, and "End of output" last.
 */
static int glpsol_header(struct parse *ps, uint64_t *ncol,
			 enum ilp_verdict *v)
{
	static const char *const key[] = { "Problem:", "Rows:", "Columns:",
					   "Non-zeros:", "Status:" };
	struct toks t;
	unsigned k;

	for (k = 0; k < 5; k++) {
		if (!next(ps) || !line_starts(ps, key[k]))
			return bad(ps, "expected '%s'", key[k]);
		split(ps, &t);
		if (k == 2 && (t.n < 2 || number(t.s[1], t.len[1], ncol)))
			return bad(ps, "no number of columns");
	}
	if (t.n != 3 || !tok_is(&t, 1, "INTEGER"))
		return bad(ps, "not a MIP status of glpsol");
	if (tok_is(&t, 2, "OPTIMAL") || tok_is(&t, 2, "NON-OPTIMAL"))
		*v = ILP_FEASIBLE;
	else if (tok_is(&t, 2, "EMPTY"))
		*v = ILP_INFEASIBLE;
	else if (tok_is(&t, 2, "UNDEFINED"))
		*v = ILP_UNKNOWN;
	else
		return bad(ps, "not a MIP status of glpsol");
	return 0;
}

/* The column table's N lines: "j xJ * value lower upper". */
static int glpsol_columns(struct parse *ps, uint64_t ncol)
{
	struct toks t;
	uint64_t j, no;
	int found = 0, r;

	while (!found && next(ps))
		found = line_starts(ps, "   No. Column name ");
	if (!found || !next(ps) || !line_starts(ps, "------ "))
		return bad(ps, "no column table");
	for (j = 1; j <= ncol; j++) {
		if (!next(ps))
			return bad(ps, "the column table ends early");
		split(ps, &t);
		if (t.n < 4 || number(t.s[0], t.len[0], &no) || no != j ||
		    !tok_is(&t, 2, "*"))
			return bad(ps, "not integer column %llu",
				   (unsigned long long)j);
		r = take(ps, &t, 1, 3);
		if (r)
			return r;
	}
	if (!next(ps) || ps->len)
		return bad(ps, "more columns than the header's %llu",
			   (unsigned long long)ncol);
	return 0;
}

int ilp_parse_glpsol(const char *text, uint32_t n, uint8_t *x,
		     enum ilp_verdict *v, struct fors_error *err)
{
	struct parse ps;
	uint64_t ncol = 0;
	int r = begin(&ps, "glpsol", text, n, x, err);

	if (!r)
		r = glpsol_header(&ps, &ncol, v);
	if (!r && *v == ILP_FEASIBLE)
		r = glpsol_columns(&ps, ncol);
	while (!r && next(&ps))
		;
	if (!r && !line_is(&ps, "End of output"))
		r = bad(&ps, "truncated: no 'End of output'");
	return r ? r : done(&ps, *v, v);
}

/*
 * highs --solution_file, its default style (writeSolutionFile() in HiGHS's
 * HighsModelUtils.cpp): "Model status", the status, "", "# Primal solution
 * values", None|Feasible|Infeasible and, with values, "Objective V",
 * "# Columns N", N lines "name value", "# Rows M", the rows, the duals.
 */
enum { H_BAD, H_OPT, H_INF, H_STOP };

static int highs_status(const struct parse *ps)
{
	static const char *const stop[] = {
		"Time limit reached", "Iteration limit reached",
		"Solution limit reached", "Memory limit reached",
		"Interrupted by user", "Interrupted by HiGHS",
		"Bound on objective reached", "Target for objective reached",
		"Unknown",
	};
	unsigned i;

	if (line_is(ps, "Optimal"))
		return H_OPT;
	/* Every variable is binary: the model cannot be unbounded. */
	if (line_is(ps, "Infeasible") ||
	    line_is(ps, "Primal infeasible or unbounded"))
		return H_INF;
	for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
		if (line_is(ps, stop[i]))
			return H_STOP;
	return H_BAD;
}

static int highs_columns(struct parse *ps)
{
	struct toks t;
	uint64_t k, ncol = 0;
	int r;

	if (!next(ps) || !line_starts(ps, "Objective "))
		return bad(ps, "expected 'Objective'");
	t.n = 0;
	if (next(ps))
		split(ps, &t);
	if (t.n != 3 || !tok_is(&t, 0, "#") || !tok_is(&t, 1, "Columns") ||
	    number(t.s[2], t.len[2], &ncol))
		return bad(ps, "expected '# Columns N'");
	for (k = 0; k < ncol; k++) {
		if (!next(ps))
			return bad(ps, "the columns end early");
		split(ps, &t);
		if (t.n != 2)
			return bad(ps, "not 'name value'");
		r = take(ps, &t, 0, 1);
		if (r)
			return r;
	}
	if (!next(ps) || !line_starts(ps, "# Rows "))
		return bad(ps, "expected '# Rows' after the %llu columns",
			   (unsigned long long)ncol);
	return 0;
}

int ilp_parse_highs(const char *text, uint32_t n, uint8_t *x,
		    enum ilp_verdict *v, struct fors_error *err)
{
	struct parse ps;
	int r = begin(&ps, "highs", text, n, x, err), c, feasible;

	if (r)
		return r;
	if (!next(&ps) || !line_is(&ps, "Model status"))
		return bad(&ps, "expected 'Model status'");
	if (!next(&ps) || (c = highs_status(&ps)) == H_BAD)
		return bad(&ps, "a model status fors does not know");
	if (!next(&ps) || ps.len || !next(&ps) ||
	    !line_is(&ps, "# Primal solution values"))
		return bad(&ps, "expected '# Primal solution values'");
	if (!next(&ps) || !(line_is(&ps, "None") ||
			    line_is(&ps, "Feasible") ||
			    line_is(&ps, "Infeasible")))
		return bad(&ps, "expected None, Feasible or Infeasible");
	feasible = line_is(&ps, "Feasible");
	if (c == H_OPT && !feasible)
		return bad(&ps, "optimal, but no feasible solution");
	if (c == H_INF && feasible)
		return bad(&ps, "infeasible, but a feasible solution");
	if (!feasible)
		return done(&ps, c == H_INF ? ILP_INFEASIBLE : ILP_UNKNOWN, v);
	r = highs_columns(&ps);
	return r ? r : done(&ps, ILP_FEASIBLE, v);
}

/*
 * gurobi_cl: the verdict is in its log on standard output ("Optimal
 * solution found (tolerance ...)", "Model is infeasible [or unbounded]",
 * "Time limit reached"). The SOL file, written only when there is a
 * solution, has "#" comments and a "name value" line for every variable.
 */
enum { G_NONE, G_OPT, G_INF, G_STOP };

static int gurobi_line(const struct parse *lg)
{
	static const char *const stop[] = {
		"Time limit reached", "Solution limit reached",
		"Node limit reached", "Iteration limit reached",
		"Work limit reached", "Memory limit reached",
		"Solve interrupted",
	};
	unsigned i;

	if (line_starts(lg, "Optimal solution found"))
		return G_OPT;
	/* Every variable is binary: the model cannot be unbounded. */
	if (line_starts(lg, "Model is infeasible"))
		return G_INF;
	for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
		if (line_starts(lg, stop[i]))
			return G_STOP;
	return G_NONE;
}

/* The log's one verdict, G_NONE, or -1 for two different ones. */
static int gurobi_verdict(const char *out)
{
	struct parse lg = { .p = out };
	int c = G_NONE, k;

	while (next(&lg)) {
		k = gurobi_line(&lg);
		if (k && c && k != c)
			return -1;
		if (k)
			c = k;
	}
	return c;
}

int ilp_parse_gurobi(const char *text, const char *out, uint32_t n,
		     uint8_t *x, enum ilp_verdict *v, struct fors_error *err)
{
	struct parse ps = { .who = "gurobi", .n = n, .x = x, .err = err };
	int c = out ? gurobi_verdict(out) : G_NONE, r;
	struct toks t;
	uint32_t i;

	memset(x, 0, n);
	if (c <= G_NONE)
		return bad(&ps, c ? "its log gives two verdicts" :
			   "its log gives no verdict");
	if (c == G_INF || (c == G_STOP && !text))
		return done(&ps, c == G_INF ? ILP_INFEASIBLE : ILP_UNKNOWN, v);
	r = begin(&ps, "gurobi", text, n, x, err);
	while (!r && next(&ps)) {
		split(&ps, &t);
		if (!t.n || t.s[0][0] == '#')
			continue;
		r = t.n == 2 ? take(&ps, &t, 0, 1) :
			       bad(&ps, "not 'name value'");
	}
	ps.no = 0;
	for (i = 0; !r && i < n; i++)
		if (!(x[i] & 2))
			r = bad(&ps, "x%u missing, and SOL lists every variable",
				i);
	return r ? r : done(&ps, ILP_FEASIBLE, v);
}

static void cbc_args(struct job *j, const char *prog)
{
	const char *a[] = { prog, j->model, "timeMode", "elapsed", "sec",
			    j->limit, "solve", "solu", j->sol, NULL };

	memcpy(j->argv, a, sizeof(a));
}

static void glpsol_args(struct job *j, const char *prog)
{
	const char *a[] = { prog, "--lp", j->model, "--tmlim", j->limit,
			    "-o", j->sol, NULL };

	memcpy(j->argv, a, sizeof(a));
}

static void highs_args(struct job *j, const char *prog)
{
	const char *a[] = { prog, "--model_file", j->model, "--time_limit",
			    j->limit, "--solution_file", j->sol, NULL };

	memcpy(j->argv, a, sizeof(a));
}

/* Its log file too goes to the private directory, not the caller's. */
static void gurobi_args(struct job *j, const char *prog)
{
	const char *a[] = { prog, j->word[0], j->word[1], j->word[2],
			    j->model, NULL };

	snprintf(j->word[0], sizeof(j->word[0]), "TimeLimit=%s", j->limit);
	snprintf(j->word[1], sizeof(j->word[1]), "ResultFile=%s", j->sol);
	snprintf(j->word[2], sizeof(j->word[2]), "LogFile=%s", j->log);
	memcpy(j->argv, a, sizeof(a));
}

static int cbc_parse(const char *text, const char *out, uint32_t n,
		     uint8_t *x, enum ilp_verdict *v, struct fors_error *err)
{
	(void)out;
	return ilp_parse_cbc(text, n, x, v, err);
}

static int glpsol_parse(const char *text, const char *out, uint32_t n,
			uint8_t *x, enum ilp_verdict *v,
			struct fors_error *err)
{
	(void)out;
	return ilp_parse_glpsol(text, n, x, v, err);
}

static int highs_parse(const char *text, const char *out, uint32_t n,
		       uint8_t *x, enum ilp_verdict *v, struct fors_error *err)
{
	(void)out;
	return ilp_parse_highs(text, n, x, v, err);
}

/* highs exits 1 (a warning) when it stops on its time limit. */
static const struct ops solvers[] = {
	{ { "cbc", "cbc" }, 0, 0, 1, cbc_args, cbc_parse },
	{ { "glpsol", "glpsol" }, 1, 0, 1, glpsol_args, glpsol_parse },
	{ { "highs", "highs" }, 0, 1, 1, highs_args, highs_parse },
	{ { "gurobi", "gurobi_cl" }, 0, 0, 0, gurobi_args,
	  ilp_parse_gurobi },
};

#define NSOLVERS (sizeof(solvers) / sizeof(solvers[0]))

static const struct ops *find_ops(const char *name)
{
	unsigned i;

	for (i = 0; name && i < NSOLVERS; i++)
		if (!strcmp(solvers[i].sv.name, name))
			return &solvers[i];
	return NULL;
}

const struct ilp_solver *ilp_solver_find(const char *name)
{
	const struct ops *o = find_ops(name);

	return o ? &o->sv : NULL;
}

const char *ilp_solver_names(void)
{
	return "cbc, glpsol, highs, gurobi";
}

/* The solver's limit, and the kill a grace period after it. */
static void set_limits(struct job *j, const struct ops *o, uint32_t ms)
{
	uint64_t solver_ms = ms, kill;

	if (o->whole_seconds) {
		solver_ms = ((uint64_t)ms + 999) / 1000 * 1000;
		snprintf(j->limit, sizeof(j->limit), "%llu",
			 (unsigned long long)solver_ms / 1000);
	} else {
		snprintf(j->limit, sizeof(j->limit), "%u.%03u", ms / 1000,
			 ms % 1000);
	}
	kill = solver_ms + GRACE_MS;
	j->kill_ms = kill > UINT32_MAX ? UINT32_MAX : (uint32_t)kill;
}

/* The run's private directory (mode 0700) and the names of its files. */
static int make_dir(struct job *j, struct fors_error *err)
{
	int r = fors_tmpdir_make("fors-ilp", j->dir, sizeof(j->dir), err);

	if (r)
		return r;
	snprintf(j->model, sizeof(j->model), "%s/model.lp", j->dir);
	snprintf(j->sol, sizeof(j->sol), "%s/solution.sol", j->dir);
	snprintf(j->log, sizeof(j->log), "%s/solver.log", j->dir);
	return 0;
}

static int write_model(const struct job *j, const char *lp,
		       struct fors_error *err)
{
	int fd = open(j->model, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		      O_NOFOLLOW, 0600);
	size_t len = strlen(lp), off = 0;
	ssize_t w;

	while (fd >= 0 && off < len) {
		w = write(fd, lp + off, len - off);
		if (w > 0)
			off += (size_t)w;
		else if (w == 0 || errno != EINTR)
			break;
	}
	if (fd >= 0 && off == len && !close(fd))
		return 0;
	fors_error_set(err, "cannot write %s: %s", j->model, strerror(errno));
	if (fd >= 0 && off < len)
		close(fd);
	return FORS_EIO;
}

/*
 * The solution file, NULL if there is none. A file that cannot be read,
 * is not a regular file or passes the output limit fails the run as a bad
 * exit status would (FORS_EIO); FORS_EFORMAT is for text not understood.
 */
static int read_sol(const struct job *j, size_t max, char **text,
		    struct fors_error *err)
{
	struct fors_slurp f;
	int r = fors_slurp_file(j->sol, max, &f, err);

	*text = NULL;
	if (r == FORS_ENOENT)
		return 0;
	if (r)
		return r == FORS_ENOMEM ? r : FORS_EIO;
	/* the parsers read C strings: a NUL would hide what follows it */
	if (strlen(f.text) != f.len) {
		fors_error_set(err, "%s: a NUL byte in it", j->sol);
		free(f.text);
		return FORS_EFORMAT;
	}
	*text = f.text;
	return 0;
}

/*
 * " (the last line the solver printed)" for an error message, printable
 * and short, or nothing.
 */
static void last_line(const char *out, char *buf, size_t len)
{
	const char *e = out + strlen(out), *s;
	size_t i;

	while (e > out && (e[-1] == '\n' || e[-1] == '\r'))
		e--;
	for (s = e; s > out && s[-1] != '\n'; s--)
		;
	buf[0] = '\0';
	if (s == e)
		return;
	buf[0] = ' ';
	buf[1] = '(';
	for (i = 2; i + 2 < len && s < e; i++, s++)
		buf[i] = *s >= ' ' && *s < 127 ? *s : '?';
	buf[i] = ')';
	buf[i + 1] = '\0';
}

/* How the run ended: a verdict from the solution, or why there is none. */
static int outcome(const struct ops *o, const struct job *j,
		   const struct fors_spawn_result *res, uint32_t n,
		   uint8_t *x, enum ilp_verdict *v,
		   const struct ilp_limits *lim, struct fors_error *err)
{
	char how[96], tail[128];
	char *text;
	int r;

	memset(x, 0, n);
	if (res->status == FORS_SPAWN_TIMEOUT) {
		*v = ILP_UNKNOWN;
		return 0;
	}
	last_line(res->out, tail, sizeof(tail));
	fors_spawn_describe(res, how, sizeof(how));
	if (res->status != FORS_SPAWN_EXITED || res->code > o->exit_max) {
		fors_error_set(err, "%s: %s%s", o->sv.name, how, tail);
		return FORS_EIO;
	}
	r = read_sol(j, lim->max_output, &text, err);
	if (!r && !text && o->need_sol) {
		fors_error_set(err, "%s wrote no solution, %s%s", o->sv.name,
			       how, tail);
		return FORS_EIO;
	}
	if (!r)
		r = o->parse(text, res->out, n, x, v, err);
	free(text);
	return r;
}

int ilp_solve(const struct ilp_solver *sv, const char *program,
	      const char *lp, uint32_t n, uint8_t *x, enum ilp_verdict *v,
	      const struct ilp_limits *lim, struct fors_error *err)
{
	const struct ops *o = sv ? find_ops(sv->name) : NULL;
	struct fors_spawn_limits sl;
	struct fors_spawn_result res;
	struct job *j;
	int r;

	if (!o || !lp || !x || !v || !lim) {
		fors_error_set(err, "ilp_solve: no solver, model or limits");
		return FORS_EINVAL;
	}
	j = calloc(1, sizeof(*j));
	if (!j) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	set_limits(j, o, lim->time_ms);
	r = make_dir(j, err);
	if (!r)
		r = write_model(j, lp, err);
	if (!r) {
		o->args(j, program ? program : sv->program);
		sl = (struct fors_spawn_limits){ j->kill_ms, lim->max_output };
		r = fors_spawn(j->argv, NULL, 0, &sl, &res, err);
	}
	if (!r) {
		r = outcome(o, j, &res, n, x, v, lim, err);
		free(res.out);
	}
	if (j->dir[0])
		fors_tmpdir_remove(j->dir);
	free(j);
	return r;
}
