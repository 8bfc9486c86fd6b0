// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Tearing every object down, users before what they use (reset, destroy). */
#include <stdlib.h>

#include "whw_device.h"
#include "whw_objects.h"
#include "whw_table.h"

static void free_simple(struct whw_table *t)
{
	for (uint32_t i = 0; i < t->size; i++) {
		if (t->slots[i])
			t->gens[i]++;
		free(t->slots[i]);
		t->slots[i] = NULL;
	}
	t->used = 0;
	t->hint = t->first;
}

void whw_objects_destroy_all(struct wrenhw *hw)
{
	void *o;

	for (uint32_t i = 0; i < hw->qps.size; i++)
		if ((o = whw_table_slot(&hw->qps, i)))
			whw_qp_free(hw, o);
	for (uint32_t i = 0; i < hw->srqs.size; i++)
		if ((o = whw_table_get(&hw->srqs, i)))
			whw_srq_free(hw, o);
	for (uint32_t i = 0; i < hw->txqs.size; i++)
		if ((o = whw_table_get(&hw->txqs, i)))
			whw_eth_q_free(hw, o);
	for (uint32_t i = 0; i < hw->rxqs.size; i++)
		if ((o = whw_table_get(&hw->rxqs, i)))
			whw_eth_q_free(hw, o);
	/* Windows before the MRs they are bound to. */
	for (uint32_t i = 0; i < hw->mws.size; i++)
		if ((o = whw_table_get(&hw->mws, i)))
			whw_mw_free(hw, o);
	for (uint32_t i = 0; i < hw->mrs.size; i++)
		if ((o = whw_table_get(&hw->mrs, i)))
			whw_mr_free(hw, o);
	for (uint32_t i = 0; i < hw->cqs.size; i++)
		if ((o = whw_table_get(&hw->cqs, i)))
			whw_cq_free(hw, o);
	for (uint32_t i = 0; i < hw->eqs.size; i++)
		if ((o = whw_table_get(&hw->eqs, i)))
			whw_eq_free(hw, o);
	free_simple(&hw->ahs);
	free_simple(&hw->pds);
	free_simple(&hw->xrcds);
	free_simple(&hw->uars);
	hw->kernel_uar.hdr.refs = 0;
	hw->mtt_used = 0;
	hw->rss_table_size = 0;
}
