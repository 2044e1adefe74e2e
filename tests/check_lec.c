// SPDX-License-Identifier: MIT
/*
 * The list edge colouring solver against brute force on small random
 * instances, on planted solutions of realistic size, and on hints.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lec/hall.h"
#include "lec/lec.h"
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

/*
 * hints_first is only a shortcut: on random instances with hints that are
 * right, wrong, off the list or absent, the verdict and the colouring are
 * those of the solver without it, and the shortcut settles some of them.
 */
START_TEST(hints_first_changes_nothing)
{
	struct lec_budget quick = lec_default_budget;
	int trial, e, quick_solved = 0;

	quick.hints_first = 1;
	test_rng = 0x41e7;
	for (trial = 0; trial < 400; trial++) {
		struct inst in;
		int a[MAXE], b[MAXE], ne = 4 + (int)(rnd() % 20), ra, rb;

		make(&in, 5, 5, 6, ne, 20 + (int)(rnd() % 60), NULL);
		for (e = 0; e < ne; e++)
			a[e] = -1;
		if (lec_solve(&in.p, a, NULL) != LEC_SOLVED)
			for (e = 0; e < ne; e++)
				a[e] = (int)(rnd() % 8) - 1;
		for (e = 0; e < ne; e++)
			if (rnd() % 4 == 0)
				a[e] = (int)(rnd() % 8) - 1;
		memcpy(b, a, sizeof(a));
		ra = lec_solve(&in.p, a, NULL);
		rb = lec_solve(&in.p, b, &quick);
		ck_assert_int_eq(ra, rb);
		ck_assert_mem_eq(a, b, sizeof(int) * ne);
		quick_solved += rb == LEC_SOLVED;
	}
	ck_assert_int_gt(quick_solved, 100);
}
END_TEST

/*
 * The oracle every solution here is held to: two edges of one colour at a
 * left vertex, at a right vertex, or a colour off an edge's list, or an
 * edge left uncoloured, is not a proper colouring.
 */
START_TEST(proper_refuses_clashes)
{
	static const int left[] = { 0, 0, 1 }, right[] = { 0, 1, 1 };
	static const int lstart[] = { 0, 2, 4, 6 }, list[] = { 0, 1, 0, 1, 0, 1 };
	const struct lec_problem p = { 2, 2, 2, 3, left, right, lstart, list };
	const int good[] = { 0, 1, 0 }, at_left[] = { 0, 0, 1 };
	const int at_right[] = { 0, 1, 1 }, off_list[] = { 0, 2, 0 };
	const int none[] = { 0, -1, 0 };

	ck_assert(lec_is_proper(&p, good));
	ck_assert(!lec_is_proper(&p, at_left));
	ck_assert(!lec_is_proper(&p, at_right));
	ck_assert(!lec_is_proper(&p, off_list));
	ck_assert(!lec_is_proper(&p, none));
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

/*
 * The 46 edges around the conflict of a phase graph of the route bench
 * (FT(2;20,18), f = 10, every leaf tight), 18 leaves a side and 20 planes:
 * its fractional relaxation is infeasible, but no vertex or colour class
 * shows it and the exact search does not finish.
 */
static const int core_left[] = {
	0, 1, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6,
	6, 6, 6, 6, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 9, 9,
	9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11, 12, 12, 12,
};
static const int core_right[] = {
	11, 11, 11, 11, 13, 14, 11, 13, 14, 15, 11, 13, 14, 15, 16, 11,
	13, 14, 15, 16, 11, 13, 14, 15, 16, 11, 13, 14, 15, 16, 11, 13,
	14, 15, 16, 13, 14, 15, 16, 13, 14, 15, 16, 14, 15, 16,
};
static const int core_lstart[] = {
	0, 6, 13, 17, 20, 26, 32, 37, 40, 46, 49, 54, 57, 62, 66, 71,
	76, 79, 83, 88, 91, 94, 99, 106, 113, 116, 124, 129, 134, 139, 144, 149,
	152, 157, 162, 167, 170, 175, 182, 185, 189, 192, 196, 202, 207, 211, 215,
};
static const int core_list[] = {
	1, 3, 4, 11, 17, 18, 1, 3, 4, 5, 11, 13, 15, 1, 4, 11,
	18, 1, 3, 18, 0, 1, 3, 6, 7, 9, 0, 1, 6, 8, 9, 16,
	1, 4, 5, 11, 15, 1, 6, 9, 1, 4, 6, 8, 9, 16, 4, 10,
	16, 4, 5, 13, 15, 17, 0, 6, 17, 0, 4, 6, 8, 16, 4, 10,
	13, 16, 0, 4, 5, 13, 17, 3, 4, 5, 15, 18, 3, 7, 9, 4,
	8, 9, 16, 4, 7, 10, 16, 18, 4, 5, 7, 3, 4, 18, 3, 6,
	9, 12, 14, 4, 6, 9, 12, 14, 16, 19, 4, 10, 12, 14, 16, 18,
	19, 4, 12, 14, 1, 2, 3, 4, 11, 15, 17, 18, 1, 2, 3, 12,
	17, 1, 2, 4, 12, 19, 2, 4, 12, 18, 19, 1, 2, 4, 12, 17,
	4, 5, 11, 13, 15, 6, 7, 12, 4, 6, 8, 12, 19, 4, 7, 12,
	13, 19, 4, 5, 7, 12, 13, 6, 7, 12, 6, 8, 12, 16, 19, 7,
	10, 12, 13, 16, 18, 19, 7, 12, 13, 1, 2, 3, 17, 1, 2, 4,
	2, 4, 13, 18, 1, 2, 4, 5, 13, 17, 4, 6, 8, 9, 14, 4,
	13, 14, 18, 4, 13, 14, 17,
};

START_TEST(lp_refutes_a_tight_core)
{
	struct lec_problem p = { 18, 18, 20, 46, core_left, core_right,
				 core_lstart, core_list };
	struct lec_budget dfs = { .restarts = -1, .exact_nodes = 10000,
				  .seed = 1 };
	struct lec_budget lp = { .restarts = -1, .lp_rounds = 2000,
				 .seed = 1 };
	int col[46], e;

	for (e = 0; e < 46; e++)
		col[e] = -1;
	ck_assert_int_eq(lec_solve(&p, col, &dfs), LEC_UNKNOWN);
	for (e = 0; e < 46; e++)
		col[e] = -1;
	ck_assert_int_eq(lec_solve(&p, col, &lp), LEC_INFEASIBLE);
	assert_proper_partial(&p, col);
}
END_TEST

/*
 * The LP alone never refutes a colourable instance, and it refutes more
 * than the vertex conditions it runs after.
 */
START_TEST(lp_refutes_only_the_infeasible)
{
	struct lec_budget pre = { .restarts = -1, .seed = 3 };
	struct lec_budget lp = { .restarts = -1, .lp_rounds = 500,
				 .seed = 3 };
	int trial, byvertex = 0, bylp = 0;

	test_rng = 0x1f0e;
	for (trial = 0; trial < 3000; trial++) {
		struct inst in;
		int col[MAXE], bcol[MAXE], e, r, ne = 2 + (int)(rnd() % 9);
		int truth;

		make(&in, 2 + rnd() % 3, 2 + rnd() % 3, 2 + rnd() % 4, ne,
		     55, NULL);
		truth = brute(&in.p, bcol, 0);
		for (e = 0; e < ne; e++)
			col[e] = -1;
		byvertex += lec_solve(&in.p, col, &pre) == LEC_INFEASIBLE;
		for (e = 0; e < ne; e++)
			col[e] = -1;
		r = lec_solve(&in.p, col, &lp);
		ck_assert_int_ne(r, LEC_SOLVED);
		if (r == LEC_INFEASIBLE) {
			ck_assert(!truth);
			bylp++;
		}
	}
	ck_assert_int_gt(bylp, byvertex);
}
END_TEST

/* Incidence lists (CSR) of one side of p: vertex v's edges ve[vs[v]..]. */
static void incidence_of(const struct lec_problem *p, const int *end, int nv,
			 int *vs, int *ve)
{
	int e, v, n = 0;

	for (v = 0; v < nv; v++) {
		vs[v] = n;
		for (e = 0; e < p->nedges; e++)
			if (end[e] == v)
				ve[n++] = e;
	}
	vs[nv] = n;
}

/*
 * Hall's condition at each vertex and the colour classes' matchings, on
 * their own: neither refutes a colourable instance, and each refutes
 * instances the one before it let through (else it checks nothing).
 */
START_TEST(necessary_conditions_sound_and_used)
{
	int trial, byvertex = 0, byclass = 0;

	test_rng = 0x4a11;
	for (trial = 0; trial < 4000; trial++) {
		struct inst in;
		int ls[8], le[MAXE], rs[8], re[MAXE], bcol[MAXE], v, c, truth;

		make(&in, 2 + rnd() % 4, 2 + rnd() % 4, 2 + rnd() % 4,
		     2 + (int)(rnd() % 11), 50, NULL);
		for (v = 0; v < in.p.nedges &&
			    in.lstart[v + 1] > in.lstart[v]; v++)
			;
		if (v < in.p.nedges)
			continue;	/* an empty list: refuted by its edge */
		truth = brute(&in.p, bcol, 0);
		incidence_of(&in.p, in.left, in.p.nleft, ls, le);
		incidence_of(&in.p, in.right, in.p.nright, rs, re);
		v = lec_prechecks(&in.p, ls, le, rs, re);
		c = lec_colour_capacity(&in.p, ls, le, rs, re);
		ck_assert_int_ge(v, 0);
		ck_assert_int_ge(c, 0);
		ck_assert(truth ? v && c : 1);
		byvertex += !v;
		byclass += v && !c;
	}
	ck_assert_int_gt(byvertex, 400);
	ck_assert_int_gt(byclass, 7);
}
END_TEST

/* Colourable phase-sized instances: the LP alone never refutes them. */
START_TEST(lp_keeps_planted_solutions)
{
	struct lec_budget lp = { .restarts = -1, .lp_rounds = 2000,
				 .seed = 5 };
	int trial;

	test_rng = 0x91a7;
	for (trial = 0; trial < 100; trial++) {
		struct inst in;
		int planted[MAXE], col[MAXE], e, ne = 0, c, i, n = 0;

		/* every vertex of a 6 + 6 graph uses every colour once */
		for (c = 0; c < 8 && ne + 6 <= MAXE; c++) {
			int shift = (int)(rnd() % 6);

			for (i = 0; i < 6; i++) {
				in.left[ne] = i;
				in.right[ne] = (i + shift) % 6;
				planted[ne++] = c;
			}
		}
		for (e = 0; e < ne; e++) {
			in.lstart[e] = n;
			for (c = 0; c < 8; c++)
				if (c == planted[e] || rnd() % 3 == 0)
					in.list[n++] = c;
			col[e] = -1;
		}
		in.lstart[ne] = n;
		in.p = (struct lec_problem){ 6, 6, 8, ne, in.left, in.right,
					     in.lstart, in.list };
		ck_assert_int_eq(lec_solve(&in.p, col, &lp), LEC_UNKNOWN);
	}
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
	tcase_add_test(tc, hints_first_changes_nothing);
	tcase_add_test(tc, proper_refuses_clashes);
	tcase_add_test(tc, parallel_edges);
	tcase_add_test(tc, lp_refutes_a_tight_core);
	tcase_add_test(tc, lp_refutes_only_the_infeasible);
	tcase_add_test(tc, lp_keeps_planted_solutions);
	tcase_add_test(tc, necessary_conditions_sound_and_used);
	tcase_set_timeout(tc, 0);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
