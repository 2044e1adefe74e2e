// SPDX-License-Identifier: MIT
/*
 * The seeds of fuzz target FUZZ_TARGET and every input that once broke it
 * (fuzz/corpus/FUZZ_TARGET, fuzz/regressions/FUZZ_TARGET) replayed through
 * the target itself, compiled with gcc into the normal test suite: a crash,
 * a broken promise or, under valgrind and ASan in CI, a leak fails. See
 * doc/fuzzing.md.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "suite.h"

static char **files;
static int nfiles;

/* Every file of fuzz/KIND/FUZZ_TARGET; none when there is no such directory. */
static int add_dir(const char *top, const char *kind)
{
	char dir[4096], **f;
	struct dirent *e;
	int r = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/fuzz/%s/%s", top, kind, FUZZ_TARGET);
	d = opendir(dir);
	while (!r && d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		f = realloc(files, sizeof(*files) * (nfiles + 1));
		if (f)
			files = f;
		if (!f || asprintf(&files[nfiles], "%s/%s", dir, e->d_name) < 0)
			r = -1;
		else
			nfiles++;
	}
	if (d)
		closedir(d);
	return r;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Exactly the file's bytes in a buffer of that size, as libFuzzer does. */
START_TEST(replay)
{
	FILE *f = fopen(files[_i], "rb");
	uint8_t *buf;
	long size;

	ck_assert_msg(f != NULL, "cannot open %s", files[_i]);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	rewind(f);
	buf = malloc(size ? size : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, size, f), size);
	fclose(f);
	printf("replay %s\n", files[_i]);
	fflush(stdout);
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
}
END_TEST

int main(void)
{
	const char *top = getenv("srcdir") ? getenv("srcdir") : ".";
	Suite *su = suite_create("fuzz-replay-" FUZZ_TARGET);
	TCase *tc = tcase_create(FUZZ_TARGET);
	int r, i;

	if (add_dir(top, "corpus") || add_dir(top, "regressions")) {
		fprintf(stderr, "out of memory\n");
		return EXIT_FAILURE;
	}
	if (!nfiles) {
		fprintf(stderr, "no seeds in %s/fuzz/corpus/%s\n", top,
			FUZZ_TARGET);
		return EXIT_FAILURE;
	}
	qsort(files, nfiles, sizeof(*files), by_name);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, replay, 0, nfiles);
	suite_add_tcase(su, tc);
	r = run_suite(su);
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return r;
}
