// SPDX-License-Identifier: MIT
/*
 * External programs run from inside the subnet manager: a multi-threaded
 * process running as root. Everything the child needs is built before
 * fork(): another thread may hold the allocator's lock at that moment, so
 * the child makes only async-signal-safe calls until it execs. Its
 * standard input is a socket fed with send(MSG_NOSIGNAL), so a child that
 * exits without reading cannot raise SIGPIPE here, and no disposition or
 * signal mask of the caller changes for longer than the fork itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/spawn.h"

/* What the child needs, all prepared before fork(). */
struct kid {
	const char *path;
	char *const *argv;
	int in, out, nul, err;	/* its ends; all close-on-exec */
	long maxfd;
	sigset_t none;
};

/* The parent's side of one run. */
struct run {
	pid_t pid;
	int out;		/* standard output's read end, -1 at its end */
	int in;			/* standard input's socket, -1 once closed */
	int err;		/* the child's errno if exec failed */
	const char *data;
	size_t ndata, sent;
	char *buf;
	size_t nbuf, cap, max;
	uint64_t t0, deadline;	/* CLOCK_MONOTONIC, ns */
};

enum { PUMP_EOF, PUMP_TIMEOUT, PUMP_OVERFLOW };

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Milliseconds to the deadline, rounded up so poll() never spins early. */
static int left_ms(const struct run *r)
{
	uint64_t t = now_ns(), ms;

	if (t >= r->deadline)
		return 0;
	ms = (r->deadline - t + 999999) / 1000000;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Descriptors 3 and up close at exec; kernels before 5.11 one by one. */
static void cloexec_from3(long maxfd)
{
	long fd;

	if (!close_range(3, ~0U, CLOSE_RANGE_CLOEXEC))
		return;
	for (fd = 3; fd < maxfd; fd++)
		fcntl((int)fd, F_SETFD, FD_CLOEXEC);
}

static void report(int fd, int e)
{
	while (write(fd, &e, sizeof(e)) < 0 && errno == EINTR)
		;
}

/*
 * Async-signal-safe calls only. The ends are first moved above 2, so
 * none is overwritten while standard input, output and error are set up,
 * whatever descriptors the caller had closed.
 */
static void child(const struct kid *k)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int err = fcntl(k->err, F_DUPFD_CLOEXEC, 3);
	int in = fcntl(k->in, F_DUPFD_CLOEXEC, 3);
	int out = fcntl(k->out, F_DUPFD_CLOEXEC, 3);
	int nul = fcntl(k->nul, F_DUPFD_CLOEXEC, 3);
	int sig;

	if (err < 0)
		err = k->err;
	if (in < 0 || out < 0 || nul < 0 || dup2(in, 0) < 0 ||
	    dup2(out, 1) < 0 || dup2(nul, 2) < 0) {
		report(err, errno);
		_exit(127);
	}
	cloexec_from3(k->maxfd);
	setpgid(0, 0);
	/* A fresh program's signals: the caller's handlers and ignores go. */
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigprocmask(SIG_SETMASK, &k->none, NULL);
	execve(k->path, k->argv, environ);
	report(err, errno);
	_exit(127);
}

/* argv[0] as execvp() would find it, resolved before fork(). */
static int find_program(const char *name, char **full,
			struct fors_error *err)
{
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;

	if (strchr(name, '/'))
		return (*full = strdup(name)) ? 0 : FORS_ENOMEM;
	if (!path || !*path)
		path = "/bin:/usr/bin";
	for (p = path; ; p = e + 1) {
		e = strchrnul(p, ':');
		/* An empty entry is the current directory, as for execvp(). */
		if (asprintf(full, "%.*s%s%s", (int)(e - p), p,
			     e > p ? "/" : "", name) < 0)
			return FORS_ENOMEM;
		if (!stat(*full, &st) && S_ISREG(st.st_mode) &&
		    !access(*full, X_OK))
			return 0;
		free(*full);
		*full = NULL;
		if (!*e)
			break;
	}
	fors_error_set(err, "cannot run %s: not found in PATH", name);
	return FORS_EIO;
}

/* The first max bytes are kept; one more means overflow; then the NUL. */
static int grow(struct run *r)
{
	size_t cap = r->cap ? r->cap * 2 : 4096;
	char *b;

	if (cap > r->max + 2)
		cap = r->max + 2;
	b = realloc(r->buf, cap);
	if (!b)
		return FORS_ENOMEM;
	r->buf = b;
	r->cap = cap;
	return 0;
}

/* 1 at end of output, 0 otherwise, FORS_ENOMEM. */
static int drain(struct run *r)
{
	ssize_t n;

	if (r->nbuf + 1 == r->cap && grow(r))
		return FORS_ENOMEM;
	n = read(r->out, r->buf + r->nbuf, r->cap - 1 - r->nbuf);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : 1;
	r->nbuf += (size_t)n;
	return n == 0;
}

/* As much of the input as the socket takes now; closed when all is sent. */
static void feed(struct run *r)
{
	ssize_t n = send(r->in, r->data + r->sent, r->ndata - r->sent,
			 MSG_NOSIGNAL | MSG_DONTWAIT);

	if (n > 0)
		r->sent += (size_t)n;
	else if (n < 0 && errno != EINTR && errno != EAGAIN)
		close_fd(&r->in);	/* the child closed its end */
	if (r->sent == r->ndata)
		close_fd(&r->in);
}

/* Input in and output out until the output ends, the deadline or too much. */
static int pump(struct run *r)
{
	struct pollfd p[2];	/* poll() skips the closed input's -1 */
	int n, e;

	for (;;) {
		if (r->nbuf > r->max)
			return PUMP_OVERFLOW;
		if (!left_ms(r))
			return PUMP_TIMEOUT;
		p[0] = (struct pollfd){ .fd = r->out, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = r->in, .events = POLLOUT };
		n = poll(p, 2, left_ms(r));
		if (n < 0 && errno != EINTR)
			return FORS_EIO;
		if (n <= 0)
			continue;
		if (r->in >= 0 && p[1].revents)
			feed(r);
		if (p[0].revents) {
			e = drain(r);
			if (e)
				return e < 0 ? e : PUMP_EOF;
		}
	}
}

/*
 * 0 once the child has exited, still unreaped, or waiting fails; 1 if it
 * still runs at the deadline, having closed its output early.
 */
static int exited(struct run *r)
{
	siginfo_t si;
	int ms = 1;

	for (;;) {
		si.si_pid = 0;
		if (waitid(P_PID, (id_t)r->pid, &si,
			   WEXITED | WNOHANG | WNOWAIT) && errno != EINTR)
			return 0;
		if (si.si_pid == r->pid)
			return 0;
		if (!left_ms(r))
			return 1;
		poll(NULL, 0, ms < left_ms(r) ? ms : left_ms(r));
		if (ms < 64)
			ms *= 2;
	}
}

/*
 * The group goes before the child is reaped: its zombie keeps the group's
 * id from being reused, and nothing the program left running outlives it.
 */
static int kill_reap(struct run *r, int *st)
{
	pid_t w;

	kill(-r->pid, SIGKILL);
	kill(r->pid, SIGKILL);
	while ((w = waitpid(r->pid, st, 0)) < 0 && errno == EINTR)
		;
	return w == r->pid ? 0 : FORS_EIO;
}

/* The child's seven ends, -1 where not open; errno set on failure. */
static int open_ends(int fd[7])
{
	if (pipe2(fd, O_CLOEXEC) ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd + 2) ||
	    pipe2(fd + 4, O_CLOEXEC | O_NONBLOCK) ||
	    (fd[6] = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		return -1;
	return 0;
}

static void close_all(int *fd, int n)
{
	while (n--)
		close_fd(fd + n);
}

/* Signals blocked across fork(): no handler of the caller runs in the child. */
static int start(struct run *r, const char *path, const char *const *argv,
		 uint32_t ms, struct fors_error *err)
{
	int fd[7] = { -1, -1, -1, -1, -1, -1, -1 }, e;
	sigset_t all, old;
	struct kid k;

	if (open_ends(fd)) {
		fors_error_set(err, "cannot run %s: %s", argv[0],
			       strerror(errno));
		close_all(fd, 7);
		return FORS_EIO;
	}
	k = (struct kid){ .path = path, .argv = (char *const *)argv,
			  .out = fd[1], .in = fd[3], .err = fd[5],
			  .nul = fd[6], .maxfd = sysconf(_SC_OPEN_MAX) };
	sigemptyset(&k.none);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r->t0 = now_ns();
	r->pid = fork();
	if (!r->pid)
		child(&k);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close_all(fd + 5, 2);
	close_fd(fd + 3);
	close_fd(fd + 1);
	r->out = fd[0];
	r->in = fd[2];
	r->err = fd[4];
	if (r->pid < 0) {
		fors_error_set(err, "cannot run %s: fork: %s", argv[0],
			       strerror(e));
		return FORS_EIO;
	}
	/* Here too: the group exists before any kill, whoever runs first. */
	setpgid(r->pid, r->pid);
	r->deadline = r->t0 + (uint64_t)ms * 1000000;
	if (!r->ndata)
		close_fd(&r->in);
	return 0;
}

static uint32_t elapsed_ms(const struct run *r)
{
	uint64_t ms = (now_ns() - r->t0) / 1000000;

	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

/* The end of the run: exit, timeout (killed), overflow (killed). */
static int finish(struct run *r, int pumped, const char *name,
		  struct fors_spawn_result *res, struct fors_error *err)
{
	int st = 0, e = errno, x;

	if (pumped == PUMP_EOF) {
		close_fd(&r->in);
		if (exited(r))
			pumped = PUMP_TIMEOUT;
	}
	if (kill_reap(r, &st) && pumped >= 0) {
		pumped = FORS_EIO;
		e = errno;
	}
	if (pumped < 0) {
		fors_error_set(err, "running %s: %s", name, strerror(e));
		return pumped;
	}
	if (read(r->err, &x, sizeof(x)) == sizeof(x)) {
		fors_error_set(err, "cannot run %s: %s", name, strerror(x));
		return FORS_EIO;
	}
	res->elapsed_ms = elapsed_ms(r);
	res->status = pumped == PUMP_TIMEOUT ? FORS_SPAWN_TIMEOUT :
		      pumped == PUMP_OVERFLOW ? FORS_SPAWN_OVERFLOW :
		      WIFSIGNALED(st) ? FORS_SPAWN_SIGNALLED :
		      FORS_SPAWN_EXITED;
	if (res->status == FORS_SPAWN_SIGNALLED)
		res->code = WTERMSIG(st);
	else if (res->status == FORS_SPAWN_EXITED)
		res->code = WEXITSTATUS(st);
	else if (r->nbuf > r->max)
		r->nbuf = r->max;
	return 0;
}

int fors_spawn(const char *const *argv, const char *in, size_t nin,
	       const struct fors_spawn_limits *lim,
	       struct fors_spawn_result *res, struct fors_error *err)
{
	struct run r = { .out = -1, .in = -1, .err = -1, .data = in,
			 .ndata = nin };
	char *path = NULL;
	int e;

	memset(res, 0, sizeof(*res));
	if (!argv || !argv[0] || !*argv[0] || !lim || (nin && !in) ||
	    lim->max_output > SIZE_MAX - 2) {
		fors_error_set(err, "fors_spawn: no program, limits or input");
		return FORS_EINVAL;
	}
	r.max = lim->max_output;
	e = find_program(argv[0], &path, err);
	if (!e)
		e = grow(&r);
	if (!e)
		e = start(&r, path, argv, lim->time_ms, err);
	if (!e)
		e = finish(&r, pump(&r), argv[0], res, err);
	if (e == FORS_ENOMEM)
		fors_error_set(err, "out of memory");
	free(path);
	close_fd(&r.out);
	close_fd(&r.in);
	close_fd(&r.err);
	if (e) {
		free(r.buf);
		memset(res, 0, sizeof(*res));
		return e;
	}
	r.buf[r.nbuf] = '\0';
	res->out = r.buf;
	res->nout = r.nbuf;
	return 0;
}

void fors_spawn_describe(const struct fors_spawn_result *res, char *buf,
			 size_t len)
{
	switch (res->status) {
	case FORS_SPAWN_EXITED:
		snprintf(buf, len, "exit %d", res->code);
		break;
	case FORS_SPAWN_SIGNALLED:
		snprintf(buf, len, "killed by signal %d (SIG%s)", res->code,
			 sigabbrev_np(res->code) ? sigabbrev_np(res->code) :
			 "?");
		break;
	case FORS_SPAWN_TIMEOUT:
		snprintf(buf, len, "timed out after %u ms, killed",
			 res->elapsed_ms);
		break;
	case FORS_SPAWN_OVERFLOW:
		snprintf(buf, len, "killed after %zu bytes of output, the limit",
			 res->nout);
		break;
	}
}
