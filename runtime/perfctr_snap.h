/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr_snap.h - a count published on one CPU and read on any: a
 * latch (two copies and a sequence count; the writer fills one copy
 * while readers use the other), so a reader never waits for the writer,
 * and an NMI that interrupts the writer on its own CPU reads the copy
 * that is whole.  One writer at a time, which its users guarantee:
 * perfctr_sum() snapshots (perfctr_sum.c), .socket counters
 * (perfctr_socket.c).
 */
#ifndef PERFCTR_SNAP_H
#define PERFCTR_SNAP_H

/* A remote reader tries this often when the snapshot's writer keeps
 * writing under it (each try is a few loads); then the read fails. */
#define PERFCTR_SNAP_TRIES	64

enum {
	PERFCTR_SNAP_NONE,	/* never written: nothing counted there */
	PERFCTR_SNAP_LIVE,	/* the count (or error) when taken */
	PERFCTR_SNAP_FINAL,	/* a dead CPU's final count */
	PERFCTR_SNAP_IDLE,	/* a halted idle CPU's count, taken as it
				 * halted: it moves only when the CPU wakes */
};

struct perfctr_snap_copy {
	u64 val;
	u64 ns;		/* ktime_get_mono_fast_ns() when taken */
	int rc;		/* the read's error (val is 0), or 0 */
	int state;	/* PERFCTR_SNAP_* */
};

struct perfctr_snap {
	unsigned int seq;	/* odd: copy 1 is whole; even: copy 0 */
	struct perfctr_snap_copy c[2];
};

static inline void perfctr_snap_set(struct perfctr_snap_copy *c,
				    const struct perfctr_snap_copy *v,
				    bool first)
{
	WRITE_ONCE(c->val, v->val);
	if (first)
		PERFCTR_RACE(SUM_SNAP);
	WRITE_ONCE(c->ns, v->ns);
	WRITE_ONCE(c->rc, v->rc);
	WRITE_ONCE(c->state, v->state);
}

/* Publishes v in s.  s's only writer now; IRQs off. */
static inline void perfctr_snap_write(struct perfctr_snap *s,
				      const struct perfctr_snap_copy *v)
{
	unsigned int seq = s->seq;

	WRITE_ONCE(s->seq, seq + 1);	/* odd: readers take copy 1 */
	smp_wmb();
	perfctr_snap_set(&s->c[0], v, true);
	smp_wmb();
	WRITE_ONCE(s->seq, seq + 2);	/* even: copy 0, the new one */
	smp_wmb();
	perfctr_snap_set(&s->c[1], v, false);
}

/* s's latest whole copy, into v; false when it changed under every try.
 * Any context.  On s's writer's CPU (an NMI) it never changes under us. */
static inline bool perfctr_snap_read(const struct perfctr_snap *s,
				     struct perfctr_snap_copy *v)
{
	const struct perfctr_snap_copy *c;
	unsigned int seq, tries;

	for (tries = 0; tries < PERFCTR_SNAP_TRIES; tries++) {
		seq = READ_ONCE(s->seq);
		smp_rmb();
		c = &s->c[seq & 1];
		v->val = READ_ONCE(c->val);
		v->ns = READ_ONCE(c->ns);
		v->rc = READ_ONCE(c->rc);
		v->state = READ_ONCE(c->state);
		smp_rmb();
		if (READ_ONCE(s->seq) == seq)
			return true;
	}
	return false;
}

#endif /* PERFCTR_SNAP_H */
