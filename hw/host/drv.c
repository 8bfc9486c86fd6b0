// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define HEAP_BASE	0x100000000ull

uint64_t td_alloc(struct td *d, uint64_t size, uint64_t align)
{
	uint64_t a = (d->heap + align - 1) & ~(align - 1);

	d->heap = a + size;
	return a;
}

uint32_t td_enable(struct td *d)
{
	struct th *h = d->h;

	static const uint8_t zero[WREN_ACQ_ENTRY_SIZE];

	d->aq_pi = d->acq_ci = d->aeq_ci = 0;
	/* As a driver does: fresh rings, so no stale entry looks valid. */
	for (uint32_t i = 0; i < (1u << d->acq_log); i++)
		th_mem_write(h, d->acq + (uint64_t)i * sizeof(zero), zero,
			     sizeof(zero));
	for (uint32_t i = 0; i < (1u << d->aeq_log); i++)
		th_mem_write(h, d->aeq + (uint64_t)i * WREN_EQE_SIZE, zero,
			     WREN_EQE_SIZE);
	th_reg_write(h, WREN_REG_AQ_BASE_LO, (uint32_t)d->aq);
	th_reg_write(h, WREN_REG_AQ_BASE_HI, (uint32_t)(d->aq >> 32));
	th_reg_write(h, WREN_REG_AQ_LOG_SIZE, d->aq_log);
	th_reg_write(h, WREN_REG_ACQ_BASE_LO, (uint32_t)d->acq);
	th_reg_write(h, WREN_REG_ACQ_BASE_HI, (uint32_t)(d->acq >> 32));
	th_reg_write(h, WREN_REG_ACQ_LOG_SIZE, d->acq_log);
	th_reg_write(h, WREN_REG_AEQ_BASE_LO, (uint32_t)d->aeq);
	th_reg_write(h, WREN_REG_AEQ_BASE_HI, (uint32_t)(d->aeq >> 32));
	th_reg_write(h, WREN_REG_AEQ_LOG_SIZE, d->aeq_log);
	th_reg_write(h, WREN_REG_MGMT_VECTOR, d->mgmt_vector);
	th_reg_write(h, WREN_REG_CONTROL,
		     WREN_CONTROL_AQ_ENABLE | WREN_CONTROL_AEQ_ENABLE);
	return th_reg_read(h, WREN_REG_STATUS);
}

struct td *td_new(const struct wrenhw_config *cfg)
{
	struct td *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->h = th_create(cfg);
	if (!d->h) {
		free(d);
		return NULL;
	}
	d->heap = HEAP_BASE;
	d->aq_log = 6;
	d->acq_log = 6;
	d->aeq_log = 6;
	/* Room for rings of up to 2^8 entries: tests resize them. */
	d->aq = td_alloc(d, WREN_AQ_CMD_SIZE << 8, 4096);
	d->acq = td_alloc(d, WREN_ACQ_ENTRY_SIZE << 8, 4096);
	d->aeq = td_alloc(d, WREN_EQE_SIZE << 8, 4096);
	d->scratch_in = td_alloc(d, WREN_AQ_MAX_BUF_LEN, 4096);
	d->scratch_out = td_alloc(d, WREN_AQ_MAX_BUF_LEN, 4096);
	d->auto_ack = true;
	td_enable(d);
	return d;
}

void td_free(struct td *d)
{
	if (!d)
		return;
	th_destroy(d->h);
	free(d);
}

void td_queue(struct td *d, struct wren_aq_cmd *cmd)
{
	uint32_t slot = d->aq_pi & ((1u << d->aq_log) - 1);

	cmd->cmd_id = ++d->next_id;
	th_mem_write(d->h, d->aq + (uint64_t)slot * WREN_AQ_CMD_SIZE, cmd,
		     sizeof(*cmd));
	d->aq_pi = (d->aq_pi + 1) & WREN_INDEX_MASK;
}

void td_ring(struct td *d)
{
	th_reg_write(d->h, WREN_REG_AQ_PI, d->aq_pi);
	th_run(d->h);
}

bool td_poll(struct td *d, struct td_res *r)
{
	uint32_t slot = d->acq_ci & ((1u << d->acq_log) - 1);
	struct wren_acq_entry e;

	memset(r, 0, sizeof(*r));
	th_mem_read(d->h, d->acq + (uint64_t)slot * WREN_ACQ_ENTRY_SIZE, &e,
		    sizeof(e));
	if (!wren_ring_owned(e.owner, d->acq_ci, d->acq_log))
		return false;
	r->completed = true;
	r->status = e.status;
	r->synd = e.syndrome;
	r->out_len = e.out_len;
	r->result = e.result;
	r->result2 = e.result2;
	r->cmd_id = e.cmd_id;
	d->acq_ci = (d->acq_ci + 1) & WREN_INDEX_MASK;
	if (d->auto_ack) {
		th_reg_write(d->h, WREN_REG_ACQ_CI, d->acq_ci);
		th_run(d->h);
	}
	return true;
}

struct td_res td_submit(struct td *d, struct wren_aq_cmd *cmd)
{
	struct td_res r;

	td_queue(d, cmd);
	td_ring(d);
	if (!td_poll(d, &r))
		r.status = -1;
	return r;
}

struct td_res td_cmd(struct td *d, uint8_t op, const void *inl,
		     size_t inl_len, const void *in, uint32_t in_len,
		     void *out, uint32_t out_len)
{
	struct wren_aq_cmd cmd;
	struct td_res r;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = op;
	if (inl)
		memcpy(cmd.u.raw, inl, inl_len);
	if (in) {
		th_mem_write(d->h, d->scratch_in, in, in_len);
		cmd.in_addr = d->scratch_in;
		cmd.in_len = in_len;
	}
	if (out) {
		uint8_t zero[256] = { 0 };

		/* Poison-free: clear what the device may write. */
		for (uint32_t o = 0; o < out_len; o += sizeof(zero))
			th_mem_write(d->h, d->scratch_out + o, zero,
				     out_len - o < sizeof(zero) ?
				     out_len - o : sizeof(zero));
		cmd.out_addr = d->scratch_out;
		cmd.out_len = out_len;
	}
	r = td_submit(d, &cmd);
	if (out && r.completed)
		th_mem_read(d->h, d->scratch_out, out, out_len);
	return r;
}

struct td_res td_handle_cmd(struct td *d, uint8_t op, uint32_t handle,
			    void *out, uint32_t out_len)
{
	struct wren_aq_handle h = { .handle = handle };

	return td_cmd(d, op, &h, sizeof(h), NULL, 0, out, out_len);
}

bool td_aeq_poll(struct td *d, struct wren_eqe *e)
{
	uint32_t slot = d->aeq_ci & ((1u << d->aeq_log) - 1);

	th_mem_read(d->h, d->aeq + (uint64_t)slot * WREN_EQE_SIZE, e,
		    sizeof(*e));
	if (!wren_ring_owned(e->owner, d->aeq_ci, d->aeq_log))
		return false;
	d->aeq_ci = (d->aeq_ci + 1) & WREN_INDEX_MASK;
	th_reg_write(d->h, WREN_REG_AEQ_CI, d->aeq_ci);
	return true;
}

unsigned int td_aeq_count(struct td *d, uint8_t type)
{
	struct wren_eqe e;
	unsigned int n = 0;

	while (td_aeq_poll(d, &e))
		if (e.type == type)
			n++;
	return n;
}

int64_t td_handle(struct td_res r)
{
	if (!r.completed)
		return -255;
	return r.status ? -(int64_t)r.status : (int64_t)r.result;
}

int64_t td_create_eq(struct td *d, uint32_t log_size, uint16_t vector,
		     uint64_t *ring)
{
	struct wren_aq_create_eq c;

	memset(&c, 0, sizeof(c));
	c.ring.addr = td_alloc(d, (uint64_t)WREN_EQE_SIZE << log_size, 4096);
	c.ring.page_shift = 12;
	c.log_size = (uint8_t)log_size;
	c.msix_vector = vector;
	if (ring)
		*ring = c.ring.addr;
	return td_handle(td_cmd(d, WREN_AQ_OP_CREATE_EQ, &c, sizeof(c),
				 NULL, 0, NULL, 0));
}

int64_t td_alloc_pd(struct td *d)
{
	return td_handle(td_cmd(d, WREN_AQ_OP_ALLOC_PD, NULL, 0, NULL, 0,
				 NULL, 0));
}

int64_t td_alloc_uar(struct td *d)
{
	return td_handle(td_cmd(d, WREN_AQ_OP_ALLOC_UAR, NULL, 0, NULL, 0,
				 NULL, 0));
}

int64_t td_create_cq(struct td *d, uint32_t eqn, uint32_t uar,
		     uint8_t log_size)
{
	struct wren_create_cq_in in;

	memset(&in, 0, sizeof(in));
	in.ring.addr = td_alloc(d, (uint64_t)WREN_CQE_SIZE << log_size, 4096);
	in.ring.page_shift = 12;
	in.dbrec_addr = td_alloc(d, 8, 8);
	in.eqn = eqn;
	in.uar = uar;
	in.log_size = log_size;
	return td_handle(td_cmd(d, WREN_AQ_OP_CREATE_CQ, NULL, 0, &in,
				 sizeof(in), NULL, 0));
}

int64_t td_create_qp(struct td *d, uint8_t type, uint32_t pdn, uint32_t cqn,
		     uint32_t uar)
{
	struct wren_create_qp_in in;

	memset(&in, 0, sizeof(in));
	in.type = type;
	in.sq_wqe_shift = 6;
	in.rq_wqe_shift = 6;
	in.sq_log_size = 4;
	in.rq_log_size = 4;
	in.pdn = pdn;
	in.send_cqn = cqn;
	in.recv_cqn = cqn;
	in.uar = uar;
	in.rq_offset = 1u << (4 + 6);
	in.buf.addr = td_alloc(d, 2u << 10, 4096);
	in.buf.page_shift = 12;
	in.dbrec_addr = td_alloc(d, 8, 8);
	return td_handle(td_cmd(d, WREN_AQ_OP_CREATE_QP, NULL, 0, &in,
				 sizeof(in), NULL, 0));
}

int td_set_gid(struct td *d, uint32_t index)
{
	struct wren_set_gid_in g;
	struct td_res r;

	memset(&g, 0, sizeof(g));
	g.index = index;
	g.type = WREN_GID_ROCE_V2;
	g.gid[0] = 0xfe;
	g.gid[1] = 0x80;
	g.gid[15] = (uint8_t)index;
	g.mac[0] = 0x02;
	g.mac[5] = 0x01;
	r = td_cmd(d, WREN_AQ_OP_SET_GID, NULL, 0, &g, sizeof(g), NULL, 0);
	return r.completed ? r.status : -1;
}

uint64_t td_counter(struct td *d, uint8_t set, uint32_t index, unsigned int n)
{
	struct wren_aq_counters c;
	uint64_t out[256];	/* the priority set: 8 blocks */

	memset(&c, 0, sizeof(c));
	memset(out, 0, sizeof(out));
	c.set = set;
	c.index = index;
	td_cmd(d, WREN_AQ_OP_QUERY_COUNTERS, &c, sizeof(c), NULL, 0, out,
	       sizeof(out));
	return n < 256 ? out[n] : 0;
}
