// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions: MPT checks, translation entries (4 KiB, 64 KiB GPU-style
 * and 1 GiB pages, discontiguous), the FREE/VALID lifecycle, MTT budget.
 */
#include "tests.h"

#define SYND_CMR(f)	SYND_IN(struct wren_create_mr_in, f)
#define SYND_MMR(f)	SYND_IN(struct wren_modify_mr_in, f)

static struct wren_create_mr_in mr_in(uint32_t pdn, uint8_t shift,
				      uint64_t iova, uint64_t len,
				      uint32_t num_mtt)
{
	struct wren_create_mr_in in;

	memset(&in, 0, sizeof(in));
	in.pdn = pdn;
	in.access = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_READ;
	in.iova = iova;
	in.length = len;
	in.num_mtt = num_mtt;
	in.page_shift = shift;
	in.key_tag = 0x5a;
	return in;
}

static struct td_res create_mr(struct td *d, struct wren_create_mr_in *in)
{
	return td_cmd(d, WREN_AQ_OP_CREATE_MR, NULL, 0, in, sizeof(*in), NULL, 0);
}

static struct td_res write_mtt(struct td *d, uint32_t mr, uint32_t first,
			       const uint64_t *e, uint32_t count)
{
	struct wren_aq_write_mtt w = { .mr_index = mr, .first = first,
				       .count = count };

	return td_cmd(d, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w), e, count * 8,
		      NULL, 0);
}

static void mpt_checks(void)
{
	struct td *d = td_new(NULL);
	uint32_t pd = (uint32_t)td_alloc_pd(d);
	struct wren_create_mr_in in;
	struct td_res r;

	in = mr_in(pd, 12, 0x10000800, 8192, 2);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(length),
	       "8 KiB at offset 0x800 needs 3 pages, 2 given -> BAD_PARAM");
	in = mr_in(pd, 11, 0, 4096, 2);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(page_shift),
	       "page_shift 11 -> BAD_PARAM");
	in = mr_in(pd, 31, 0, 4096, 1);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(page_shift),
	       "page_shift 31 -> BAD_PARAM");
	in = mr_in(pd, 12, 0, 4096, 1);
	in.access = WREN_ACCESS_REMOTE_WRITE;
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(access),
	       "remote write without local write -> BAD_PARAM");
	in.access = WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_FLUSH_PERSISTENT;
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(access),
	       "the persistent FLUSH right (never on an MR) -> BAD_PARAM");
	in.access = 0x80;
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(access),
	       "unknown access bit -> BAD_PARAM");
	in = mr_in(pd, 12, 0, 4096, 1);
	in.flags = 4;
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(flags),
	       "unknown MR flag -> BAD_PARAM");
	in = mr_in(pd, 12, 0, 4096, 0);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_CMR(num_mtt),
	       "num_mtt 0 -> BAD_SIZE");
	in = mr_in(pd, 12, 0, 0, 1);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(length),
	       "length 0 -> BAD_PARAM");
	in = mr_in(pd, 12, UINT64_MAX - 4095, 8192, 4);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(length),
	       "iova + length wrapping -> BAD_PARAM");
	in = mr_in(pd, 12, 0, (1ull << 41), 0xffffffffu);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_SIZE, SYND_CMR(num_mtt),
	       "4 G translation entries -> BAD_SIZE");
	in = mr_in(77, 12, 0, 4096, 1);
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_HANDLE, SYND_CMR(pdn),
	       "MR on a missing PD -> BAD_HANDLE");
	in = mr_in(pd, 12, 0, 4096, 1);
	in.rsvd[7] = 1;
	expect(create_mr(d, &in), WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(rsvd) + 28,
	       "MR reserved -> BAD_PARAM");
	in = mr_in(pd, 12, 0, 4096, 1);
	in.flags = WREN_MR_F_FAST_REG;
	in.length = 0;
	in.num_mtt = 16;
	r = create_mr(d, &in);
	expect(r, WREN_AQ_STATUS_OK, 0, "fast-registration MR, no range yet");
	tap_ok(r.result == 1 && r.result2 == (1u << 8 | 0x5a),
	       "result = MR index 1, result2 = key (index << 8 | tag)");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, 1, NULL, 0),
	       WREN_AQ_STATUS_BAD_STATE, ANY_SYND,
	       "ACTIVATE_MR of a fast-registration MR -> BAD_STATE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, pd, NULL, 0),
	       WREN_AQ_STATUS_BUSY, ANY_SYND, "DEALLOC_PD with an MR -> BUSY");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MR, 1, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DESTROY_MR");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MR, 1, NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, ANY_SYND,
	       "double DESTROY_MR -> BAD_HANDLE");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEALLOC_PD, pd, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DEALLOC_PD once the MR is gone");
	td_free(d);
}

static void lifecycle(void)
{
	struct td *d = td_new(NULL);
	uint32_t pd = (uint32_t)td_alloc_pd(d);
	struct wren_create_mr_in in = mr_in(pd, 12, 0x7f0000000800ull, 8192, 3);
	struct wren_modify_mr_in mm;
	struct wren_query_mr_out q;
	uint64_t e[3] = { 0x200000000ull, 0x180000000ull, 0x400000000ull };
	uint32_t mr;
	struct td_res r;

	r = create_mr(d, &in);
	expect(r, WREN_AQ_STATUS_OK, 0, "CREATE_MR of 3 pages");
	mr = (uint32_t)r.result;
	expect(write_mtt(d, mr, 0, e, 0), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.write_mtt.count), "WRITE_MTT count 0 -> BAD_PARAM");
	expect(write_mtt(d, mr, 3, e, 1), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.write_mtt.first), "WRITE_MTT first beyond -> BAD_PARAM");
	expect(write_mtt(d, mr, 2, e, 2), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.write_mtt.count), "WRITE_MTT past the end -> BAD_PARAM");
	expect(write_mtt(d, mr + 1, 0, e, 1), WREN_AQ_STATUS_BAD_HANDLE,
	       SYND_CMD(u.write_mtt.mr_index), "WRITE_MTT on no MR -> BAD_HANDLE");
	{
		struct wren_aq_write_mtt w = { .mr_index = mr, .count = 2 };

		expect(td_cmd(d, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w), e, 8,
			      NULL, 0), WREN_AQ_STATUS_BAD_LENGTH,
		       SYND_CMD(in_len), "WRITE_MTT in_len short of count -> BAD_LENGTH");
		w.count = 1u << 20;
		expect(td_cmd(d, WREN_AQ_OP_WRITE_MTT, &w, sizeof(w), e, 8,
			      NULL, 0), WREN_AQ_STATUS_BAD_LENGTH,
		       SYND_CMD(in_len), "WRITE_MTT of 1 M entries -> BAD_LENGTH");
	}
	{
		uint64_t bad[2] = { 0x200000000ull, 0x180000200ull };

		expect(write_mtt(d, mr, 0, bad, 2), WREN_AQ_STATUS_BAD_ADDR,
		       WREN_SYND_IN | 8, "unaligned MTT entry -> BAD_ADDR at it");
		bad[1] = 0;
		expect(write_mtt(d, mr, 0, bad, 2), WREN_AQ_STATUS_BAD_ADDR,
		       WREN_SYND_IN | 8, "zero MTT entry -> BAD_ADDR");
	}
	th_fault_add(d->h, d->scratch_in, 64, true, false);
	expect(write_mtt(d, mr, 0, e, 2), WREN_AQ_STATUS_DMA_ERROR,
	       SYND_CMD(in_addr), "WRITE_MTT list DMA fault -> DMA_ERROR");
	th_fault_clear(d->h);
	expect(write_mtt(d, mr, 0, e, 2), WREN_AQ_STATUS_OK, 0,
	       "WRITE_MTT entries 0-1");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_BAD_STATE, SYND_CMD(u.handle.handle),
	       "ACTIVATE_MR before every entry is written -> BAD_STATE");
	expect(write_mtt(d, mr, 2, e + 2, 1), WREN_AQ_STATUS_OK, 0,
	       "WRITE_MTT entry 2 (pages discontiguous)");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "ACTIVATE_MR");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_BAD_STATE, ANY_SYND, "ACTIVATE_MR twice -> BAD_STATE");
	expect(write_mtt(d, mr, 0, e, 1), WREN_AQ_STATUS_BAD_STATE,
	       SYND_CMD(u.write_mtt.mr_index), "WRITE_MTT on a VALID MR -> BAD_STATE");
	memset(&mm, 0, sizeof(mm));
	mm.mr_index = mr;
	mm.mask = WREN_MODIFY_MR_ACCESS;
	mm.access = WREN_ACCESS_LOCAL_WRITE;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm), NULL, 0),
	       WREN_AQ_STATUS_BAD_STATE, SYND_MMR(mr_index),
	       "MODIFY_MR on a VALID MR -> BAD_STATE");
	memset(&q, 0, sizeof(q));
	expect(td_handle_cmd(d, WREN_AQ_OP_QUERY_MR, mr, &q, sizeof(q)),
	       WREN_AQ_STATUS_OK, 0, "QUERY_MR");
	tap_ok(q.state == WREN_MR_VALID && q.page_shift == 12 &&
	       q.key_tag == 0x5a && q.pdn == pd && q.num_mtt == 3 &&
	       q.iova == 0x7f0000000800ull && q.length == 8192,
	       "QUERY_MR returns the MPT entry");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DEACTIVATE_MR");
	expect(td_handle_cmd(d, WREN_AQ_OP_DEACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "DEACTIVATE_MR is idempotent");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_BAD_STATE, ANY_SYND,
	       "after DEACTIVATE the old translations are gone");
	mm.mask = WREN_MODIFY_MR_RANGE;
	mm.iova = 0x800;
	mm.length = 3 * 4096;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_MMR(length),
	       "MODIFY_MR range beyond num_mtt pages -> BAD_PARAM");
	mm.mask = 0x10;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm), NULL, 0),
	       WREN_AQ_STATUS_BAD_PARAM, SYND_MMR(mask),
	       "MODIFY_MR unknown mask -> BAD_PARAM");
	mm.mask = WREN_MODIFY_MR_PD;
	mm.pdn = 44;
	expect(td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm), NULL, 0),
	       WREN_AQ_STATUS_BAD_HANDLE, SYND_MMR(pdn),
	       "MODIFY_MR to a missing PD -> BAD_HANDLE");
	mm.mask = WREN_MODIFY_MR_KEY | WREN_MODIFY_MR_RANGE;
	mm.iova = 0;
	mm.length = 3 * 4096;
	mm.key_tag = 0x77;
	r = td_cmd(d, WREN_AQ_OP_MODIFY_MR, NULL, 0, &mm, sizeof(mm), NULL, 0);
	tap_ok(r.status == 0 && r.result2 == (mr << 8 | 0x77),
	       "MODIFY_MR new key and range (key 0x%x)", r.result2);
	expect(write_mtt(d, mr, 0, e, 3), WREN_AQ_STATUS_OK, 0,
	       "rewrite all entries");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "ACTIVATE_MR again");
	td_free(d);
}

static void page_sizes(void)
{
	struct td *d = td_new(NULL);
	uint32_t pd = (uint32_t)td_alloc_pd(d);
	struct wren_create_mr_in in;
	uint64_t e[4];
	uint32_t mr;

	/* GPU BAR pages: 64 KiB, scattered through a BAR at 0x38000000000. */
	in = mr_in(pd, 16, 0x7f1234560000ull, 4 * 65536, 4);
	mr = (uint32_t)create_mr(d, &in).result;
	for (int i = 0; i < 4; i++)
		e[i] = 0x38000000000ull + (uint64_t)(3 - i) * 0x30000;
	e[1] += 0x1000;
	expect(write_mtt(d, mr, 0, e, 4), WREN_AQ_STATUS_BAD_ADDR,
	       WREN_SYND_IN | 8, "4 KiB-aligned entry in a 64 KiB MR -> BAD_ADDR");
	e[1] -= 0x1000;
	expect(write_mtt(d, mr, 0, e, 4), WREN_AQ_STATUS_OK, 0,
	       "64 KiB GPU-style discontiguous pages");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "64 KiB-page MR VALID");

	in = mr_in(pd, 30, 0x40000000, 1ull << 31, 2);
	mr = (uint32_t)create_mr(d, &in).result;
	e[0] = 3ull << 30;
	e[1] = 7ull << 30;
	expect(write_mtt(d, mr, 0, e, 2), WREN_AQ_STATUS_OK, 0,
	       "1 GiB pages");
	expect(td_handle_cmd(d, WREN_AQ_OP_ACTIVATE_MR, mr, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "1 GiB-page MR VALID");
	td_free(d);
}

static void mtt_budget(void)
{
	struct wrenhw_config cfg = { .mac = { 2, 0, 0, 0, 0, 1 }, .max_mtt = 100,
				     .max_mr = 3 };
	struct td *d = td_new(&cfg);
	uint32_t pd = (uint32_t)td_alloc_pd(d);
	struct wren_create_mr_in in = mr_in(pd, 12, 0, 64 * 4096, 64);

	expect(create_mr(d, &in), WREN_AQ_STATUS_OK, 0, "MR of 64 entries");
	expect(create_mr(d, &in), WREN_AQ_STATUS_NO_RESOURCES, SYND_CMR(num_mtt),
	       "second 64 of 100 MTT entries -> NO_RESOURCES");
	in.num_mtt = 36;
	in.length = 36 * 4096;
	expect(create_mr(d, &in), WREN_AQ_STATUS_OK, 0, "the last 36 entries");
	in.num_mtt = 1;
	in.length = 4096;
	expect(create_mr(d, &in), WREN_AQ_STATUS_NO_RESOURCES, ANY_SYND,
	       "MTT exhausted -> NO_RESOURCES");
	expect(td_handle_cmd(d, WREN_AQ_OP_DESTROY_MR, 1, NULL, 0),
	       WREN_AQ_STATUS_OK, 0, "destroy the 64-entry MR");
	expect(create_mr(d, &in), WREN_AQ_STATUS_OK, 0,
	       "its entries are free again");
	in.num_mtt = 1;
	expect(create_mr(d, &in), WREN_AQ_STATUS_NO_RESOURCES, ANY_SYND,
	       "MR table of 3 (index 0 reserved) full -> NO_RESOURCES");
	td_free(d);
}

void test_mr(void)
{
	mpt_checks();
	lifecycle();
	page_sizes();
	mtt_budget();
}
