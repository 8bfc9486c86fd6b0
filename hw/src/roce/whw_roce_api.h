/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the rest of the model calls in the RoCE engine: received frames,
 * the process loop and the QP life cycle (whw_roce.h holds its internals).
 */
#ifndef WHW_ROCE_API_H
#define WHW_ROCE_API_H

#include <stdbool.h>
#include <stdint.h>

#include "../whw_objects.h"
#include "wrenhw.h"

/* An untagged frame the RX engine accepted: true if it was RoCEv2 for us. */
bool whw_roce_rx(struct wrenhw *hw, const uint8_t *f, uint32_t len,
		 bool vlan, uint16_t vlan_tci);
void whw_roce_process(struct wrenhw *hw);
/* Before commands: UD and GSI QPs send what they were rung for. */
void whw_roce_sync_datagrams(struct wrenhw *hw);
int whw_roce_qp_init(struct wrenhw *hw, struct whw_qp *qp);
void whw_roce_qp_fini(struct wrenhw *hw, struct whw_qp *qp);
/* DESTROY_QP, before whw_qp_free(): returns an SRQ WQE still held. */
void whw_roce_qp_destroying(struct wrenhw *hw, struct whw_qp *qp);
/* MODIFY_QP moved @qp from @cur to its new state. */
void whw_roce_qp_modified(struct wrenhw *hw, struct whw_qp *qp, uint8_t cur,
			  bool drain_notify);
void whw_roce_sq_doorbell(struct wrenhw *hw, struct whw_qp *qp);
/* QUERY_QP's DCQCN fields: cc_rate_kbps .. cc_cnps_handled (roce_rp.c). */
void whw_roce_qp_cc(struct wrenhw *hw, struct whw_qp *qp,
		    struct wren_query_qp_out *o);
/* SQD with started WQEs not yet completed (QUERY_QP sq_draining). */
bool whw_roce_sq_draining(const struct whw_qp *qp);

#endif
