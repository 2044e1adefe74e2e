// SPDX-License-Identifier: MIT
/*
 * The list edge colouring solver against brute force on small random
 * instances, on planted solutions of realistic size, and on hints.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lec.h"
#include "suite.h"

#define MAXE 64
#define MAXL 2048

struct inst {
	int left[MAXE], right[MAXE], lstart[MAXE + 1], list[MAXL];
	struct lec_problem p;
};

/* Lists are random subsets; planted[e] >= 0 forces that colour in. */
static void make(struct inst *in, int nl, int nr, int nc, int ne,
		 int density, const int *planted)
{
	int e, c, n = 0;

	for (e = 0; e < ne; e++) {
		in->left[e] = (int)(rnd() % nl);
		in->right[e] = (int)(rnd() % nr);
		in->lstart[e] = n;
		for (c = 0; c < nc; c++)
			if ((planted && planted[e] == c) ||
			    (int)(rnd() % 100) < density)
				in->list[n++] = c;
	}
	in->lstart[ne] = n;
	in->p = (struct lec_problem){ nl, nr, nc, ne, in->left, in->right,
				      in->lstart, in->list };
}

static int brute(const struct lec_problem *p, int *col, int e)
{
	int k, g;

	if (e == p->nedges)
		return 1;
	for (k = p->lstart[e]; k < p->lstart[e + 1]; k++) {
		int c = p->list[k], ok = 1;

		for (g = 0; g < e && ok; g++)
			ok = !(col[g] == c && (p->left[g] == p->left[e] ||
					       p->right[g] == p->right[e]));
		col[e] = c;
		if (ok && brute(p, col, e + 1))
			return 1;
	}
	return 0;
}

/* Coloured edges respect lists and vertices, and some are uncoloured. */
static void assert_proper_partial(const struct lec_problem *p, const int *col)
{
	int e, g, k, unc = 0;

	for (e = 0; e < p->nedges; e++) {
		if (col[e] < 0) {
			unc++;
			continue;
		}
		for (k = p->lstart[e]; k < p->lstart[e + 1] &&
		     p->list[k] != col[e]; k++)
			;
		ck_assert_int_lt(k, p->lstart[e + 1]);
		for (g = 0; g < e; g++)
			ck_assert(!(col[g] == col[e] &&
				    (p->left[g] == p->left[e] ||
				     p->right[g] == p->right[e])));
	}
	ck_assert_int_gt(unc, 0);
}

START_TEST(agrees_with_brute_force)
{
	int trial, decided[2] = { 0, 0 };

	test_rng = 0x1234567;
	for (trial = 0; trial < 3000; trial++) {
		struct inst in;
		int col[MAXE], bcol[MAXE], e, r, truth;
		int ne = 2 + (int)(rnd() % 9);

		make(&in, 2 + rnd() % 3, 2 + rnd() % 3, 2 + rnd() % 4, ne,
		     55, NULL);
		for (e = 0; e < ne; e++)
			col[e] = -1;
		truth = brute(&in.p, bcol, 0);
		r = lec_solve(&in.p, col, &lec_default_budget);
		ck_assert_int_eq(r, truth ? LEC_SOLVED : LEC_INFEASIBLE);
		if (truth)
			ck_assert(lec_is_proper(&in.p, col));
		else
			assert_proper_partial(&in.p, col);
		decided[truth]++;
	}
	/* both outcomes must actually occur, or the test proves nothing */
	ck_assert_int_gt(decided[0], 100);
	ck_assert_int_gt(decided[1], 100);
}
END_TEST

/* Exact search alone (no repair) must decide the same instances. */
START_TEST(exact_search_alone)
{
	struct lec_budget b = { .restarts = -1, .exact_nodes = 1000000,
				.seed = 7 };
	int trial;

	test_rng = 0xabcdef;
	for (trial = 0; trial < 1000; trial++) {
		struct inst in;
		int col[MAXE], bcol[MAXE], e, ne = 2 + (int)(rnd() % 9);

		make(&in, 3, 3, 4, ne, 50, NULL);
		for (e = 0; e < ne; e++)
			col[e] = -1;
		ck_assert_int_eq(lec_solve(&in.p, col, &b),
				 brute(&in.p, bcol, 0) ? LEC_SOLVED :
							 LEC_INFEASIBLE);
	}
}
END_TEST

/* Phase-sized instances with a planted colouring: always solvable. */
START_TEST(planted_solutions)
{
	int trial;

	test_rng = 0x5eed;
	for (trial = 0; trial < 200; trial++) {
		struct inst in;
		int planted[MAXE], col[MAXE], e, ne = 0, c;
		int nl = 6, nr = 6, nc = 8;

		/* a proper colouring: colour c is a random partial matching */
		for (c = 0; c < nc && ne < MAXE; c++) {
			int perm[6], i;

			for (i = 0; i < nr; i++)
				perm[i] = i;
			for (i = nr - 1; i > 0; i--) {
				int j = (int)(rnd() % (i + 1)), t = perm[i];

				perm[i] = perm[j];
				perm[j] = t;
			}
			for (i = 0; i < nl && ne < MAXE; i++) {
				if (rnd() % 4 == 0)
					continue;
				in.left[ne] = i;
				in.right[ne] = perm[i];
				planted[ne++] = c;
			}
		}
		{
			int n = 0;

			for (e = 0; e < ne; e++) {
				in.lstart[e] = n;
				for (c = 0; c < nc; c++)
					if (c == planted[e] || rnd() % 3 == 0)
						in.list[n++] = c;
				col[e] = -1;
			}
			in.lstart[ne] = n;
		}
		in.p = (struct lec_problem){ nl, nr, nc, ne, in.left, in.right,
					     in.lstart, in.list };
		ck_assert_int_eq(lec_solve(&in.p, col, NULL), LEC_SOLVED);
		ck_assert(lec_is_proper(&in.p, col));
	}
}
END_TEST

/* A proper hint is kept as it is: a previous phase's solution is reused. */
START_TEST(keeps_a_proper_hint)
{
	struct inst in;
	int col[MAXE], hint[MAXE], e, ne = 12;

	test_rng = 99;
	make(&in, 4, 4, 6, ne, 70, NULL);
	for (e = 0; e < ne; e++)
		col[e] = -1;
	ck_assert_int_eq(lec_solve(&in.p, col, NULL), LEC_SOLVED);
	memcpy(hint, col, sizeof(col));
	ck_assert_int_eq(lec_solve(&in.p, col, NULL), LEC_SOLVED);
	ck_assert_mem_eq(col, hint, sizeof(int) * ne);
}
END_TEST

/* Two parallel edges sharing one single-colour list: proven infeasible. */
START_TEST(parallel_edges)
{
	int left[2] = { 0, 0 }, right[2] = { 0, 0 };
	int lstart[3] = { 0, 1, 2 }, list[2] = { 3, 3 }, col[2] = { -1, -1 };
	struct lec_problem p = { 1, 1, 4, 2, left, right, lstart, list };

	ck_assert_int_eq(lec_solve(&p, col, NULL), LEC_INFEASIBLE);
	/* the best partial colouring comes back: one edge of the two */
	ck_assert_int_eq((col[0] == 3) + (col[1] == 3), 1);
	ck_assert_int_eq((col[0] == -1) + (col[1] == -1), 1);
	list[1] = 1;
	ck_assert_int_eq(lec_solve(&p, col, NULL), LEC_SOLVED);
	ck_assert_int_eq(col[0], 3);
	ck_assert_int_eq(col[1], 1);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("lec");
	TCase *tc = tcase_create("solver");

	tcase_add_test(tc, agrees_with_brute_force);
	tcase_add_test(tc, exact_search_alone);
	tcase_add_test(tc, planted_solutions);
	tcase_add_test(tc, keeps_a_proper_hint);
	tcase_add_test(tc, parallel_edges);
	tcase_set_timeout(tc, 0);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
