// SPDX-License-Identifier: MIT
/*
 * MILP solvers as separate programs (doc/ilp.md). Each run gets a private
 * directory for the model, the solution and any log, removed afterwards;
 * the solver stops itself at the time limit and fors_spawn() kills it a
 * grace period later. What a solver writes is parsed as untrusted text:
 * a verdict is kept only when every line is understood.
 *
 * Each solver is a file of its own (cbc.c, glpsol.c, highs.c, gurobi.c),
 * its command line beside the reader of what that command line makes it
 * write: the four formats share nothing but the parser kit (reader.c),
 * each follows its own upstream source and changes with it alone, and a
 * fifth solver is one more file and one more line in the table below.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/slurp.h"
#include "sys/spawn.h"
#include "sys/tmpdir.h"
#include "ilp/cbc.h"
#include "ilp/glpsol.h"
#include "ilp/gurobi.h"
#include "ilp/highs.h"
#include "ilp/solver.h"

/* Writing the solution and exiting after the solver's own time limit. */
#define GRACE_MS 1000

/* One solver run's files and command line. */
struct solver_run {
	char dir[PATH_MAX];
	char model[PATH_MAX + 16], sol[PATH_MAX + 16], log[PATH_MAX + 16];
	char limit[32];			/* seconds, as the solver takes them */
	struct ilp_cmdline cmd;
	uint32_t kill_ms;
};

static const struct ilp_dialect *const dialects[] = {
	&ilp_dialect_cbc, &ilp_dialect_glpsol, &ilp_dialect_highs,
	&ilp_dialect_gurobi,
};

#define NDIALECTS (sizeof(dialects) / sizeof(dialects[0]))

static const struct ilp_dialect *find_dialect(const char *name)
{
	unsigned i;

	for (i = 0; name && i < NDIALECTS; i++)
		if (!strcmp(dialects[i]->sv.name, name))
			return dialects[i];
	return NULL;
}

const struct ilp_solver *ilp_solver_find(const char *name)
{
	const struct ilp_dialect *d = find_dialect(name);

	return d ? &d->sv : NULL;
}

const char *ilp_solver_names(void)
{
	return "cbc, glpsol, highs, gurobi";
}

/* The solver's limit, and the kill a grace period after it. */
static void set_limits(struct solver_run *run, const struct ilp_dialect *d,
		       uint32_t ms)
{
	uint64_t solver_ms = ms, kill;

	if (d->whole_seconds) {
		solver_ms = ((uint64_t)ms + 999) / 1000 * 1000;
		snprintf(run->limit, sizeof(run->limit), "%llu",
			 (unsigned long long)solver_ms / 1000);
	} else {
		snprintf(run->limit, sizeof(run->limit), "%u.%03u", ms / 1000,
			 ms % 1000);
	}
	kill = solver_ms + GRACE_MS;
	run->kill_ms = kill > UINT32_MAX ? UINT32_MAX : (uint32_t)kill;
}

/* The run's private directory (mode 0700) and the names of its files. */
static int make_dir(struct solver_run *run, struct fors_error *err)
{
	int r = fors_tmpdir_make("fors-ilp", run->dir, sizeof(run->dir), err);

	if (r)
		return r;
	snprintf(run->model, sizeof(run->model), "%s/model.lp", run->dir);
	snprintf(run->sol, sizeof(run->sol), "%s/solution.sol", run->dir);
	snprintf(run->log, sizeof(run->log), "%s/solver.log", run->dir);
	run->cmd = (struct ilp_cmdline){ .model = run->model, .sol = run->sol,
				       .log = run->log, .limit = run->limit };
	return 0;
}

static int write_model(const struct solver_run *run, const char *lp,
		       struct fors_error *err)
{
	int fd = open(run->model, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
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
	fors_error_set(err, "cannot write %s: %s", run->model, strerror(errno));
	if (fd >= 0 && off < len)
		close(fd);
	return FORS_EIO;
}

/*
 * The solution file, NULL if there is none. A file that cannot be read,
 * is not a regular file or passes the output limit fails the run as a bad
 * exit status would (FORS_EIO); FORS_EFORMAT is for text not understood.
 */
static int read_sol(const struct solver_run *run, size_t max, char **text,
		    struct fors_error *err)
{
	struct fors_slurp f;
	int r = fors_slurp_file(run->sol, max, &f, err);

	*text = NULL;
	if (r == FORS_ENOENT)
		return 0;
	if (r)
		return r == FORS_ENOMEM ? r : FORS_EIO;
	/* the parsers read C strings: a NUL would hide what follows it */
	if (strlen(f.text) != f.len) {
		fors_error_set(err, "%s: a NUL byte in it", run->sol);
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
static int outcome(const struct ilp_dialect *d, const struct solver_run *run,
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
	if (res->status != FORS_SPAWN_EXITED || res->code > d->exit_max) {
		fors_error_set(err, "%s: %s%s", d->sv.name, how, tail);
		return FORS_EIO;
	}
	r = read_sol(run, lim->max_output, &text, err);
	if (!r && !text && d->need_sol) {
		fors_error_set(err, "%s wrote no solution, %s%s", d->sv.name,
			       how, tail);
		return FORS_EIO;
	}
	if (!r)
		r = d->parse(text, res->out, n, x, v, err);
	free(text);
	return r;
}

int ilp_solve(const struct ilp_solver *sv, const char *program,
	      const char *lp, uint32_t n, uint8_t *x, enum ilp_verdict *v,
	      const struct ilp_limits *lim, struct fors_error *err)
{
	const struct ilp_dialect *d = sv ? find_dialect(sv->name) : NULL;
	struct fors_spawn_limits sl;
	struct fors_spawn_result res;
	struct solver_run *run;
	int r;

	if (!d || !lp || !x || !v || !lim) {
		fors_error_set(err, "ilp_solve: no solver, model or limits");
		return FORS_EINVAL;
	}
	run = calloc(1, sizeof(*run));
	if (!run) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	set_limits(run, d, lim->time_ms);
	r = make_dir(run, err);
	if (!r)
		r = write_model(run, lp, err);
	if (!r) {
		d->args(&run->cmd, program ? program : sv->program);
		sl = (struct fors_spawn_limits){ run->kill_ms,
						 lim->max_output };
		r = fors_spawn(run->cmd.argv, NULL, 0, &sl, &res, err);
	}
	if (!r) {
		r = outcome(d, run, &res, n, x, v, lim, err);
		free(res.out);
	}
	if (run->dir[0])
		fors_tmpdir_remove(run->dir);
	free(run);
	return r;
}
