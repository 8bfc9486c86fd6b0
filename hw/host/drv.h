/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The host stub's admin-queue driver: programs the AQ, ACQ and AEQ
 * through registers the way wren.ko does, submits admin commands and
 * reads completions and events out of host memory.
 */
#ifndef WRENHOST_DRV_H
#define WRENHOST_DRV_H

#include <linux/wren/wren_hw.h>

#include "host.h"

struct td {
	struct th *h;
	uint64_t aq, acq, aeq;
	uint32_t aq_log, acq_log, aeq_log;
	uint32_t aq_pi, acq_ci, aeq_ci;
	uint32_t mgmt_vector;	/* programmed by td_enable() */
	uint16_t next_id;
	uint64_t heap;
	uint64_t scratch_in, scratch_out;
	bool auto_ack;		/* write ACQ_CI after each completion */
};

struct td_res {
	bool completed;
	int status;
	uint32_t synd;
	uint32_t out_len;
	uint64_t result;
	uint32_t result2;
	uint16_t cmd_id;
};

/* Creates a host and model and enables AQ + AEQ; NULL on failure. */
struct td *td_new(const struct wrenhw_config *cfg);
void td_free(struct td *d);
/* (Re)programs and enables the AQ and AEQ; returns STATUS. */
uint32_t td_enable(struct td *d);
uint64_t td_alloc(struct td *d, uint64_t size, uint64_t align);

/* Writes a command into the AQ, rings, runs the model, reads the answer. */
struct td_res td_submit(struct td *d, struct wren_aq_cmd *cmd);
/* Writes a command without ringing (for batching tests). */
void td_queue(struct td *d, struct wren_aq_cmd *cmd);
void td_ring(struct td *d);
bool td_poll(struct td *d, struct td_res *r);

/*
 * One command: inline parameters (copied into cmd.u), an input buffer and
 * an output buffer (both may be NULL/0).
 */
struct td_res td_cmd(struct td *d, uint8_t op, const void *inl,
		     size_t inl_len, const void *in, uint32_t in_len,
		     void *out, uint32_t out_len);
/* Inline-handle commands (destroy, query ...). */
struct td_res td_handle_cmd(struct td *d, uint8_t op, uint32_t handle,
			    void *out, uint32_t out_len);

bool td_aeq_poll(struct td *d, struct wren_eqe *e);
/* Counter @n of counter set @set (index @index), QUERY_COUNTERS; 0 if none. */
uint64_t td_counter(struct td *d, uint8_t set, uint32_t index, unsigned int n);
/* Drains the AEQ; returns how many events of @type were seen. */
unsigned int td_aeq_count(struct td *d, uint8_t type);

/* A create command's handle, or -status (-255: no completion). */
int64_t td_handle(struct td_res r);

/* Object helpers: return the handle, or -status on failure. */
int64_t td_create_eq(struct td *d, uint32_t log_size, uint16_t vector,
		     uint64_t *ring);
int64_t td_alloc_pd(struct td *d);
int64_t td_alloc_uar(struct td *d);
int64_t td_create_cq(struct td *d, uint32_t eqn, uint32_t uar,
		     uint8_t log_size);
int64_t td_create_qp(struct td *d, uint8_t type, uint32_t pdn, uint32_t cqn,
		     uint32_t uar);
int td_set_gid(struct td *d, uint32_t index);

#endif
