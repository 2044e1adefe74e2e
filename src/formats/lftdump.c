// SPDX-License-Identifier: MIT
/*
 * LFT dumps: written as OpenSM writes opensm-lfts.dump, read from that
 * format and from ibroute's, which differ only in their decorations.
 */
#include <stdlib.h>
#include <string.h>

#include "routing/lft.h"
#include "formats/lftdump.h"
#include "formats/io.h"

/* Who owns each LID, for the comment OpenSM puts on every line. */
static void owner(const struct fors_lfts *t, const struct fors_topology *live,
		  const struct fors_fabric *fb, uint32_t lid, const char **type,
		  uint64_t *guid, const char **desc)
{
	uint32_t i;

	for (i = 0; i < t->nsw; i++) {
		if (t->sw_lid[i] != lid)
			continue;
		*type = "Switch";
		*guid = live->nodes[t->sw[i]].guid;
		*desc = live->nodes[t->sw[i]].desc;
		return;
	}
	for (i = 0; i < fb->nhosts; i++) {
		if (lid < t->host_lid[i] || lid >= t->host_lid[i] + (1u << t->lmc))
			continue;
		*type = "Channel Adapter";
		*guid = fb->hosts[i].guid;
		*desc = live->nodes[fb->hosts[i].node].desc;
		return;
	}
	for (i = 0; i < fb->nparts; i++) {
		const struct fors_node *n = &live->nodes[fb->parts[i].node];

		if (lid < t->part_lid[i] || lid >= t->part_lid[i] + (1u << t->lmc))
			continue;
		*type = "Channel Adapter";
		*guid = n->ports[fb->parts[i].port].guid;
		*desc = n->desc;
		return;
	}
	*type = NULL;
}

int fors_lfts_write(FILE *out, const struct fors_lfts *t,
		    const struct fors_topology *live,
		    const struct fors_fabric *fb)
{
	uint32_t s, lid;

	for (s = 0; s < t->nsw; s++) {
		const struct fors_node *n = &live->nodes[t->sw[s]];

		fprintf(out, "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx ('%s'):\n",
			t->maxlid, t->sw_lid[s], (unsigned long long)n->guid,
			n->desc);
		for (lid = 0; lid <= t->maxlid; lid++) {
			uint8_t p = fors_lft(t, s, lid);
			const char *type, *desc;
			uint64_t guid;

			if (p == FORS_NO_PORT)
				continue;
			fprintf(out, "0x%04x %03u # ", lid, p);
			owner(t, live, fb, lid, &type, &guid, &desc);
			if (type)
				fprintf(out, "%s portguid 0x%016llx: '%s'\n",
					type, (unsigned long long)guid, desc);
			else
				fprintf(out, "unknown node and type\n");
		}
		fprintf(out, "%u lids dumped\n", t->maxlid);
	}
	return ferror(out) ? FORS_EIO : FORS_OK;
}

int fors_lfts_dump(const struct fors_lfts *t, const struct fors_topology *live,
		   struct fors_lft_dump **out, struct fors_error *err)
{
	struct fors_lft_dump *d = calloc(1, sizeof(*d));
	size_t w = (size_t)t->maxlid + 1;
	int ok = d && (d->sw = calloc(t->nsw + 1, sizeof(*d->sw)));
	uint32_t s;

	*out = NULL;
	for (s = 0; ok && s < t->nsw; s++) {
		const struct fors_node *n = &live->nodes[t->sw[s]];
		struct fors_lft_switch *x = &d->sw[d->nsw++];

		x->guid = n->guid;
		x->lid = t->sw_lid[s];
		x->maxlid = t->maxlid;
		x->desc = strdup(n->desc);
		x->port = malloc(w);
		ok = x->desc && x->port;
		if (ok)
			memcpy(x->port, &t->port[s * w], w);
	}
	if (!ok) {
		fors_lft_dump_free(d);
		fors_error_set(err, "out of memory while copying the tables");
		return FORS_ENOMEM;
	}
	*out = d;
	return FORS_OK;
}

struct dump_reader {
	const char *name;
	unsigned long lineno;
	struct fors_lft_dump *d;
	uint32_t cap;
	struct fors_error *err;
};

static int bad(struct dump_reader *r, const char *what)
{
	fors_error_set(r->err, "%s:%lu: %s", r->name, r->lineno, what);
	return FORS_EFORMAT;
}

/*
 * The description in ('desc'): or (desc): after the GUID at s, from the
 * first '(' to the last ')': it may hold parentheses and quotes itself.
 */
static int header_desc(const char *s, const char **b, size_t *len)
{
	const char *e = strrchr(s, ')');

	*b = strchr(s, '(');
	if (!*b || !e || e < *b)
		return -1;
	(*b)++;
	if (e - *b >= 2 && **b == '\'' && e[-1] == '\'') {
		(*b)++;
		e--;
	}
	*len = (size_t)(e - *b);
	return 0;
}

static int header(struct dump_reader *r, const char *s)
{
	struct fors_lft_switch *sw;
	const char *c = strchr(s, '['), *g = strstr(s, " guid "), *l, *desc;
	uint64_t lo, hi, lid = 0, guid;
	size_t len;

	if (!c)
		return bad(r, "expected 'Unicast lids [first-last] of switch ...'");
	c++;
	if (parse_u64(&c, 0, &lo) || *c++ != '-' || parse_u64(&c, 0, &hi) ||
	    *c != ']' || hi > 0xffff)
		return bad(r, "expected the LID range '[first-last]'");
	if (!g)
		return bad(r, "expected 'guid 0x...' in the switch header");
	g += 6;
	if (parse_u64(&g, 0, &guid))
		return bad(r, "expected a GUID after 'guid'");
	if (header_desc(g, &desc, &len))
		return bad(r, "expected '(description)' after the GUID");
	l = strstr(s, " Lid ");
	if (l) {
		l += 5;
		if (parse_u64(&l, 0, &lid) || lid > 0xffff)
			return bad(r, "expected a LID after 'Lid'");
	}
	if (r->d->nsw == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 64;

		sw = realloc(r->d->sw, sizeof(*sw) * cap);
		if (!sw)
			return FORS_ENOMEM;
		r->d->sw = sw;
		r->cap = cap;
	}
	sw = &r->d->sw[r->d->nsw];
	memset(sw, 0, sizeof(*sw));
	r->d->nsw++;
	sw->guid = guid;
	sw->lid = (uint32_t)lid;
	sw->line = r->lineno;
	sw->maxlid = (uint32_t)hi;
	sw->desc = strndup(desc, len);
	sw->port = malloc(hi + 1);
	if (!sw->desc || !sw->port)
		return FORS_ENOMEM;
	memset(sw->port, 0xff, hi + 1);
	return 0;
}

static int entry(struct dump_reader *r, const char *s)
{
	struct fors_lft_switch *sw;
	uint64_t lid, port;

	if (!r->d->nsw)
		return bad(r, "LID entry before any switch header");
	sw = &r->d->sw[r->d->nsw - 1];
	if (parse_u64(&s, 0, &lid) || (*s != ' ' && *s != '\t'))
		return bad(r, "expected '0xLID PORT'");
	s += strspn(s, " \t");
	if (parse_u64(&s, 0, &port) || port > 254)
		return bad(r, "expected a port number 0..254 after the LID");
	if (lid > sw->maxlid)
		return bad(r, "LID beyond the range of the switch header");
	sw->port[lid] = (uint8_t)port;
	return 0;
}

void fors_lft_dump_free(struct fors_lft_dump *d)
{
	uint32_t i;

	if (!d)
		return;
	for (i = 0; i < d->nsw; i++) {
		free(d->sw[i].desc);
		free(d->sw[i].port);
	}
	free(d->sw);
	free(d);
}

int fors_lft_dump_read(FILE *in, const char *name, struct fors_lft_dump **out,
		       struct fors_error *err)
{
	struct dump_reader r = { .name = name, .err = err };
	char *buf = NULL;
	size_t cap = 0;
	int e = 0;

	*out = NULL;
	r.d = calloc(1, sizeof(*r.d));
	if (!r.d)
		e = FORS_ENOMEM;
	while (!e && getline(&buf, &cap, in) >= 0) {
		const char *s = buf + strspn(buf, " \t");

		r.lineno++;
		buf[strcspn(buf, "\r\n")] = '\0';
		if (!strncmp(s, "Unicast lids", 12))
			e = header(&r, s);
		else if (s[0] == '0' && s[1] == 'x')
			e = entry(&r, s);
	}
	free(buf);
	if (!e && r.d->nsw == 0) {
		fors_error_set(err, "%s: no switch tables found", name);
		e = FORS_EFORMAT;
	}
	if (e == FORS_ENOMEM)
		fors_error_set(err, "%s:%lu: out of memory", name, r.lineno);
	if (e) {
		fors_lft_dump_free(r.d);
		return e;
	}
	*out = r.d;
	return 0;
}

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	return fors_lft_dump_read(in, name, out, err);
}

int fors_lft_dump_read_file(const char *path, struct fors_lft_dump **out,
			    struct fors_error *err)
{
	*out = NULL;
	return read_path(path, read_cb, out, err);
}
