/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Events and completions: AEQ and EQ posting, the EQs' interrupt
 * moderation and the fatal stop (eq.c), CQE writes (cq_post.c), and the
 * completion events and interrupt moderation of CQs (cq_moderation.c).
 */
#ifndef WHW_EVENTS_H
#define WHW_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../whw_objects.h"
#include "wrenhw.h"

/* eq.c */
void whw_aeq_post(struct wrenhw *hw, uint8_t type, uint8_t sub,
		  uint32_t data, uint32_t data2);
/* The same with the EQE's third word, for the events that name it. */
void whw_aeq_post3(struct wrenhw *hw, uint8_t type, uint8_t sub,
		   uint32_t data, uint32_t data2, uint32_t data3);
void whw_aeq_doorbell(struct wrenhw *hw, uint32_t val);
void whw_eq_post(struct wrenhw *hw, struct whw_eq *eq, uint8_t type,
		 uint8_t sub, uint32_t data, uint32_t data2);
/* The device stops: no more admin commands, doorbells or events. */
void whw_go_fatal(struct wrenhw *hw, uint32_t syndrome, uint32_t info);

/* cq_moderation.c */
/* A CQE was written to @cq: raise its completion event if armed. */
void whw_cq_notify(struct wrenhw *hw, struct whw_cq *cq, bool solicited);
/* The CQ doorbell, with its arm flags; init and fini set the timer up. */
void whw_cq_arm(struct wrenhw *hw, struct whw_cq *cq, uint32_t ci,
		uint32_t flags);
void whw_cq_mod_init(struct whw_cq *cq);
void whw_cq_mod_fini(struct wrenhw *hw, struct whw_cq *cq);

/* eq.c: EQ interrupt moderation */
/* @n EQEs are pending on an armed EQ: interrupt now or when moderated. */
void whw_eq_pending(struct wrenhw *hw, struct whw_eq *eq, uint32_t n);
void whw_eq_mod_init(struct whw_eq *eq);
void whw_eq_mod_fini(struct wrenhw *hw, struct whw_eq *eq);

/*
 * cq_post.c: writes one 32-byte CQE (owner set by the device), in a 64-byte
 * entry with the device clock when the CQ has them; -1 if dropped.
 */
int whw_cq_post(struct wrenhw *hw, struct whw_cq *cq, const void *cqe,
		bool solicited);
/*
 * The consumer index from @cq's doorbell record, if it claims no more
 * than was produced; false on a DMA error.
 */
bool whw_cq_refresh_ci(struct wrenhw *hw, struct whw_cq *cq);
/*
 * @entry (@stride bytes, wren_cqe_stride()) into the slot of free-running
 * @index of a CQ ring of 1 << @log_size entries, its owner byte (the last)
 * the phase of @index; non-zero on a DMA error.
 */
int whw_cq_write_slot(struct wrenhw *hw, const struct whw_ring *ring,
		      uint32_t index, uint32_t log_size, uint32_t stride,
		      const void *entry);

#endif
