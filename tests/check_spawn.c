// SPDX-License-Identifier: MIT
/*
 * fors_spawn() on real programs (exit, signal, input, overflow, timeout,
 * process group, descriptors, signals left alone), the real cbc and glpsol
 * through ilp_solve(), stand-ins for highs and gurobi_cl that check the
 * command line fors builds, and the four solution readers on real and
 * hostile files (tests/data/ilp/README.md).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/memory.h"
#include "sys/spawn.h"
#include "sys/threads.h"
#include "sys/tmpdir.h"
#include "ilp/cbc.h"
#include "ilp/glpsol.h"
#include "ilp/gurobi.h"
#include "ilp/highs.h"
#include "ilp/solver.h"
#include "suite.h"

static char tmpdir[64];		/* TMPDIR of the solver runs */
static char bindir[64];		/* the stand-in solvers */

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static int spawn(const char *const *argv, const char *in, size_t nin,
		 uint32_t ms, size_t max, struct fors_spawn_result *res,
		 struct fors_error *err)
{
	const struct fors_spawn_limits lim = { ms, max };

	err->msg[0] = '\0';
	return fors_spawn(argv, in, nin, &lim, res, err);
}

/* Every child reaped: no zombie, nothing left running. */
static void no_child(void)
{
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

static void ran(int r, const struct fors_error *err)
{
	ck_assert_msg(r == 0, "fors_spawn: %d %s", r, err->msg);
}

/*
 * Whether glibc's allocator answers malloc: under valgrind or ASan another
 * one does, with no mapped blocks to count and no settings to take.
 */
static int glibc_answers(void)
{
	char *big = malloc(25u << 20);
	int yes;

	ck_assert_ptr_nonnull(big);
	big[0] = 1;
	yes = mallinfo2().hblkhd >= (25u << 20);
	free(big);
	return yes;
}

/*
 * With the threshold fixed, a 2 MiB block is mapped on its own even after
 * a 25 MB one was freed (which raises glibc's dynamic threshold past it).
 */
START_TEST(mmap_threshold_fixed)
{
	int fixed = fors_memory_tune();
	char *small;
	size_t before;

	if (!glibc_answers())
		return;
	ck_assert_int_eq(fixed, 0);
	before = mallinfo2().hblkhd;
	small = malloc(2u << 20);
	ck_assert_ptr_nonnull(small);
	ck_assert_uint_ge(mallinfo2().hblkhd, before + (2u << 20));
	free(small);
}
END_TEST

/* A thread's block, touched, handed back through arg. */
static void *allocate(void *arg)
{
	char *b = malloc(256u << 10);

	if (b)
		memset(b, 1, 256u << 10);
	*(char **)arg = b;
	return NULL;
}

/* The arenas malloc_info lists. */
static int arenas(void)
{
	char *buf = NULL;
	size_t len = 0;
	const char *p;
	int n = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(malloc_info(0, f), 0);
	fclose(f);
	for (p = buf; (p = strstr(p, "<heap nr=")); p++)
		n++;
	free(buf);
	return n;
}

/*
 * Once tuned, a new thread allocates from the arena there is instead of
 * making one of its own (which glibc does for each thread otherwise).
 */
START_TEST(one_arena)
{
	int tuned = fors_memory_tune();
	pthread_t th;
	char *b = NULL;

	if (!glibc_answers())
		return;
	ck_assert_int_eq(pthread_create(&th, NULL, allocate, &b), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(tuned, 0);
	ck_assert_int_eq(arenas(), 1);
	free(b);
}
END_TEST

START_TEST(exit_status)
{
	const char *argv[] = { "sh", "-c", "echo out; exit 3", NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	char how[64];

	ran(spawn(argv, NULL, 0, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_EXITED);
	ck_assert_int_eq(res.code, 3);
	ck_assert_str_eq(res.out, "out\n");
	ck_assert_uint_eq(res.nout, 4);
	fors_spawn_describe(&res, how, sizeof(how));
	ck_assert_str_eq(how, "exit 3");
	free(res.out);
	no_child();
}
END_TEST

START_TEST(signalled)
{
	const char *argv[] = { "sh", "-c", "kill -TERM $$; sleep 5", NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	char how[64];

	ran(spawn(argv, NULL, 0, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_SIGNALLED);
	ck_assert_int_eq(res.code, SIGTERM);
	fors_spawn_describe(&res, how, sizeof(how));
	ck_assert_str_eq(how, "killed by signal 15 (SIGTERM)");
	free(res.out);
	no_child();
}
END_TEST

/* More than any pipe holds, both ways: only interleaving gets it through. */
START_TEST(echo_through_cat)
{
	const char *argv[] = { "cat", NULL };
	size_t n = 3 << 20, i;
	struct fors_spawn_result res;
	struct fors_error err;
	char *in = malloc(n);

	ck_assert_ptr_nonnull(in);
	for (i = 0; i < n; i++)
		in[i] = (char)('a' + (i * 7 + i / 4093) % 26);
	ran(spawn(argv, in, n, 20000, n, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_EXITED);
	ck_assert_int_eq(res.code, 0);
	ck_assert_uint_eq(res.nout, n);
	ck_assert(!memcmp(res.out, in, n));
	ck_assert_int_eq(res.out[n], '\0');
	free(res.out);
	free(in);
	no_child();
}
END_TEST

START_TEST(no_input_is_eof)
{
	const char *argv[] = { "cat", NULL };
	struct fors_spawn_result res;
	struct fors_error err;

	ran(spawn(argv, NULL, 0, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_EXITED);
	ck_assert_str_eq(res.out, "");
	free(res.out);
}
END_TEST

START_TEST(stderr_discarded)
{
	const char *argv[] = { "sh", "-c", "echo err >&2; echo out", NULL };
	struct fors_spawn_result res;
	struct fors_error err;

	ran(spawn(argv, NULL, 0, 10000, 100, &res, &err), &err);
	ck_assert_str_eq(res.out, "out\n");
	free(res.out);
}
END_TEST

START_TEST(overflow)
{
	const char *argv[] = { "yes", NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	uint64_t t0 = now_ms();
	char how[64];
	size_t i;

	ran(spawn(argv, NULL, 0, 10000, 1001, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_OVERFLOW);
	ck_assert_uint_eq(res.nout, 1001);
	ck_assert_uint_eq(strlen(res.out), 1001);
	for (i = 0; i < res.nout; i++)
		ck_assert_int_eq(res.out[i], i % 2 ? '\n' : 'y');
	ck_assert_uint_lt(now_ms() - t0, 5000);
	fors_spawn_describe(&res, how, sizeof(how));
	ck_assert_str_eq(how, "killed after 1001 bytes of output, the limit");
	free(res.out);
	no_child();
}
END_TEST

START_TEST(timeout)
{
	const char *argv[] = { "sleep", "10", NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	uint64_t t0 = now_ms(), t;

	ran(spawn(argv, NULL, 0, 200, 100, &res, &err), &err);
	t = now_ms() - t0;
	ck_assert_int_eq(res.status, FORS_SPAWN_TIMEOUT);
	ck_assert_uint_ge(res.elapsed_ms, 200);
	ck_assert_uint_lt(res.elapsed_ms, 2000);
	ck_assert_uint_lt(t, 2000);
	free(res.out);
	no_child();
}
END_TEST

/* 'R', 'S'...: running; 0 when gone or a zombie. */
static char state(long pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X' ? p[2] : 0;
}

/* The whole group goes: a grandchild holding the output open too. */
START_TEST(timeout_kills_group)
{
	const char *argv[] = { "sh", "-c", "sleep 30 & echo $!; wait", NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	uint64_t t0 = now_ms();
	long pid;

	ran(spawn(argv, NULL, 0, 300, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_TIMEOUT);
	ck_assert_uint_lt(now_ms() - t0, 3000);
	pid = strtol(res.out, NULL, 10);
	ck_assert_int_gt(pid, 1);
	while (state(pid) && now_ms() - t0 < 3000)
		usleep(10000);
	ck_assert_msg(!state(pid), "the grandchild %ld still runs", pid);
	free(res.out);
	no_child();
}
END_TEST

/* What the program leaves running dies with it. */
START_TEST(leftover_killed)
{
	const char *argv[] = { "sh", "-c", "sleep 30 >/dev/null & echo $!",
			       NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	uint64_t t0 = now_ms();
	long pid;

	ran(spawn(argv, NULL, 0, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_EXITED);
	ck_assert_int_eq(res.code, 0);
	pid = strtol(res.out, NULL, 10);
	ck_assert_int_gt(pid, 1);
	while (state(pid) && now_ms() - t0 < 3000)
		usleep(10000);
	ck_assert_msg(!state(pid), "the background process %ld runs", pid);
	free(res.out);
	no_child();
}
END_TEST

/* It closed its output and runs on: still killed at the deadline. */
START_TEST(timeout_after_output_closed)
{
	const char *argv[] = { "sh", "-c", "exec >&-; sleep 10", NULL };
	struct fors_spawn_result res;
	struct fors_error err;

	ran(spawn(argv, NULL, 0, 300, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_TIMEOUT);
	ck_assert_uint_lt(res.elapsed_ms, 2000);
	free(res.out);
	no_child();
}
END_TEST

START_TEST(no_such_program)
{
	const char *argv[] = { "fors-no-such-program", "x", NULL };
	struct fors_spawn_result res;
	struct fors_error err;

	ck_assert_int_eq(spawn(argv, NULL, 0, 1000, 100, &res, &err),
			 FORS_EIO);
	ck_assert_str_eq(err.msg,
			 "cannot run fors-no-such-program: not found in PATH");
	ck_assert_ptr_null(res.out);
	no_child();
}
END_TEST

START_TEST(exec_fails)
{
	const char *missing[] = { "/nonexistent/fors-prog", NULL };
	const char *text[] = { "/etc/passwd", NULL };
	struct fors_spawn_result res;
	struct fors_error err;

	ck_assert_int_eq(spawn(missing, NULL, 0, 1000, 100, &res, &err),
			 FORS_EIO);
	ck_assert_str_eq(err.msg, "cannot run /nonexistent/fors-prog: No such file or directory");
	ck_assert_int_eq(spawn(text, NULL, 0, 1000, 100, &res, &err),
			 FORS_EIO);
	ck_assert_str_eq(err.msg, "cannot run /etc/passwd: Permission denied");
	ck_assert_ptr_null(res.out);
	no_child();
}
END_TEST

START_TEST(bad_arguments)
{
	const char *empty[] = { NULL };
	const char *argv[] = { "cat", NULL };
	struct fors_spawn_result res;
	struct fors_error err;

	ck_assert_int_eq(spawn(empty, NULL, 0, 1000, 100, &res, &err),
			 FORS_EINVAL);
	ck_assert_int_eq(spawn(argv, NULL, 5, 1000, 100, &res, &err),
			 FORS_EINVAL);
	ck_assert_int_eq(spawn(argv, NULL, 0, 1000, SIZE_MAX, &res, &err),
			 FORS_EINVAL);
}
END_TEST

/* The child closes its input while 8 MB are on their way: no SIGPIPE here. */
START_TEST(input_closed_early)
{
	const char *head[] = { "head", "-c", "10", NULL };
	const char *shut[] = { "sh", "-c", "exec <&-; sleep 0.2; echo done",
			       NULL };
	size_t n = 8 << 20;
	struct fors_spawn_result res;
	struct fors_error err;
	char *in = malloc(n);

	ck_assert_ptr_nonnull(in);
	memset(in, 'z', n);
	ran(spawn(head, in, n, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_EXITED);
	ck_assert_int_eq(res.code, 0);
	ck_assert_str_eq(res.out, "zzzzzzzzzz");
	free(res.out);
	ran(spawn(shut, in, n, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_EXITED);
	ck_assert_str_eq(res.out, "done\n");
	free(res.out);
	free(in);
	no_child();
}
END_TEST

/* Threads running programs at once each get their own child's output. */
static void *runner(void *arg)
{
	const char *argv[] = { "cat", NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	char in[4096];
	long k, bad = 0;

	for (k = 0; k < 8; k++) {
		memset(in, 'a' + (int)(long)arg, sizeof(in));
		in[0] = (char)('0' + k);
		if (spawn(argv, in, sizeof(in), 10000, sizeof(in), &res, &err) ||
		    res.status != FORS_SPAWN_EXITED ||
		    res.nout != sizeof(in) || memcmp(res.out, in, sizeof(in)))
			bad++;
		free(res.out);
	}
	return (void *)bad;
}

START_TEST(threads)
{
	pthread_t t[4];
	void *bad;
	long i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, runner,
						(void *)i), 0);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(t[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
	no_child();
}
END_TEST

/* A count raised step by step, each step's value written before it. */
struct steps {
	struct fors_progress *p;
	uint32_t v[64];
};

static void *stepper(void *arg)
{
	struct steps *g = arg;
	uint32_t i;

	for (i = 0; i < 64; i++) {
		usleep(200);
		g->v[i] = i + 1;
		fors_progress_raise(g->p, i + 1);
	}
	return NULL;
}

/*
 * What a thread wrote before it raised a count is there for the thread
 * that waited for it, each step (the schedule's phases, as the builder
 * raises them for the assignment); the raiser is the slower one here.
 */
START_TEST(progress_in_order)
{
	struct steps g = { 0 };
	pthread_t t;
	uint32_t i;

	ck_assert_int_eq(fors_progress_new(&g.p), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, stepper, &g), 0);
	for (i = 0; i < 64; i++) {
		fors_progress_wait(g.p, i + 1);
		ck_assert_uint_eq(g.v[i], i + 1);
	}
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	fors_progress_wait(g.p, 64);
	fors_progress_free(g.p);
	fors_progress_free(NULL);
}
END_TEST

/* Only 0, 1, 2 reach the program; ls's own directory is the 3. */
START_TEST(no_inherited_descriptor)
{
	const char *argv[] = { "ls", "/proc/self/fd", NULL };
	struct fors_spawn_result res;
	struct fors_error err;
	int fd = open("/dev/null", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ran(spawn(argv, NULL, 0, 10000, 1000, &res, &err), &err);
	ck_assert_str_eq(res.out, "0\n1\n2\n3\n");
	free(res.out);
	close(fd);
}
END_TEST

/*
 * The caller ignores SIGINT and blocks SIGTERM: the program gets default
 * dispositions and no blocked signal, and the caller keeps both.
 */
START_TEST(signals_left_alone)
{
	const char *intr[] = { "sh", "-c", "kill -INT $$; sleep 5", NULL };
	const char *term[] = { "sh", "-c", "kill -TERM $$; sleep 5", NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old, now;
	struct fors_spawn_result res;
	struct fors_error err;
	sigset_t set, oset, cur;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	ck_assert_int_eq(sigprocmask(SIG_BLOCK, &set, &oset), 0);
	ck_assert_int_eq(sigaction(SIGINT, &ign, &old), 0);
	ran(spawn(intr, NULL, 0, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_SIGNALLED);
	ck_assert_int_eq(res.code, SIGINT);
	free(res.out);
	ran(spawn(term, NULL, 0, 10000, 100, &res, &err), &err);
	ck_assert_int_eq(res.status, FORS_SPAWN_SIGNALLED);
	ck_assert_int_eq(res.code, SIGTERM);
	free(res.out);
	ck_assert_int_eq(sigaction(SIGINT, NULL, &now), 0);
	ck_assert(now.sa_handler == SIG_IGN);
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, NULL, &cur), 0);
	ck_assert(sigismember(&cur, SIGTERM));
	ck_assert(!sigismember(&cur, SIGPIPE));
	sigaction(SIGINT, &old, NULL);
	sigprocmask(SIG_SETMASK, &oset, NULL);
}
END_TEST

/* The models the real solvers run: x0..x<n-1>, as src/ilp/model.c writes. */
static const char feasible_lp[] =
	"\\ two transfers, two planes\nMinimize\n obj: 0 x0\nSubject To\n"
	" t0: x0 + x1 = 1\n t1: x2 + x3 = 1\n u0: x0 + x2 <= 1\n"
	" u1: x1 + x3 <= 1\nBinary\n x0 x1 x2 x3\nEnd\n";
static const char lp_infeasible_lp[] =
	"\\ no relaxation\nMinimize\n obj: 0 x0\nSubject To\n"
	" t0: x0 + x1 = 1\n t1: x0 + x1 = 2\nBinary\n x0 x1\nEnd\n";
static const char int_infeasible_lp[] =
	"\\ a relaxation, no integer point\nMinimize\n obj: 0 x0\n"
	"Subject To\n t0: 2 x0 + 2 x1 + 2 x2 = 3\nBinary\n x0 x1 x2\nEnd\n";

/*
 * A market split instance (Cornuejols and Dawande): 5 rows, 40 binaries,
 * coefficients 0..99, right-hand sides half the row sums. Its relaxation
 * is feasible; cbc and glpsol run for minutes without a verdict.
 */
static char *market_split(void)
{
	uint64_t s = 12345;
	size_t len;
	char *lp;
	FILE *f = open_memstream(&lp, &len);
	int i, j, a, sum;

	ck_assert_ptr_nonnull(f);
	fputs("Minimize\n obj: 0 x0\nSubject To\n", f);
	for (i = 0; i < 5; i++) {
		fprintf(f, " r%d:", i);
		for (sum = 0, j = 0; j < 40; j++) {
			s = (s * 1103515245 + 12345) % 2147483648u;
			a = (int)(s / 65536 % 100);
			sum += a;
			fprintf(f, "%s %d x%d%s", j ? " +" : "", a, j,
				j % 10 == 9 ? "\n" : "");
		}
		fprintf(f, " = %d\n", sum / 2);
	}
	fputs("Binary\n", f);
	for (j = 0; j < 40; j++)
		fprintf(f, " x%d\n", j);
	fputs("End\n", f);
	ck_assert_int_eq(fclose(f), 0);
	return lp;
}

/* CI installs both (bootstrap, .ci/run): a missing one is a failure. */
static void need(const char *prog, const char *package)
{
	const char *argv[] = { "sh", "-c", "command -v \"$0\"", prog, NULL };
	struct fors_spawn_result res;
	struct fors_error err;

	ran(spawn(argv, NULL, 0, 10000, 1000, &res, &err), &err);
	if (res.status != FORS_SPAWN_EXITED || res.code) {
		printf("%s is not installed: apt-get install %s\n", prog,
		       package);
		ck_abort_msg("%s is not installed", prog);
	}
	free(res.out);
}

/* Nothing left of the runs' private directories. */
static void tmp_empty(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	ck_assert_msg(n == 0, "%d entries left in %s", n, tmpdir);
}

static const char *const real[][2] = {
	{ "cbc", "coinor-cbc" },
	{ "glpsol", "glpk-utils" },
};

static int solve(const char *name, const char *program, const char *lp,
		 uint32_t n, uint8_t *x, enum ilp_verdict *v, uint32_t ms,
		 struct fors_error *err)
{
	const struct ilp_solver *sv = ilp_solver_find(name);
	const struct ilp_limits lim = { ms, 1 << 20 };

	ck_assert_ptr_nonnull(sv);
	err->msg[0] = '\0';
	return ilp_solve(sv, program, lp, n, x, v, &lim, err);
}

START_TEST(real_feasible)
{
	struct fors_error err;
	enum ilp_verdict v;
	uint8_t x[4];

	need(real[_i][0], real[_i][1]);
	ck_assert_msg(!solve(real[_i][0], NULL, feasible_lp, 4, x, &v, 10000,
			     &err), "%s", err.msg);
	ck_assert_int_eq(v, ILP_FEASIBLE);
	ck_assert_int_eq(x[0] + x[1], 1);
	ck_assert_int_eq(x[2] + x[3], 1);
	ck_assert_int_le(x[0] + x[2], 1);
	ck_assert_int_le(x[1] + x[3], 1);
	tmp_empty();
	no_child();
}
END_TEST

START_TEST(real_infeasible)
{
	struct fors_error err;
	enum ilp_verdict v;
	uint8_t x[3] = { 1, 1, 1 };

	need(real[_i][0], real[_i][1]);
	ck_assert_msg(!solve(real[_i][0], NULL, lp_infeasible_lp, 2, x, &v,
			     10000, &err), "%s", err.msg);
	ck_assert_int_eq(v, ILP_INFEASIBLE);
	ck_assert_int_eq(x[0] + x[1], 0);
	ck_assert_msg(!solve(real[_i][0], NULL, int_infeasible_lp, 3, x, &v,
			     10000, &err), "%s", err.msg);
	ck_assert_int_eq(v, ILP_INFEASIBLE);
	tmp_empty();
	no_child();
}
END_TEST

/* The solver stops itself at 1 s, well before the kill at 2 s. */
START_TEST(real_time_limit)
{
	char *lp = market_split();
	struct fors_error err;
	uint64_t t0 = now_ms(), t;
	enum ilp_verdict v;
	uint8_t x[40];

	need(real[_i][0], real[_i][1]);
	ck_assert_msg(!solve(real[_i][0], NULL, lp, 40, x, &v, 1000, &err),
		      "%s", err.msg);
	t = now_ms() - t0;
	ck_assert_int_eq(v, ILP_UNKNOWN);
	ck_assert_uint_ge(t, 900);
	ck_assert_uint_lt(t, 4000);
	free(lp);
	tmp_empty();
	no_child();
}
END_TEST

/* A stand-in solver: a shell script in bindir; its path. */
static char *script(const char *name, const char *body)
{
	char *path;
	FILE *f;

	ck_assert_int_ge(asprintf(&path, "%s/%s", bindir, name), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n%s", body);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0755), 0);
	return path;
}

/* highs as documented: the options it is given, exit 1 with a warning. */
START_TEST(highs_command_line)
{
	char *prog = script("highs",
		"[ $# = 6 ] && [ \"$1\" = --model_file ] && [ -f \"$2\" ] &&\n"
		"[ \"$3\" = --time_limit ] && [ \"$4\" = 5.250 ] &&\n"
		"[ \"$5\" = --solution_file ] || exit 9\n"
		"[ \"${6%/*}\" = \"${2%/*}\" ] || exit 8\n"
		"printf 'Model status\\nTime limit reached\\n\\n"
		"# Primal solution values\\nFeasible\\nObjective 0\\n"
		"# Columns 4\\nx0 0\\nx1 1\\nx2 1\\nx3 0\\n# Rows 0\\n' >\"$6\"\n"
		"exit 1\n");
	struct fors_error err;
	enum ilp_verdict v;
	uint8_t x[4];

	ck_assert_msg(!solve("highs", prog, feasible_lp, 4, x, &v, 5250,
			     &err), "%s", err.msg);
	ck_assert_int_eq(v, ILP_FEASIBLE);
	ck_assert(!memcmp(x, "\0\1\1\0", 4));
	free(prog);
	tmp_empty();
}
END_TEST

/* gurobi_cl as documented; its log file too lands in the private directory. */
START_TEST(gurobi_command_line)
{
	char *prog = script("gurobi_cl",
		"[ $# = 4 ] && [ \"$1\" = TimeLimit=0.040 ] || exit 9\n"
		"case $2 in ResultFile=*.sol) sol=${2#*=};; *) exit 9;; esac\n"
		"case $3 in LogFile=*) log=${3#*=};; *) exit 9;; esac\n"
		"[ -f \"$4\" ] && [ \"${sol%/*}\" = \"${4%/*}\" ] || exit 8\n"
		"echo log >\"$log\"\n"
		"printf '# Solution for model obj\\nx0 1\\nx1 0\\nx2 0\\n"
		"x3 1\\n' >\"$sol\"\n"
		"echo 'Optimal solution found (tolerance 1.00e-04)'\n");
	struct fors_error err;
	enum ilp_verdict v;
	uint8_t x[4];

	ck_assert_msg(!solve("gurobi", prog, feasible_lp, 4, x, &v, 40, &err),
		      "%s", err.msg);
	ck_assert_int_eq(v, ILP_FEASIBLE);
	ck_assert(!memcmp(x, "\1\0\0\1", 4));
	free(prog);
	tmp_empty();
}
END_TEST

/* glpsol takes whole seconds: 1.5 s is 2; the kill comes 1 s later. */
START_TEST(solver_ignores_its_limit)
{
	char *prog = script("stuck", "exec sleep 30\n");
	struct fors_error err;
	uint64_t t0 = now_ms(), t;
	enum ilp_verdict v;
	uint8_t x[4];

	ck_assert_msg(!solve("glpsol", prog, feasible_lp, 4, x, &v, 1500,
			     &err), "%s", err.msg);
	t = now_ms() - t0;
	ck_assert_int_eq(v, ILP_UNKNOWN);
	ck_assert_uint_ge(t, 3000);
	ck_assert_uint_lt(t, 5000);
	free(prog);
	tmp_empty();
	no_child();
}
END_TEST

START_TEST(solver_fails)
{
	char *prog = script("broken", "echo 'Error: no licence'; exit 3\n");
	struct fors_error err;
	enum ilp_verdict v;
	uint8_t x[4];

	ck_assert_int_eq(solve("cbc", prog, feasible_lp, 4, x, &v, 1000,
			       &err), FORS_EIO);
	ck_assert_str_eq(err.msg, "cbc: exit 3 (Error: no licence)");
	ck_assert_int_eq(solve("cbc", "true", feasible_lp, 4, x, &v, 1000,
			       &err), FORS_EIO);
	ck_assert_str_eq(err.msg, "cbc wrote no solution, exit 0");
	ck_assert_int_eq(solve("highs", "fors-no-such-solver", feasible_lp, 4,
			       x, &v, 1000, &err), FORS_EIO);
	ck_assert_str_eq(err.msg,
			 "cannot run fors-no-such-solver: not found in PATH");
	ck_assert_ptr_null(ilp_solver_find("cplex"));
	ck_assert_str_eq(ilp_solver_names(), "cbc, glpsol, highs, gurobi");
	free(prog);
	tmp_empty();
}
END_TEST

enum { CBC, GLPSOL, HIGHS, GUROBI };

static char *fixture(const char *name)
{
	const char *top = getenv("srcdir") ? getenv("srcdir") : ".";
	char *path, *text;
	size_t len;
	FILE *f;

	ck_assert_int_ge(asprintf(&path, "%s/tests/data/ilp/%s", top, name), 0);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	text = calloc(1, 1 << 16);
	ck_assert_ptr_nonnull(text);
	len = fread(text, 1, (1 << 16) - 1, f);
	ck_assert(feof(f) && len > 0);
	fclose(f);
	free(path);
	return text;
}

/* text with its first from replaced by to. */
static char *subst(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *s;

	ck_assert_msg(at != NULL, "no '%s' in the fixture", from);
	ck_assert_int_ge(asprintf(&s, "%.*s%s%s", (int)(at - text), text, to,
				  at + strlen(from)), 0);
	return s;
}

static int parse(int fmt, const char *text, const char *out, uint32_t n,
		 uint8_t *x, enum ilp_verdict *v, struct fors_error *err)
{
	err->msg[0] = '\0';
	memset(x, 7, n);
	switch (fmt) {
	case CBC:
		return ilp_parse_cbc(text, n, x, v, err);
	case GLPSOL:
		return ilp_parse_glpsol(text, n, x, v, err);
	case HIGHS:
		return ilp_parse_highs(text, n, x, v, err);
	default:
		return ilp_parse_gurobi(text, out, n, x, v, err);
	}
}

/* A verdict, and x as a string of '0' and '1'. */
static void good(int fmt, const char *text, const char *out, uint32_t n,
		 enum ilp_verdict want, const char *bits)
{
	struct fors_error err;
	enum ilp_verdict v;
	uint8_t x[64];
	uint32_t i;

	ck_assert_msg(!parse(fmt, text, out, n, x, &v, &err), "%s",
		      err.msg);
	ck_assert_int_eq(v, want);
	for (i = 0; i < n; i++) {
		int want_x = bits ? bits[i] - '0' : 0;

		ck_assert_int_eq(x[i], want_x);
	}
}

/* Refused with a message naming what is wrong; x all 0. */
static void refused(int fmt, const char *text, const char *out, uint32_t n,
		    const char *why)
{
	struct fors_error err;
	enum ilp_verdict v;
	uint8_t x[64];
	uint32_t i;

	ck_assert_int_eq(parse(fmt, text, out, n, x, &v, &err),
			 FORS_EFORMAT);
	ck_assert_msg(strstr(err.msg, why), "'%s' does not say '%s'",
		      err.msg, why);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(x[i], 0);
}

static void refused_subst(int fmt, const char *text, const char *from,
			  const char *to, uint32_t n, const char *why)
{
	char *s = subst(text, from, to);

	refused(fmt, s, NULL, n, why);
	free(s);
}

START_TEST(cbc_files)
{
	char *opt = fixture("cbc-optimal.sol");
	char *inf = fixture("cbc-infeasible.sol");
	char *iinf = fixture("cbc-integer-infeasible.sol");
	char *stop = fixture("cbc-stopped-no-solution.sol");
	char *sol = fixture("cbc-stopped-solution.sol");
	char *s;

	good(CBC, opt, NULL, 4, ILP_FEASIBLE, "1001");
	good(CBC, inf, NULL, 2, ILP_INFEASIBLE, NULL);
	good(CBC, iinf, NULL, 3, ILP_INFEASIBLE, NULL);
	good(CBC, stop, NULL, 40, ILP_UNKNOWN, NULL);
	good(CBC, sol, NULL, 40, ILP_FEASIBLE,
	     "0101000011000010000000000000000000100000");
	/* The relaxation of a run stopped before branching: no solution. */
	s = subst(opt, "Optimal", "Stopped on time");
	free(opt);
	opt = subst(s, "x1                     0", "x1                   0.5");
	good(CBC, opt, NULL, 4, ILP_UNKNOWN, NULL);
	free(s);
	free(opt);
	good(CBC, "Optimal (within gap tolerance) - objective value 0\n"
	     "**    2 x2  1  0\n", NULL, 3, ILP_FEASIBLE, "001");
	good(CBC, "Optimal - objective value 0\n", NULL, 2, ILP_FEASIBLE,
	     "00");
	good(CBC, "Status unknown - objective value 0\n", NULL, 1,
	     ILP_UNKNOWN, NULL);
	good(CBC, "Optimal - objective value 0\n 0 x0 1 0\n 0 x0 1.0 0\n",
	     NULL, 1, ILP_FEASIBLE, "1");
	free(inf);
	free(iinf);
	free(stop);
	free(sol);
}
END_TEST

START_TEST(cbc_hostile)
{
	static const struct {
		const char *text, *why;
	} t[] = {
		{ "", "empty" },
		{ "Optimal - objective value 0\n 0 x0 1 0", "truncated" },
		{ "Optimal - objective value 0\n 4 x4 1 0\n", "x0 .. x3" },
		{ "Optimal - objective value 0\n 1 x01 1 0\n", "x0 .. x3" },
		{ "Optimal - objective value 0\n 1 y1 1 0\n", "x0 .. x3" },
		{ "Optimal - objective value 0\n 1 x 1 0\n", "x0 .. x3" },
		{ "Optimal - objective value 0\n 1 x-1 1 0\n", "x0 .. x3" },
		{ "Optimal - objective value 0\n 1 x99999999999999999999 1 0\n",
		  "x0 .. x3" },
		{ "Optimal - objective value 0\n 1 x4294967296 1 0\n",
		  "x0 .. x3" },
		{ "Optimal - objective value 0\n 1 x1 0.5 0\n", "not 0 or 1" },
		{ "Optimal - objective value 0\n 1 x1 nan 0\n", "not 0 or 1" },
		{ "Optimal - objective value 0\n 1 x1 1e400 0\n", "not 0 or 1" },
		{ "Optimal - objective value 0\n 1 x1 -1 0\n", "not 0 or 1" },
		{ "Optimal - objective value 0\n 1 x1 1.000002 0\n",
		  "not 0 or 1" },
		{ "Optimal - objective value 0\n 1 x1 1x 0\n", "not 0 or 1" },
		{ "Optimal - objective value 0\n 1 x1 1 0\n 1 x1 0 0\n",
		  "x1 listed again" },
		{ "Optimal - objective value 0\n 1 x1 1\n", "index name value" },
		{ "Optimal - objective value 0\n 1 x1 1 0 0\n", "index name" },
		{ "Optimal - objective value 0\n one x1 1 0\n", "index name" },
		{ "Optimal - objective value 0\ngarbage\n", "index name" },
		{ "Unbounded - objective value 0\n", "does not know" },
		{ "Optimal\n 1 x1 1 0\n", "not a cbc status line" },
		{ "\x01\x02\n", "not a cbc status line" },
	};
	unsigned i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		refused(CBC, t[i].text, NULL, 4, t[i].why);
	refused(CBC, "Optimal - objective value 0\n 0 x0 1 0\n", NULL, 0,
		"the model has none");
}
END_TEST

/* A line of a megabyte, and long numbers: refused, nothing overruns. */
START_TEST(absurd_lengths)
{
	size_t n = 1 << 20;
	char *s = malloc(n + 64);
	char *v;

	ck_assert_ptr_nonnull(s);
	strcpy(s, "Optimal - objective value 0\n 1 x1 ");
	memset(s + 34, '1', n);
	strcpy(s + 34 + n, " 0\n");
	refused(CBC, s, NULL, 4, "not 0 or 1");
	memset(s, 'a', n);
	strcpy(s + n, "\n");
	refused(CBC, s, NULL, 4, "not a cbc status line");
	refused(HIGHS, s, NULL, 4, "Model status");
	refused(GLPSOL, s, NULL, 4, "Problem:");
	refused(GUROBI, s, s, 4, "no verdict");
	v = subst("Optimal - objective value 0\n 1 x1 V 0\n", "V",
		  "1.0000000000000000000000000000000000000000000000");
	refused(CBC, v, NULL, 4, "not 0 or 1");
	free(v);
	free(s);
}
END_TEST

START_TEST(glpsol_files)
{
	char *opt = fixture("glpsol-optimal.txt");
	char *inf = fixture("glpsol-empty.txt");
	char *iinf = fixture("glpsol-empty-integer.txt");
	char *undef = fixture("glpsol-undefined.txt");
	char *s;

	good(GLPSOL, opt, NULL, 4, ILP_FEASIBLE, "1001");
	good(GLPSOL, inf, NULL, 2, ILP_INFEASIBLE, NULL);
	good(GLPSOL, iinf, NULL, 3, ILP_INFEASIBLE, NULL);
	good(GLPSOL, undef, NULL, 40, ILP_UNKNOWN, NULL);
	s = subst(opt, "INTEGER OPTIMAL", "INTEGER NON-OPTIMAL");
	good(GLPSOL, s, NULL, 4, ILP_FEASIBLE, "1001");
	free(s);
	/* Columns in another order: the names, not the positions, count. */
	s = subst(opt, "x0   ", "x3   ");
	free(opt);
	opt = subst(s, "     4 x3   ", "     4 x0   ");
	good(GLPSOL, opt, NULL, 4, ILP_FEASIBLE, "1001");
	free(s);
	free(opt);
	free(inf);
	free(iinf);
	free(undef);
}
END_TEST

START_TEST(glpsol_hostile)
{
	char *opt = fixture("glpsol-optimal.txt");
	char *s;

	refused_subst(GLPSOL, opt, "x3  ", "x4  ", 4, "x0 .. x3");
	refused_subst(GLPSOL, opt, "x3 ", "x1 ", 4, "x1 listed again");
	refused_subst(GLPSOL, opt, "*              1             0",
		      "*            0.5             0", 4, "not 0 or 1");
	refused_subst(GLPSOL, opt, "x2           *", "x2            ", 4,
		      "not integer column 3");
	refused_subst(GLPSOL, opt, "     3 x2", "     5 x2", 4,
		      "not integer column 3");
	refused_subst(GLPSOL, opt, "4 (4 integer", "5 (4 integer", 4,
		      "not integer column 5");
	refused_subst(GLPSOL, opt, "4 (4 integer", "3 (4 integer", 4,
		      "more columns than the header's 3");
	refused_subst(GLPSOL, opt, "Columns:    4", "Columns:    -4", 4,
		      "no number of columns");
	refused_subst(GLPSOL, opt, "INTEGER OPTIMAL", "OPTIMAL", 4,
		      "not a MIP status");
	refused_subst(GLPSOL, opt, "INTEGER OPTIMAL", "INTEGER GREAT", 4,
		      "not a MIP status");
	refused_subst(GLPSOL, opt, "   No. Column name", "   No. Row name  ",
		      4, "no column table");
	refused_subst(GLPSOL, opt, "End of output", "End of outpu", 4,
		      "truncated");
	refused_subst(GLPSOL, opt, "Rows:", "Rows ", 4, "'Rows:'");
	s = strdup(opt);
	ck_assert_ptr_nonnull(s);
	s[strlen(s) - 1] = '\0';
	refused(GLPSOL, s, NULL, 4, "truncated");
	s[strlen(s) / 2] = '\0';
	refused(GLPSOL, s, NULL, 4, "truncated");
	free(s);
	free(opt);
}
END_TEST

START_TEST(highs_files)
{
	char *opt = fixture("highs-optimal.sol");
	char *inf = fixture("highs-infeasible.sol");
	char *tl = fixture("highs-time-limit.sol");
	char *tls = fixture("highs-time-limit-solution.sol");
	char *s;

	good(HIGHS, opt, NULL, 4, ILP_FEASIBLE, "1001");
	good(HIGHS, inf, NULL, 4, ILP_INFEASIBLE, NULL);
	good(HIGHS, tl, NULL, 4, ILP_UNKNOWN, NULL);
	good(HIGHS, tls, NULL, 4, ILP_FEASIBLE, "0110");
	s = subst(inf, "Infeasible", "Primal infeasible or unbounded");
	good(HIGHS, s, NULL, 4, ILP_INFEASIBLE, NULL);
	free(s);
	s = subst(tls, "Feasible", "Infeasible");
	good(HIGHS, s, NULL, 4, ILP_UNKNOWN, NULL);
	free(s);
	free(opt);
	free(inf);
	free(tl);
	free(tls);
}
END_TEST

START_TEST(highs_hostile)
{
	char *opt = fixture("highs-optimal.sol");
	char *inf = fixture("highs-infeasible.sol");

	refused_subst(HIGHS, opt, "x3 1", "x9 1", 4, "x0 .. x3");
	refused_subst(HIGHS, opt, "x3 1", "x3 0.5", 4, "not 0 or 1");
	refused_subst(HIGHS, opt, "x3 1", "x0 0", 4, "x0 listed again");
	refused_subst(HIGHS, opt, "x3 1", "x3 1 3", 4, "not 'name value'");
	refused_subst(HIGHS, opt, "# Columns 4", "# Columns 5", 4,
		      "not 'name value'");
	refused_subst(HIGHS, opt, "# Columns 4", "# Columns 3", 4,
		      "expected '# Rows' after the 3 columns");
	refused_subst(HIGHS, opt, "# Columns 4", "# Columns -4", 4,
		      "'# Columns N'");
	refused_subst(HIGHS, opt, "Optimal", "Load error", 4,
		      "does not know");
	refused_subst(HIGHS, opt, "Feasible", "None", 4,
		      "optimal, but no feasible solution");
	refused_subst(HIGHS, inf, "None", "Feasible", 4,
		      "infeasible, but a feasible solution");
	refused_subst(HIGHS, opt, "Objective 0", "Objectiv 0", 4,
		      "'Objective'");
	refused_subst(HIGHS, opt, "Model status", "Model", 4,
		      "'Model status'");
	refused_subst(HIGHS, opt, "\n\n# Primal", "\n# Primal", 4,
		      "'# Primal solution values'");
	refused(HIGHS, "Model status\nOptimal\n\n# Primal solution values\n"
		"Feasible\nObjective 0\n# Columns 2\nx0 1\n", NULL, 4,
		"the columns end early");
	refused(HIGHS, "Model status\nOptimal\n\n# Primal solution values\n"
		"Feasible\nObjective 0\n# Columns 1\nx0 1\n", NULL, 4,
		"expected '# Rows' after the 1 columns");
	refused(HIGHS, "Model status\nOptimal\n\n# Primal solution values\n"
		"Feasible\nObjective 0\n# Columns 1\nx0 1\n# Rows 0", NULL, 4,
		"truncated");
	free(opt);
	free(inf);
}
END_TEST

START_TEST(gurobi_files)
{
	char *sol = fixture("gurobi-optimal.sol");
	char *opt = fixture("gurobi-optimal.log");
	char *inf = fixture("gurobi-infeasible.log");
	char *tl = fixture("gurobi-time-limit.log");
	char *s;

	good(GUROBI, sol, opt, 4, ILP_FEASIBLE, "1001");
	good(GUROBI, NULL, inf, 4, ILP_INFEASIBLE, NULL);
	good(GUROBI, NULL, tl, 40, ILP_UNKNOWN, NULL);
	good(GUROBI, sol, tl, 4, ILP_FEASIBLE, "1001");
	s = subst(inf, "infeasible", "infeasible or unbounded");
	good(GUROBI, NULL, s, 4, ILP_INFEASIBLE, NULL);
	free(s);
	free(sol);
	free(opt);
	free(inf);
	free(tl);
}
END_TEST

START_TEST(gurobi_hostile)
{
	char *sol = fixture("gurobi-optimal.sol");
	char *opt = fixture("gurobi-optimal.log");
	char *s;

	refused(GUROBI, NULL, opt, 4, "no solution file");
	refused(GUROBI, "", opt, 4, "empty");
	refused(GUROBI, sol, NULL, 4, "no verdict");
	refused(GUROBI, sol, "Optimize a model\n", 4, "no verdict");
	refused(GUROBI, sol, "Optimal solution found\nModel is infeasible",
		4, "two verdicts");
	s = subst(sol, "x3 1", "x3 0.5");
	refused(GUROBI, s, opt, 4, "not 0 or 1");
	free(s);
	s = subst(sol, "x3 1\n", "");
	refused(GUROBI, s, opt, 4, "x3 missing");
	free(s);
	s = subst(sol, "x3 1", "x3 1 1");
	refused(GUROBI, s, opt, 4, "not 'name value'");
	free(s);
	s = subst(sol, "x3 1", "x4 1");
	refused(GUROBI, s, opt, 4, "x0 .. x3");
	free(s);
	s = subst(sol, "x3 1", "x0 0");
	refused(GUROBI, s, opt, 4, "x0 listed again");
	free(s);
	s = subst(sol, "x3 1\n", "x3 1");
	refused(GUROBI, s, opt, 4, "truncated");
	free(s);
	free(sol);
	free(opt);
}
END_TEST

static Suite *spawn_suite(void)
{
	Suite *s = suite_create("spawn");
	TCase *tc = tcase_create("spawn");
	TCase *sv = tcase_create("solvers");
	TCase *pa = tcase_create("parsers");
	int nreal = sizeof(real) / sizeof(real[0]);

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mmap_threshold_fixed);
	tcase_add_test(tc, one_arena);
	tcase_add_test(tc, exit_status);
	tcase_add_test(tc, signalled);
	tcase_add_test(tc, echo_through_cat);
	tcase_add_test(tc, no_input_is_eof);
	tcase_add_test(tc, stderr_discarded);
	tcase_add_test(tc, overflow);
	tcase_add_test(tc, timeout);
	tcase_add_test(tc, timeout_kills_group);
	tcase_add_test(tc, leftover_killed);
	tcase_add_test(tc, timeout_after_output_closed);
	tcase_add_test(tc, no_such_program);
	tcase_add_test(tc, exec_fails);
	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, input_closed_early);
	tcase_add_test(tc, no_inherited_descriptor);
	tcase_add_test(tc, signals_left_alone);
	tcase_add_test(tc, threads);
	tcase_add_test(tc, progress_in_order);
	suite_add_tcase(s, tc);
	tcase_set_timeout(sv, 120);
	tcase_add_loop_test(sv, real_feasible, 0, nreal);
	tcase_add_loop_test(sv, real_infeasible, 0, nreal);
	tcase_add_loop_test(sv, real_time_limit, 0, nreal);
	tcase_add_test(sv, highs_command_line);
	tcase_add_test(sv, gurobi_command_line);
	tcase_add_test(sv, solver_ignores_its_limit);
	tcase_add_test(sv, solver_fails);
	suite_add_tcase(s, sv);
	tcase_add_test(pa, cbc_files);
	tcase_add_test(pa, cbc_hostile);
	tcase_add_test(pa, absurd_lengths);
	tcase_add_test(pa, glpsol_files);
	tcase_add_test(pa, glpsol_hostile);
	tcase_add_test(pa, highs_files);
	tcase_add_test(pa, highs_hostile);
	tcase_add_test(pa, gurobi_files);
	tcase_add_test(pa, gurobi_hostile);
	suite_add_tcase(s, pa);
	return s;
}

/* The stand-ins' directory; the runs' one must be empty already. */
static int rm_dirs(void)
{
	fors_tmpdir_remove(bindir);
	return (access(bindir, F_OK) == 0) | rmdir(tmpdir);
}

int main(void)
{
	int r;

	strcpy(tmpdir, "/tmp/fors-check-spawn-XXXXXX");
	strcpy(bindir, "/tmp/fors-check-bin-XXXXXX");
	if (!mkdtemp(tmpdir) || !mkdtemp(bindir) ||
	    setenv("TMPDIR", tmpdir, 1)) {
		perror("check_spawn: temporary directories");
		return EXIT_FAILURE;
	}
	r = run_suite(spawn_suite());
	if (rm_dirs()) {
		perror("check_spawn: removing the temporary directories");
		r = EXIT_FAILURE;
	}
	return r;
}
