// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCEv2 packet formats: which extension headers each BTH opcode carries,
 * and the parser for received packets (Ethernet already untagged by the
 * RX engine, IPv4 or IPv6, UDP 4791, BTH, extension headers, payload,
 * pad, ICRC).  Everything received is bounded before it is read.
 */
#include <string.h>

#include "../cmd/whw_mcast.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_roce.h"

#define REQ	(WHW_K_VALID | WHW_K_REQ)
#define RESP	WHW_K_VALID
#define PAY	WHW_K_PAYLOAD

uint32_t whw_roce_opinfo(uint8_t opcode)
{
	/* UC: RC's SEND and WRITE opcodes, with UC's class bits. */
	if ((opcode & WHW_OP_CLASS) == WHW_OP_CLASS_UC) {
		opcode &= (uint8_t)~WHW_OP_CLASS;
		return opcode <= WHW_OP_WRITE_ONLY_IMM ?
		       whw_roce_opinfo(opcode) | WHW_K_UC : 0;
	}
	/*
	 * XRC: RC's up to SEND ONLY with invalidate (IBA 1.5's FLUSH and
	 * ATOMIC WRITE are RC's alone), in XRC's class; requests carry an
	 * XRCETH.
	 */
	if ((opcode & WHW_OP_CLASS) == WHW_OP_CLASS_XRC) {
		uint32_t info;

		opcode &= (uint8_t)~WHW_OP_CLASS;
		info = opcode <= WHW_OP_SEND_ONLY_INV ?
		       whw_roce_opinfo(opcode) : 0;
		if (!info)
			return 0;
		return info | WHW_K_XRC | (info & WHW_K_REQ ? WHW_H_XRCETH : 0);
	}
	switch (opcode) {
	case WHW_OP_SEND_FIRST:
		return REQ | PAY | WHW_K_SEND | WHW_K_FIRST;
	case WHW_OP_SEND_MIDDLE:
		return REQ | PAY | WHW_K_SEND | WHW_K_MIDDLE;
	case WHW_OP_SEND_LAST:
		return REQ | PAY | WHW_K_SEND | WHW_K_LAST;
	case WHW_OP_SEND_LAST_IMM:
		return REQ | PAY | WHW_K_SEND | WHW_K_LAST | WHW_H_IMM;
	case WHW_OP_SEND_ONLY:
		return REQ | PAY | WHW_K_SEND | WHW_K_ONLY;
	case WHW_OP_SEND_ONLY_IMM:
		return REQ | PAY | WHW_K_SEND | WHW_K_ONLY | WHW_H_IMM;
	case WHW_OP_SEND_LAST_INV:
		return REQ | PAY | WHW_K_SEND | WHW_K_LAST | WHW_H_IETH;
	case WHW_OP_SEND_ONLY_INV:
		return REQ | PAY | WHW_K_SEND | WHW_K_ONLY | WHW_H_IETH;
	case WHW_OP_WRITE_FIRST:
		return REQ | PAY | WHW_K_WRITE | WHW_K_FIRST | WHW_H_RETH;
	case WHW_OP_WRITE_MIDDLE:
		return REQ | PAY | WHW_K_WRITE | WHW_K_MIDDLE;
	case WHW_OP_WRITE_LAST:
		return REQ | PAY | WHW_K_WRITE | WHW_K_LAST;
	case WHW_OP_WRITE_LAST_IMM:
		return REQ | PAY | WHW_K_WRITE | WHW_K_LAST | WHW_H_IMM;
	case WHW_OP_WRITE_ONLY:
		return REQ | PAY | WHW_K_WRITE | WHW_K_ONLY | WHW_H_RETH;
	case WHW_OP_WRITE_ONLY_IMM:
		return REQ | PAY | WHW_K_WRITE | WHW_K_ONLY | WHW_H_RETH |
		       WHW_H_IMM;
	case WHW_OP_READ_REQ:
		return REQ | WHW_K_READ | WHW_K_ONLY | WHW_H_RETH;
	case WHW_OP_READ_RESP_FIRST:
		return RESP | PAY | WHW_K_READ | WHW_K_FIRST | WHW_H_AETH;
	case WHW_OP_READ_RESP_MIDDLE:
		return RESP | PAY | WHW_K_READ | WHW_K_MIDDLE;
	case WHW_OP_READ_RESP_LAST:
		return RESP | PAY | WHW_K_READ | WHW_K_LAST | WHW_H_AETH;
	case WHW_OP_READ_RESP_ONLY:
		return RESP | PAY | WHW_K_READ | WHW_K_ONLY | WHW_H_AETH;
	case WHW_OP_ACK:
		return RESP | WHW_K_ONLY | WHW_H_AETH;
	case WHW_OP_ATOMIC_ACK:
		return RESP | WHW_K_ATOMIC | WHW_K_ONLY | WHW_H_AETH |
		       WHW_H_ATMACK;
	case WHW_OP_CMP_SWAP:
	case WHW_OP_FETCH_ADD:
		return REQ | WHW_K_ATOMIC | WHW_K_ONLY | WHW_H_ATOMIC;
	case WHW_OP_FLUSH:
		return REQ | WHW_K_FLUSH | WHW_K_ONLY | WHW_H_FETH |
		       WHW_H_RETH;
	case WHW_OP_ATOMIC_WRITE:
		return REQ | PAY | WHW_K_ATOMIC_WRITE | WHW_K_ONLY |
		       WHW_H_RETH;
	case WHW_OP_UD_SEND_ONLY:
		return REQ | PAY | WHW_K_SEND | WHW_K_ONLY | WHW_K_UD |
		       WHW_H_DETH;
	case WHW_OP_UD_SEND_ONLY_IMM:
		return REQ | PAY | WHW_K_SEND | WHW_K_ONLY | WHW_K_UD |
		       WHW_H_DETH | WHW_H_IMM;
	case WHW_OP_CNP:
		/* RoCEv2's CNP (annex A17): 16 reserved bytes, no payload. */
		return WHW_K_VALID | WHW_K_ONLY | WHW_H_CNP;
	default:
		return 0;
	}
}

uint32_t whw_roce_ext_len(uint32_t info)
{
	uint32_t n = 0;

	if (info & WHW_H_XRCETH)
		n += 4;
	if (info & WHW_H_DETH)
		n += 8;
	if (info & WHW_H_FETH)
		n += 4;
	if (info & WHW_H_RETH)
		n += 16;
	if (info & WHW_H_ATOMIC)
		n += 28;
	if (info & WHW_H_AETH)
		n += 4;
	if (info & WHW_H_ATMACK)
		n += 8;
	if (info & WHW_H_IMM)
		n += 4;
	if (info & WHW_H_IETH)
		n += 4;
	if (info & WHW_H_CNP)
		n += 16;
	return n;
}

static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0,
				       0, 0, 0xff, 0xff };

/* IP header and UDP header of a frame that may be RoCEv2; NULL if not. */
static const uint8_t *udp_4791(const uint8_t *f, uint32_t len, bool *ipv4,
			       uint32_t *ip_len)
{
	uint16_t type;
	const uint8_t *ip = f + WHW_ETH_HLEN;
	const uint8_t *udp;

	if (len < WHW_ETH_HLEN + 20 + 8)
		return NULL;
	type = whw_rd16be(f + 12);
	if (type == 0x0800) {
		/* RoCEv2 over IPv4: a plain 20-byte header, no fragments. */
		if (ip[0] != 0x45 || ip[9] != 17 ||
		    (whw_rd16be(ip + 6) & 0x3fff))
			return NULL;
		*ipv4 = true;
		*ip_len = 20;
	} else if (type == 0x86dd) {
		if (len < WHW_ETH_HLEN + 40 + 8 || (ip[0] >> 4) != 6 ||
		    ip[6] != 17)
			return NULL;
		*ipv4 = false;
		*ip_len = 40;
	} else {
		return NULL;
	}
	udp = ip + *ip_len;
	if (whw_rd16be(udp + 2) != WHW_ROCE_PORT)
		return NULL;
	return udp;
}

static void dest_gid(const uint8_t *ip, bool ipv4, uint8_t *gid)
{
	if (ipv4) {
		memcpy(gid, v4_prefix, 12);
		memcpy(gid + 12, ip + 16, 4);
	} else {
		memcpy(gid, ip + 24, 16);
	}
}

bool whw_roce_is_ours(const struct wrenhw *hw, const uint8_t *f, uint32_t len)
{
	uint8_t gid[16];
	uint32_t ip_len;
	bool ipv4;

	if (!udp_4791(f, len, &ipv4, &ip_len))
		return false;
	dest_gid(f + WHW_ETH_HLEN, ipv4, gid);
	if (wren_gid_is_mcast(gid))
		return whw_mcast_find(hw, gid) != NULL;
	for (uint32_t i = 0; i < WHW_MAX_GID; i++) {
		const struct whw_gid *g = &hw->gids[i];

		if (g->type == WREN_GID_ROCE_V2 && !memcmp(g->gid, gid, 16))
			return true;
	}
	return false;
}

static void parse_ext(struct whw_pkt *p, const uint8_t *h)
{
	uint32_t info = p->info;

	/* XRCETH: 8 reserved bits, the XRC SRQ's 24-bit number. */
	if (info & WHW_H_XRCETH) {
		p->xrc_srqn = whw_rd24be(h + 1);
		h += 4;
	}
	if (info & WHW_H_DETH) {
		p->qkey = whw_rd32be(h);
		p->src_qpn = whw_rd24be(h + 5);
		h += 8;
	}
	/* FETH: placement type in bits 3:0, selectivity level in 5:4. */
	if (info & WHW_H_FETH) {
		p->flush_type = h[3] & 0x0f;
		p->flush_level = (h[3] >> 4) & 3;
		h += 4;
	}
	if (info & WHW_H_RETH) {
		p->va = whw_rd64be(h);
		p->rkey = whw_rd32be(h + 8);
		p->dmalen = whw_rd32be(h + 12);
		h += 16;
	}
	if (info & WHW_H_ATOMIC) {
		p->va = whw_rd64be(h);
		p->rkey = whw_rd32be(h + 8);
		p->swap = whw_rd64be(h + 12);
		p->cmp = whw_rd64be(h + 20);
		h += 28;
	}
	if (info & WHW_H_AETH) {
		p->syndrome = h[0];
		p->msn = whw_rd24be(h + 1);
		h += 4;
	}
	if (info & WHW_H_ATMACK) {
		p->orig = whw_rd64be(h);
		h += 8;
	}
	if (info & WHW_H_IMM) {
		memcpy(p->imm, h, 4);
		h += 4;
	}
	if (info & WHW_H_IETH)
		p->ieth = whw_rd32be(h);
}

int whw_roce_parse(const uint8_t *f, uint32_t len, struct whw_pkt *p)
{
	const uint8_t *udp, *bth;
	uint32_t ip_len, l3_total, udp_len, ext, pad, hdrs, end;
	uint32_t icrc_wire;
	bool ipv4;

	memset(p, 0, sizeof(*p));
	udp = udp_4791(f, len, &ipv4, &ip_len);
	if (!udp)
		return WHW_PARSE_NOT_ROCE;
	p->frame = f;
	p->len = len;
	p->l3 = f + WHW_ETH_HLEN;
	p->l3_len = ip_len;
	p->ipv4 = ipv4;
	/* The IP header says where the packet ends (Ethernet may pad). */
	l3_total = ipv4 ? whw_rd16be(p->l3 + 2)
			: 40u + whw_rd16be(p->l3 + 4);
	if (l3_total > len - WHW_ETH_HLEN ||
	    l3_total < ip_len + 8 + WHW_BTH_LEN + WHW_ICRC_LEN)
		return WHW_PARSE_DROP;
	udp_len = whw_rd16be(udp + 4);
	if (udp_len != l3_total - ip_len)
		return WHW_PARSE_DROP;
	end = WHW_ETH_HLEN + l3_total;	/* frame offset of the ICRC's end */
	memcpy(&icrc_wire, f + end - WHW_ICRC_LEN, 4);
	if (whw_le32(icrc_wire) != whw_roce_icrc(p->l3, ipv4, l3_total))
		return WHW_PARSE_ICRC;
	if (ipv4) {
		memcpy(p->sgid, v4_prefix, 12);
		memcpy(p->sgid + 12, p->l3 + 12, 4);
	} else {
		memcpy(p->sgid, p->l3 + 8, 16);
	}
	dest_gid(p->l3, ipv4, p->dgid);
	bth = udp + 8;
	p->opcode = bth[0];
	p->info = whw_roce_opinfo(p->opcode);
	p->op = p->info & (WHW_K_UC | WHW_K_XRC) ?
		p->opcode & (uint8_t)~WHW_OP_CLASS : p->opcode;
	if (!p->info || (bth[1] & 0x0f) ||
	    whw_rd16be(bth + 2) != WHW_ROCE_PKEY)
		return WHW_PARSE_DROP;	/* unknown opcode, TVer, P_Key */
	p->se = bth[1] & 0x80;
	pad = (bth[1] >> 4) & 3;
	p->dqpn = whw_rd24be(bth + 5);
	p->ackreq = bth[8] & 0x80;
	p->psn = whw_rd24be(bth + 9);
	ext = whw_roce_ext_len(p->info);
	hdrs = WHW_ETH_HLEN + ip_len + 8 + WHW_BTH_LEN + ext;
	if (hdrs + pad + WHW_ICRC_LEN > end)
		return WHW_PARSE_DROP;
	parse_ext(p, bth + WHW_BTH_LEN);
	p->payload = f + hdrs;
	p->paylen = end - WHW_ICRC_LEN - hdrs - pad;
	if (p->paylen && !(p->info & WHW_K_PAYLOAD))
		return WHW_PARSE_DROP;
	return WHW_PARSE_OK;
}
