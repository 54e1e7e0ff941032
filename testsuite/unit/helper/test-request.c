/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-request.c - perfctr_req values (format, strict parse, hostile
 * bytes), the table hash, and perfctr_assign records.
 */
#include <errno.h>
#include <limits.h>
#include "libperfctr.h"
#include "tap.h"

static struct perfctr_request req(unsigned int idx, const char *id,
				  const char *event, unsigned int plm,
				  const char *src)
{
	struct perfctr_request r;

	memset(&r, 0, sizeof(r));
	r.idx = idx;
	snprintf(r.id, sizeof(r.id), "%s", id);
	snprintf(r.event, sizeof(r.event), "%s", event);
	r.plm = plm;
	snprintf(r.src, sizeof(r.src), "%s", src);
	return r;
}

static int same(const struct perfctr_request *a, const struct perfctr_request *b)
{
	return a->idx == b->idx && a->plm == b->plm && a->gh == b->gh &&
	       a->mux == b->mux && !strcmp(a->group, b->group) &&
	       a->sample == b->sample && a->payload == b->payload &&
	       !strcmp(a->id, b->id) &&
	       !strcmp(a->event, b->event) && !strcmp(a->src, b->src) &&
	       !strcmp(a->cpus, b->cpus);
}

static void formats(void)
{
	static const struct {
		struct perfctr_request r;
		const char *want;
	} cases[] = {
		{ { 0, "c", "cycles", PERFCTR_PLM_ALL, "x.stp:3:22" },
		  "idx=0;id=c;event=cycles;plm=uk;src=x.stp:3:22" },
		{ { 17, "l3", "cpu/event=0xd1,umask=0x20/u", PERFCTR_PLM_USER,
		    "/tmp/my script.stp:1:2" },
		  "idx=17;id=l3;event=cpu/event%3D0xd1,umask%3D0x20/u;plm=u;"
		  "src=/tmp/my%20script.stp:1:2" },
		{ { 1, "a;b=c%d", "x\"\\\n\x01\xff", PERFCTR_PLM_KERNEL, "" },
		  "idx=1;id=a%3Bb%3Dc%25d;event=x%22%5C%0A%01%FF;plm=k;src=" },
		{ { 4294967295u, "A-z_0.9:/,+", "icl::INST_RETIRED:ANY_P",
		    PERFCTR_PLM_ALL, "s" },
		  "idx=4294967295;id=A-z_0.9:/,+;event=icl::INST_RETIRED:ANY_P;plm=uk;src=s" },
		{ { 2, "m", "cycles", PERFCTR_PLM_ALL, "s", 1 },
		  "idx=2;id=m;event=cycles;plm=uk;src=s;mux=1" },
		{ { 3, "g", "cycles:uH", PERFCTR_PLM_USER, "s",
		    .gh = PERFCTR_GH_HOST },
		  "idx=3;id=g;event=cycles:uH;plm=u;src=s;gh=h" },
		{ { 4, "i", "instructions", PERFCTR_PLM_ALL, "s", 1,
		    .group = "ipc" },
		  "idx=4;id=i;event=instructions;plm=uk;src=s;mux=1;group=ipc" },
		{ { 5, "a", "cpu_atom/event=0xc0/", PERFCTR_PLM_ALL, "s",
		    .scope = PERFCTR_SCOPE_THREAD, .cpus = "cpu_atom" },
		  "idx=5;id=a;event=cpu_atom/event%3D0xc0/;plm=uk;src=s;scope=1;"
		  "cpus=cpu_atom" },
		{ { 6, "b", "cycles", PERFCTR_PLM_ALL, "s", .cpus = "0-3,8" },
		  "idx=6;id=b;event=cycles;plm=uk;src=s;cpus=0-3,8" },
		{ { 5, "__sample5", "mem-loads", PERFCTR_PLM_USER, "s",
		    .sample = 1000, .precise = 2, .payload = 0x1c },
		  "idx=5;id=__sample5;event=mem-loads;plm=u;src=s;sample=1000;"
		  "precise=2;payload=28" },
	};
	struct perfctr_request back;
	char buf[PERFCTR_REQ_FMT_MAX];
	size_t i;
	int n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = perfctr_request__format(&cases[i].r, buf, sizeof(buf));
		is_str(buf, cases[i].want, "format %zu", i);
		is_int(n, strlen(cases[i].want), "format %zu: length", i);
		is_int(perfctr_request__parse(buf, &back), 0, "parse %zu", i);
		ok(same(&back, &cases[i].r), "parse %zu: round trip", i);
	}
}

static int count(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* Every byte but NUL, and strings at their longest. */
static void hostile_round_trip(void)
{
	struct perfctr_request r, back;
	char buf[PERFCTR_REQ_FMT_MAX];
	int i, n;

	memset(&r, 0, sizeof(r));
	for (i = 1; i < 256; i++)
		r.event[i - 1] = i;
	memset(r.id, '%', sizeof(r.id) - 1);
	memset(r.src, 0xff, sizeof(r.src) - 1);
	memset(r.cpus, '%', sizeof(r.cpus) - 1);
	r.plm = PERFCTR_PLM_USER;
	r.idx = 3;
	n = perfctr_request__format(&r, buf, sizeof(buf));
	ok(n > 0 && n < (int)PERFCTR_REQ_FMT_MAX,
	   "longest request fits PERFCTR_REQ_FMT_MAX (%d)", n);
	ok(count(buf, '=') == 6 && count(buf, ';') == 5 && !strpbrk(buf, " \n\x7f"),
	   "separators only between fields, no raw blanks");
	is_int(perfctr_request__parse(buf, &back), 0, "parse every byte 1..255");
	ok(same(&r, &back), "every byte survives the round trip");
}

/* Every field present, every string at its longest and every byte of
 * it escaped (three bytes each): the largest request there is, which
 * PERFCTR_REQ_FMT_MAX (the translator's and the hash's buffer) holds. */
static void longest_request(void)
{
	struct perfctr_request r, back;
	char buf[PERFCTR_REQ_FMT_MAX];
	int n;

	memset(&r, 0, sizeof(r));
	memset(r.id, '%', sizeof(r.id) - 1);
	memset(r.event, '%', sizeof(r.event) - 1);
	memset(r.src, 0xff, sizeof(r.src) - 1);
	memset(r.target, 0xc3, sizeof(r.target) - 1);
	memset(r.group, '%', sizeof(r.group) - 1);
	memset(r.cpus, '%', sizeof(r.cpus) - 1);
	/* the format checks no number's range: each at its widest */
	r.idx = r.sample = r.hz = r.payload = 4294967295u;
	r.mux = r.scope = r.precise = 4294967295u;
	r.plm = PERFCTR_PLM_ALL;
	r.gh = PERFCTR_GH_GUEST | PERFCTR_GH_HOST;
	n = perfctr_request__format(&r, buf, sizeof(buf));
	is_int(n, (int)PERFCTR_REQ_FMT_MAX - 1, "every field at its longest, "
	       "escaped, fills PERFCTR_REQ_FMT_MAX exactly (the bound the "
	       "interface computes is the longest value and its NUL)");
	is_int(perfctr_request__parse(buf, &back), 0, "and parses back");
	ok(same(&r, &back), "unchanged");
}

/* mux is optional: left out at 0, read as 0 when absent, still strict
 * about order and separators. */
static void optional_fields(void)
{
	struct perfctr_request r;

	is_int(perfctr_request__parse("idx=0;id=c;event=e;plm=u;src=s", &r),
	       0, "absent mux reads");
	is_int(r.mux, 0, "  as 0");
	is_int(perfctr_request__parse("idx=0;id=c;event=e;plm=u;src=s;mux=7",
				      &r), 0, "mux=7 reads");
	is_int(r.mux, 7, "  as 7");
	ok(perfctr_request__parse("idx=0;id=c;event=e;mux=1;plm=u;src=s", &r),
	   "mux out of order is refused");
	ok(perfctr_request__parse("idx=0;id=c;event=e;plm=u;src=s;", &r),
	   "a trailing ';' is refused");
	ok(perfctr_request__parse("idx=0;id=c;event=e;plm=u;src=s;mux=", &r),
	   "an empty mux is refused");
}

/* gh, the name's :G/:H: optional, its two letters in order. */
static void guest_host(void)
{
	static const struct {
		const char *gh;
		int ret;
		unsigned int want;
	} cases[] = {
		{ "", 0, 0 },
		{ ";gh=g", 0, PERFCTR_GH_GUEST },
		{ ";gh=h", 0, PERFCTR_GH_HOST },
		{ ";gh=gh", 0, PERFCTR_GH_GUEST | PERFCTR_GH_HOST },
		{ ";gh=hg", -EINVAL, 0 },
		{ ";gh=", -EINVAL, 0 },
		{ ";gh=G", -EINVAL, 0 },
		{ ";gh=ggh", -EINVAL, 0 },
	};
	struct perfctr_request r;
	char buf[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(buf, sizeof(buf), "idx=0;id=c;event=e;plm=u;src=s%s",
			 cases[i].gh);
		is_int(perfctr_request__parse(buf, &r), cases[i].ret, "%s", buf);
		if (!cases[i].ret)
			is_int(r.gh, cases[i].want, "  gh %u", cases[i].want);
	}
}

static void format_errors(void)
{
	struct perfctr_request r = req(0, "c", "cycles", PERFCTR_PLM_ALL, "x:1:1");
	char buf[64];
	int n;

	n = perfctr_request__format(&r, buf, sizeof(buf));
	is_int(perfctr_request__format(&r, buf, n + 1), n, "fits in exactly len + 1");
	is_int(perfctr_request__format(&r, buf, n), -ENOSPC, "one byte short: -ENOSPC");
	r.plm = 0;
	is_int(perfctr_request__format(&r, buf, sizeof(buf)), -EINVAL, "plm 0: -EINVAL");
	r.plm = PERFCTR_PLM_HV;
	is_int(perfctr_request__format(&r, buf, sizeof(buf)), -EINVAL, "plm hv: -EINVAL");
	r.plm = PERFCTR_PLM_ALL;
	r.gh = 4;
	is_int(perfctr_request__format(&r, buf, sizeof(buf)), -EINVAL, "gh 4: -EINVAL");
	r = req(0, "", "cycles", PERFCTR_PLM_ALL, "x");
	is_int(perfctr_request__format(&r, buf, sizeof(buf)), -EINVAL, "empty id: -EINVAL");
	r = req(0, "c", "", PERFCTR_PLM_ALL, "x");
	is_int(perfctr_request__format(&r, buf, sizeof(buf)), -EINVAL, "empty event: -EINVAL");
}

static void parse_errors(void)
{
	static const char *const bad[] = {
		"",
		"idx=0;id=c;event=cycles;plm=uk",
		"idx=0;id=c;event=cycles;plm=uk;src=a;x=1",
		"idx=0;id=c;event=cycles;plm=uk;src=a;",
		"id=c;idx=0;event=cycles;plm=uk;src=a",
		"idx=00;id=c;event=cycles;plm=uk;src=a",
		"idx=4294967296;id=c;event=cycles;plm=uk;src=a",
		"idx=-1;id=c;event=cycles;plm=uk;src=a",
		"idx=;id=c;event=cycles;plm=uk;src=a",
		"idx=0;id=;event=cycles;plm=uk;src=a",
		"idx=0;id=c;event=;plm=uk;src=a",
		"idx=0;id=c;event=cycles;plm=ku;src=a",
		"idx=0;id=c;event=cycles;plm=;src=a",
		"idx=0;id=c;event=cycles;plm=h;src=a",
		"idx=0;id=%G1;event=cycles;plm=uk;src=a",
		"idx=0;id=c;event=cycles;plm=uk;src=a%4",
		"idx=0;id=c;event=cycles;plm=uk;src=a%",
		"idx=0;id=c%00d;event=cycles;plm=uk;src=a",
		"idx=0;id=a b;event=cycles;plm=uk;src=a",
		"idx=0;id=a=b;event=cycles;plm=uk;src=a",
		"idx=0;id=c;event=cy\"cles;plm=uk;src=a",
		"idx=0;id=0123456789012345678901234567890123456789012345678901234567890123;"
		"event=cycles;plm=uk;src=a",
		"IDX=0;id=c;event=cycles;plm=uk;src=a",
		"idx=0;id=c;event=cycles;plm=uk;src=a\n",
	};
	struct perfctr_request r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(perfctr_request__parse(bad[i], &r), -EINVAL,
		       "refused: \"%.*s\"", (int)strcspn(bad[i], "\n"), bad[i]);
	is_int(perfctr_request__parse("idx=0;id=%3d;event=cycles;plm=uk;src=", &r),
	       0, "lowercase escapes are read");
	is_str(r.id, "=", "and decoded");
}

/* FNV-1a 64, written out here as the spec says, for the oracle. */
static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
	while (n--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static void hashes(void)
{
	struct perfctr_request r[2] = {
		req(0, "c", "cycles", PERFCTR_PLM_ALL, "x.stp:3:22"),
		req(1, "i", "instructions", PERFCTR_PLM_USER, "x.stp:4:22"),
	};
	char hex[17], want[17], buf[PERFCTR_REQ_FMT_MAX];
	uint64_t h = 0xcbf29ce484222325ull;
	int i, n;

	/* Published FNV-1a 64 test vectors. */
	is_int(perfctr_hash__init(), 0xcbf29ce484222325ull, "FNV-1a offset basis");
	ok(perfctr_hash__add(perfctr_hash__init(), "a", 1) == 0xaf63dc4c8601ec8cull,
	   "FNV-1a(\"a\")");
	ok(perfctr_hash__add(perfctr_hash__init(), "foobar", 6) == 0x85944171f73967e8ull,
	   "FNV-1a(\"foobar\")");

	for (i = 0; i < 2; i++) {
		n = perfctr_request__format(&r[i], buf, sizeof(buf));
		h = fnv(h, buf, n + 1);
	}
	snprintf(want, sizeof(want), "%016llx", (unsigned long long)h);
	is_int(perfctr_table__hash(r, 2, hex), 0, "table hash");
	is_str(hex, want, "hash = FNV-1a over each value and its NUL");
	perfctr_table__hash(r + 1, 1, want);
	ok(strcmp(hex, want), "a different table, a different hash");
	is_int(perfctr_table__hash(r, 0, hex), 0, "empty table");
	is_str(hex, "cbf29ce484222325", "empty table: the offset basis");
	r[1].plm = 0;
	is_int(perfctr_table__hash(r, 2, hex), -EINVAL, "a bad request: -EINVAL");
	is_str(hex, "", "and no hash");
}

static void assigns(void)
{
	struct perfctr_encoding e1 = { 1, 1, 0, 0, 0 };
	struct perfctr_encoding e2 = { 4, 0x1000000c7, 3, ~0ull, 6 };
	struct perfctr_encoding max = { UINT32_MAX, ~0ull, ~0ull, ~0ull, UINT32_MAX };
	char buf[256] = "0123456789abcdef", small[24] = "0123456789abcdef";
	char unterminated[4] = { 'a', 'b', 'c', 'd' };

	is_int(perfctr_assign__append(buf, sizeof(buf), 0, &e1), 0, "append one");
	is_str(buf, "0123456789abcdef;0,1,1,0,0,0", "idx and type decimal, rest hex");
	is_int(perfctr_assign__append(buf, sizeof(buf), 7, &e2), 0, "append two");
	is_str(buf, "0123456789abcdef;0,1,1,0,0,0;7,4,1000000c7,3,ffffffffffffffff,6",
	       "no 0x, lowercase");
	buf[16] = '\0';
	perfctr_assign__append(buf, sizeof(buf), UINT_MAX, &max);
	ok(strlen(buf) - 16 <= PERFCTR_ASSIGN_REC_MAX,
	   "the longest record fits PERFCTR_ASSIGN_REC_MAX (%zu)", strlen(buf) - 16);
	is_int(perfctr_assign__append(small, sizeof(small), 7, &e2), -ENOSPC, "too small: -ENOSPC");
	is_str(small, "0123456789abcdef", "and the buffer is unchanged");
	is_int(perfctr_assign__append(unterminated, sizeof(unterminated), 0, &e1),
	       -EINVAL, "not a string: -EINVAL");
}

/* Each record at its longest (every number at its widest, every string
 * full) fits the interface's bound for it, and a module's assignment
 * with every record at its longest fits PERFCTR_ASSIGN_LEN, which sizes
 * the module's buffer. */
static void record_bounds(void)
{
	static char buf[PERFCTR_ASSIGN_LEN(2, 1, 1, 4)];
	struct perfctr_encoding max = { UINT32_MAX, ~0ull, ~0ull, ~0ull,
					UINT32_MAX };
	struct perfctr_core_enc core = { .enc = max };
	struct perfctr_unit u = { .mult = ~0ull, .shift = UINT32_MAX };
	int cpus[4] = { INT_MAX, INT_MAX, INT_MAX, INT_MAX };
	size_t at;
	unsigned int i, k;

	memset(core.cpus, '9', sizeof(core.cpus) - 1);
	memset(u.unit, 'J', sizeof(u.unit) - 1);
	memset(buf, 'f', PERFCTR_ASSIGN_HASH_LEN);
	for (i = 0; i < 2; i++) {
		at = strlen(buf);
		is_int(perfctr_assign__append(buf, sizeof(buf), UINT_MAX, &max),
		       0, "a counter's record");
		is_int((int)(strlen(buf) - at), PERFCTR_ASSIGN_REC_MAX,
		       "its longest is PERFCTR_ASSIGN_REC_MAX");
		at = strlen(buf);
		is_int(perfctr_assign__append_unit(buf, sizeof(buf), UINT_MAX,
						   &u), 0, "its unit's");
		is_int((int)(strlen(buf) - at), PERFCTR_ASSIGN_UNIT_MAX,
		       "its longest is PERFCTR_ASSIGN_UNIT_MAX");
		for (k = 0; k < PERFCTR_CORE_PMUS; k++) {
			at = strlen(buf);
			is_int(perfctr_assign__append_cpu(buf, sizeof(buf),
							  UINT_MAX, &core), 0,
			       "CPU record %u", k);
			is_int((int)(strlen(buf) - at), PERFCTR_ASSIGN_CPU_MAX,
			       "its longest is PERFCTR_ASSIGN_CPU_MAX");
		}
	}
	at = strlen(buf);
	is_int(perfctr_assign__append_group(buf, sizeof(buf), UINT_MAX,
					    UINT_MAX, UINT_MAX), 0, "a group's");
	is_int((int)(strlen(buf) - at), PERFCTR_ASSIGN_GROUP_MAX,
	       "its longest is PERFCTR_ASSIGN_GROUP_MAX");
	at = strlen(buf);
	is_int(perfctr_assign__append_socket(buf, sizeof(buf), UINT_MAX, cpus,
					     4), 0, "a .socket counter's");
	is_int((int)(strlen(buf) - at), PERFCTR_ASSIGN_SOCKET_MAX(4),
	       "its longest is PERFCTR_ASSIGN_SOCKET_MAX");
	is_int((int)strlen(buf) + 1, (int)sizeof(buf), "all of them fill "
	       "PERFCTR_ASSIGN_LEN exactly, with the NUL");
}

int main(void)
{
	optional_fields();
	guest_host();
	formats();
	hostile_round_trip();
	longest_request();
	format_errors();
	parse_errors();
	hashes();
	assigns();
	record_bounds();
	return tap_done();
}
