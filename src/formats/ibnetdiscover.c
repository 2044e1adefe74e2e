// SPDX-License-Identifier: MIT
/*
 * The topology text of ibnetdiscover and of ibsim net files, read and
 * written:
 *
 *   sysimgguid=0x200001                       (optional, before a node)
 *   switchguid=0x200001(200001)               (or caguid=0x...)
 *   Switch  8 "S-0000000000200001"  # "L1" base port 0 lid 3 lmc 0
 *   [1]  "H-0000000000100004"[1](100005)  # "H2" lid 7 4xSDR
 *   Ca  1 "H-0000000000100004"  # "H2"
 *   [1](100005)  "S-0000000000200001"[1]  # lid 7 lmc 0 "L1" lid 3 4xSDR
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/topology.h"
#include "formats/ibnetdiscover.h"
#include "formats/io.h"
#include "routing/lft.h"
#include "sys/atomic.h"

struct topo_parser {
	const char *name;
	unsigned long lineno;
	struct fors_topology *t;
	uint32_t cap;
	char ***peer_id;	/* per node, per port: peer id until resolved */
	uint32_t cur;		/* node the port lines belong to */
	uint64_t guid, sysguid;	/* from the lines before a node header */
	const char *other;	/* another format a skipped line is in, or NULL */
	unsigned long other_line;
	struct fors_error *err;
};

static int bad(struct topo_parser *p, const char *what)
{
	fors_error_set(p->err, "%s:%lu: %s", p->name, p->lineno, what);
	return FORS_EFORMAT;
}

static const char *skip_ws(const char *s)
{
	return s + strspn(s, " \t");
}

/* A double-quoted string; *s moves past it. NULL if there is none. */
static char *quoted(const char **s)
{
	const char *b = skip_ws(*s), *e;
	char *r;

	if (*b != '"')
		return NULL;
	e = strchr(b + 1, '"');
	if (!e)
		return NULL;
	r = strndup(b + 1, (size_t)(e - b - 1));
	*s = e + 1;
	return r;
}

static int hex_guid(const char *s, uint64_t *v)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	return parse_u64(&s, 16, v);
}

/*
 * "lid N" after position s (in a comment), 0 when absent; the "lmc L"
 * right after it into *lmc (FORS_NO_LMC when absent), when lmc is given.
 */
static uint32_t lid_after(const char *s, uint8_t *lmc)
{
	const char *l = strstr(s, " lid ");
	uint64_t v, m;

	if (!l)
		return 0;
	l += 5;
	if (parse_u64(&l, 10, &v) || v > 0xffff)
		return 0;
	if (lmc && !strncmp(l, " lmc ", 5)) {
		l += 5;
		if (!parse_u64(&l, 10, &m) && m <= 7)
			*lmc = (uint8_t)m;
	}
	return (uint32_t)v;
}

static int grow(struct topo_parser *p)
{
	struct fors_node *n;
	char ***ids;
	uint32_t cap = p->cap ? 2 * p->cap : 64;

	n = realloc(p->t->nodes, sizeof(*n) * cap);
	if (!n)
		return FORS_ENOMEM;
	p->t->nodes = n;
	ids = realloc(p->peer_id, sizeof(*ids) * cap);
	if (!ids)
		return FORS_ENOMEM;
	p->peer_id = ids;
	p->cap = cap;
	return 0;
}

static int node_header(struct topo_parser *p, const char *s,
		       enum fors_node_type type)
{
	struct fors_node *n;
	uint64_t ports;
	const char *c;
	uint32_t i;

	s = skip_ws(s);
	if (parse_u64(&s, 10, &ports) || ports < 1 || ports > 254)
		return bad(p, "expected a port count of 1..254 after the node type");
	if (p->t->nnodes == p->cap && grow(p))
		return FORS_ENOMEM;
	n = &p->t->nodes[p->t->nnodes];
	memset(n, 0, sizeof(*n));
	p->peer_id[p->t->nnodes] = NULL;
	n->id = quoted(&s);
	if (!n->id)
		return bad(p, "expected a quoted node id after the port count");
	n->type = type;
	n->nports = (uint32_t)ports;
	n->line = p->lineno;
	n->guid = p->guid;
	n->sysguid = p->sysguid;
	p->guid = p->sysguid = 0;
	if (!n->guid && (n->id[0] == 'S' || n->id[0] == 'H') &&
	    n->id[1] == '-' && strlen(n->id) == 18)
		hex_guid(n->id + 2, &n->guid);
	c = strchr(s, '#');
	if (c) {
		c++;
		n->desc = quoted(&c);
		n->lid = type == FORS_SWITCH ? lid_after(c, NULL) : 0;
	}
	if (!n->desc)
		n->desc = strdup(n->id);
	n->ports = calloc(ports + 1, sizeof(*n->ports));
	p->peer_id[p->t->nnodes] = calloc(ports + 1, sizeof(char *));
	p->t->nnodes++;
	if (!n->desc || !n->ports || !p->peer_id[p->t->nnodes - 1])
		return FORS_ENOMEM;
	for (i = 0; i <= ports; i++) {
		n->ports[i].peer = FORS_NO_PEER;
		n->ports[i].lmc = FORS_NO_LMC;
	}
	p->cur = p->t->nnodes - 1;
	return 0;
}

/* "[p]" with an optional "[ext N]"; then an optional "(guid)". */
static int port_ref(const char **s, uint64_t *port, uint64_t *guid)
{
	const char *c = *s;

	if (*c != '[')
		return -1;
	c++;
	if (parse_u64(&c, 10, port) || *c != ']')
		return -1;
	c++;
	if (!strncmp(c, "[ext ", 5)) {
		c = strchr(c, ']');
		if (!c)
			return -1;
		c++;
	}
	*guid = 0;
	if (*c == '(') {
		c++;
		if (parse_u64(&c, 16, guid) || *c != ')')
			return -1;
		c++;
	}
	*s = c;
	return 0;
}

static int port_line(struct topo_parser *p, const char *s)
{
	struct fors_node *n;
	uint64_t port, pport, guid, pguid;
	char *peer;

	if (p->cur == FORS_NO_PEER)
		return bad(p, "port line before any node");
	n = &p->t->nodes[p->cur];
	if (port_ref(&s, &port, &guid) || port < 1 || port > n->nports)
		return bad(p, "expected '[port]' with a port of the node");
	peer = quoted(&s);
	if (!peer)
		return bad(p, "expected the quoted id of the peer node");
	if (p->peer_id[p->cur][port]) {
		free(peer);
		return bad(p, "port listed twice");
	}
	p->peer_id[p->cur][port] = peer;
	if (port_ref(&s, &pport, &pguid) || pport < 1 || pport > 254)
		return bad(p, "expected '[port]' of the peer node");
	n->ports[port].peer_port = (uint32_t)pport;
	if (n->type == FORS_CA) {
		n->ports[port].guid = guid;
		s = strchr(s, '#');
		if (s)
			n->ports[port].lid = lid_after(s, &n->ports[port].lmc);
	}
	return 0;
}

static int starts(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && (s[n] == ' ' || s[n] == '\t');
}

static int guid_line(struct topo_parser *p, const char *s, uint64_t *v)
{
	if (hex_guid(strchr(s, '=') + 1, v))
		return bad(p, "expected a hexadecimal GUID after '='");
	return 0;
}

/*
 * Formats that look like topologies but are not this one: a file of
 * nothing but their lines gets a message that names the format, not "no
 * nodes". The name of the format, or NULL.
 */
static const char *other_format(const char *s)
{
	if ((starts(s, "CA") || starts(s, "SW") || starts(s, "RT")) &&
	    strstr(s, " 0x") && strstr(s, " - "))
		return "ibnetdiscover -p (one line per port)";
	if (!strncmp(s, "{ ", 2) && strstr(s, "Ports:"))
		return "ibdiagnet's or ibutils' subnet.lst";
	return NULL;
}

static int line(struct topo_parser *p, const char *s)
{
	s = skip_ws(s);
	if (!*s || *s == '#')
		return 0;
	if (starts(s, "Switch"))
		return node_header(p, s + 6, FORS_SWITCH);
	if (starts(s, "Ca") || starts(s, "Hca"))
		return node_header(p, s + (s[0] == 'H' ? 3 : 2), FORS_CA);
	if (starts(s, "Rt"))
		return bad(p, "routers are not supported in a fat tree");
	if (starts(s, "include"))
		return bad(p, "'include' is not supported: give one file");
	if (*s == '[')
		return port_line(p, s);
	if (!strncmp(s, "sysimgguid=", 11))
		return guid_line(p, s, &p->sysguid);
	if (!strncmp(s, "switchguid=", 11) || !strncmp(s, "caguid=", 7))
		return guid_line(p, s, &p->guid);
	if (!p->other && (p->other = other_format(s)))
		p->other_line = p->lineno;
	return 0;
}

static int cmp_id(const void *a, const void *b, void *t)
{
	const struct fors_node *n = ((struct fors_topology *)t)->nodes;

	return strcmp(n[*(const uint32_t *)a].id, n[*(const uint32_t *)b].id);
}

static uint32_t find(const struct fors_topology *t, const uint32_t *ord,
		     const char *id)
{
	uint32_t lo = 0, hi = t->nnodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(t->nodes[ord[mid]].id, id);

		if (!c)
			return ord[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return FORS_NO_PEER;
}

static int link_error(struct topo_parser *p, const struct fors_node *n,
		      uint32_t port, const char *what)
{
	fors_error_set(p->err, "%s:%lu: node \"%s\" port %u: %s", p->name,
		       n->line, n->id, port, what);
	return FORS_EFORMAT;
}

/* Peer ids to indices; each link end must agree with the other. */
static int resolve(struct topo_parser *p, const uint32_t *ord)
{
	struct fors_topology *t = p->t;
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++) {
		struct fors_node *n = &t->nodes[i];

		for (k = 1; k <= n->nports; k++) {
			uint32_t j, q = n->ports[k].peer_port;
			struct fors_port *o;

			if (!p->peer_id[i][k])
				continue;
			j = find(t, ord, p->peer_id[i][k]);
			if (j == FORS_NO_PEER)
				return link_error(p, n, k, "peer node is not declared");
			if (q > t->nodes[j].nports)
				return link_error(p, n, k, "peer port does not exist");
			o = &t->nodes[j].ports[q];
			if (p->peer_id[j][q] && (find(t, ord, p->peer_id[j][q]) != i ||
						 o->peer_port != k))
				return link_error(p, n, k, "the peer port lists another link");
			/* a peer port that lists no link is claimed only once */
			if (o->peer != FORS_NO_PEER &&
			    (o->peer != i || o->peer_port != k))
				return link_error(p, n, k, "another port links to the same peer port");
			n->ports[k].peer = j;
			o->peer = i;
			o->peer_port = k;
		}
	}
	return 0;
}

static int finish(struct topo_parser *p)
{
	struct fors_topology *t = p->t;
	uint32_t *ord = malloc(sizeof(uint32_t) * (t->nnodes + 1)), i;
	int r = 0;

	if (!ord)
		return FORS_ENOMEM;
	for (i = 0; i < t->nnodes; i++)
		ord[i] = i;
	qsort_r(ord, t->nnodes, sizeof(*ord), cmp_id, t);
	for (i = 1; i < t->nnodes && !r; i++) {
		if (strcmp(t->nodes[ord[i]].id, t->nodes[ord[i - 1]].id))
			continue;
		p->lineno = t->nodes[ord[i]].line > t->nodes[ord[i - 1]].line ?
			    t->nodes[ord[i]].line : t->nodes[ord[i - 1]].line;
		r = bad(p, "node id declared twice");
	}
	if (!r)
		r = resolve(p, ord);
	free(ord);
	return r;
}

static void free_peer_ids(struct topo_parser *p)
{
	uint32_t i, k;

	for (i = 0; i < p->t->nnodes; i++) {
		for (k = 0; p->peer_id[i] && k <= p->t->nodes[i].nports; k++)
			free(p->peer_id[i][k]);
		free(p->peer_id[i]);
	}
	free(p->peer_id);
}

int fors_topology_read(FILE *in, const char *name,
		       struct fors_topology **out, struct fors_error *err)
{
	struct topo_parser p = { .name = name, .cur = FORS_NO_PEER, .err = err };
	char *buf = NULL;
	size_t cap = 0;
	int r = 0;

	*out = NULL;
	p.t = calloc(1, sizeof(*p.t));
	if (!p.t)
		r = FORS_ENOMEM;
	while (!r && getline(&buf, &cap, in) >= 0) {
		p.lineno++;
		buf[strcspn(buf, "\r\n")] = '\0';
		r = line(&p, buf);
	}
	free(buf);
	if (!r && ferror(in)) {
		fors_error_set(err, "%s: read error", name);
		r = FORS_EIO;
	}
	if (!r && p.t->nnodes == 0) {
		if (p.other)
			fors_error_set(err, "%s:%lu: this is %s output; fors reads the topology ibnetdiscover prints without options, or an ibsim net file",
				       name, p.other_line, p.other);
		else
			fors_error_set(err, "%s: no nodes in the topology", name);
		r = FORS_EFORMAT;
	}
	if (!r)
		r = finish(&p);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "%s:%lu: out of memory", name, p.lineno);
	if (p.t)
		free_peer_ids(&p);
	if (r) {
		fors_topology_free(p.t);
		return r;
	}
	*out = p.t;
	return 0;
}

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	return fors_topology_read(in, name, out, err);
}

int fors_topology_read_file(const char *path, struct fors_topology **out,
			    struct fors_error *err)
{
	*out = NULL;
	return read_path(path, read_cb, out, err);
}

static void write_guids(FILE *out, const struct fors_node *n)
{
	if (n->sysguid)
		fprintf(out, "sysimgguid=0x%" PRIx64 "\n", n->sysguid);
	if (n->guid)
		fprintf(out, "%s=0x%" PRIx64 "\n",
			n->type == FORS_SWITCH ? "switchguid" : "caguid",
			n->guid);
}

static void write_port(FILE *out, const struct fors_topology *t,
		       const struct fors_node *n, uint32_t k)
{
	const struct fors_port *p = &n->ports[k];
	const struct fors_node *o = &t->nodes[p->peer];

	fprintf(out, "[%u]", k);
	if (p->guid)
		fprintf(out, "(%" PRIx64 ")", p->guid);
	fprintf(out, "\t\"%s\"[%u]\t\t# \"%s\"", o->id, p->peer_port, o->desc);
	if (n->type == FORS_CA && p->lid)
		fprintf(out, " lid %u", p->lid);
	if (n->type == FORS_CA && p->lid && p->lmc != FORS_NO_LMC)
		fprintf(out, " lmc %u", p->lmc);
	fputc('\n', out);
}

int fors_topology_write(FILE *out, const struct fors_topology *t)
{
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *n = &t->nodes[i];

		write_guids(out, n);
		fprintf(out, "%s\t%u \"%s\"\t\t# \"%s\"",
			n->type == FORS_SWITCH ? "Switch" : "Ca", n->nports,
			n->id, n->desc);
		if (n->type == FORS_SWITCH && n->lid)
			fprintf(out, " base port 0 lid %u", n->lid);
		fputc('\n', out);
		for (k = 1; k <= n->nports; k++)
			if (n->ports[k].peer != FORS_NO_PEER)
				write_port(out, t, n, k);
		fputc('\n', out);
	}
	return ferror(out) ? FORS_EIO : 0;
}

static int write_cb(FILE *out, const void *t)
{
	return fors_topology_write(out, t);
}

int fors_topology_write_file(const char *path, const struct fors_topology *t,
			     struct fors_error *err)
{
	return fors_write_atomic(path, write_cb, t, err);
}

/* A CA port's LID and LMC as the routing gave them. */
static void give_lid(struct fors_topology *t, uint32_t node, uint32_t port,
		     uint32_t lid, uint32_t lmc)
{
	t->nodes[node].ports[port].lid = lid;
	t->nodes[node].ports[port].lmc = (uint8_t)lmc;
}

void fors_topology_routed_lids(struct fors_topology *t,
			       const struct fors_fabric *fb,
			       const struct fors_lfts *l)
{
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++) {
		t->nodes[i].lid = 0;
		for (k = 0; k <= t->nodes[i].nports; k++) {
			t->nodes[i].ports[k].lid = 0;
			t->nodes[i].ports[k].lmc = FORS_NO_LMC;
		}
	}
	for (i = 0; i < fb->nhosts; i++)
		give_lid(t, fb->hosts[i].node, fb->hosts[i].port,
			 l->host_lid[i], l->lmc);
	for (i = 0; i < fb->nparts; i++)
		give_lid(t, fb->parts[i].node, fb->parts[i].port,
			 l->part_lid[i], l->lmc);
	for (i = 0; i < l->nsw; i++)
		t->nodes[l->sw[i]].lid = l->sw_lid[i];
}
