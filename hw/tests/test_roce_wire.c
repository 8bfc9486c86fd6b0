// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCEv2 wire format: CRC-32 and the ICRC against an independent bitwise
 * CRC over a pseudo-header masked here (and rxe's seed), the opcode table
 * against IBTA's, every header as the engine writes it (captured between
 * two models and compared byte for byte with what the WQE asked for),
 * the parser on hand-built packets, bad ICRCs dropped and counted, and
 * steering (our GID and UDP 4791 only, and only with an RDMA capability).
 */
#include <stdlib.h>

#include "ref_icrc.h"
#include "roce/whw_roce.h"
#include "roce_tests.h"

static void crc_vectors(void)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff };

	tap_ok((whw_crc32_update(0xffffffffu, "123456789", 9) ^ 0xffffffffu) ==
	       0xcbf43926u, "CRC-32 check value of \"123456789\" is 0xcbf43926");
	tap_ok(whw_crc32_update(0xffffffffu, ones, 8) == 0xdebb20e3u,
	       "CRC state after the masked LRH is rxe's seed 0xdebb20e3");
}

struct opref {
	uint8_t op;
	uint32_t ext;		/* bytes after the BTH */
	bool payload;
};

/* IBTA 9.2 / rxe_opcode.c, and RoCEv2's CNP: header bytes after the BTH. */
static const struct opref opref[] = {
	{ 0x00, 0, true }, { 0x01, 0, true }, { 0x02, 0, true },
	{ 0x03, 4, true }, { 0x04, 0, true }, { 0x05, 4, true },
	{ 0x06, 16, true }, { 0x07, 0, true }, { 0x08, 0, true },
	{ 0x09, 4, true }, { 0x0a, 16, true }, { 0x0b, 20, true },
	{ 0x0c, 16, false }, { 0x0d, 4, true }, { 0x0e, 0, true },
	{ 0x0f, 4, true }, { 0x10, 4, true }, { 0x11, 4, false },
	{ 0x12, 12, false }, { 0x13, 28, false }, { 0x14, 28, false },
	{ 0x16, 4, true }, { 0x17, 4, true },
	/* IBA 1.5: FLUSH (FETH, RETH), ATOMIC WRITE (RETH, 8 bytes) */
	{ 0x1c, 20, false }, { 0x1d, 16, true },
	/* UC */
	{ 0x20, 0, true }, { 0x21, 0, true }, { 0x22, 0, true },
	{ 0x23, 4, true }, { 0x24, 0, true }, { 0x25, 4, true },
	{ 0x26, 16, true }, { 0x27, 0, true }, { 0x28, 0, true },
	{ 0x29, 4, true }, { 0x2a, 16, true }, { 0x2b, 20, true },
	/* XRC: RC's to 0x17, an XRCETH before the requests' headers */
	{ 0xa0, 4, true }, { 0xa1, 4, true }, { 0xa2, 4, true },
	{ 0xa3, 8, true }, { 0xa4, 4, true }, { 0xa5, 8, true },
	{ 0xa6, 20, true }, { 0xa7, 4, true }, { 0xa8, 4, true },
	{ 0xa9, 8, true }, { 0xaa, 20, true }, { 0xab, 24, true },
	{ 0xac, 20, false }, { 0xad, 4, true }, { 0xae, 0, true },
	{ 0xaf, 4, true }, { 0xb0, 4, true }, { 0xb1, 4, false },
	{ 0xb2, 12, false }, { 0xb3, 32, false }, { 0xb4, 32, false },
	{ 0xb6, 8, true }, { 0xb7, 8, true },
	{ 0x64, 8, true },
	{ 0x65, 12, true }, { 0x81, 16, false },
};

static void opcode_table(void)
{
	unsigned int bad = 0, known = 0;

	for (unsigned int i = 0; i < sizeof(opref) / sizeof(opref[0]); i++) {
		uint32_t info = whw_roce_opinfo(opref[i].op);

		if (!info || whw_roce_ext_len(info) != opref[i].ext ||
		    !!(info & WHW_K_PAYLOAD) != opref[i].payload) {
			tap_diag("opcode 0x%02x: ext %u payload %d", opref[i].op,
				 whw_roce_ext_len(info),
				 !!(info & WHW_K_PAYLOAD));
			bad++;
		}
	}
	for (unsigned int op = 0; op < 256; op++)
		if (whw_roce_opinfo((uint8_t)op))
			known++;
	tap_ok(!bad && known == sizeof(opref) / sizeof(opref[0]),
	       "opcode table: header lengths of all %u opcodes as IBTA's",
	       known);
}

/* A hand-built IPv4 RoCEv2 packet: BTH + @ext + payload, valid ICRC. */
static uint32_t hand_packet(uint8_t *f, uint8_t op, const uint8_t *ext,
			    uint32_t ext_len, uint32_t paylen)
{
	uint32_t pad = (4 - (paylen & 3)) & 3;
	uint32_t l3 = 20 + 8 + 12 + ext_len + paylen + pad + 4;
	static const uint8_t dmac[6] = { 2, 0, 0, 0, 0, 2 };
	static const uint8_t smac[6] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t sip[4] = { 10, 0, 0, 1 }, dip[4] = { 10, 0, 0, 2 };
	uint8_t *ip = f + 14, *bth;
	uint32_t icrc;

	bth = ro_frame_v4(f, l3, dmac, smac, sip, dip, 0xc012);
	bth[0] = op;
	bth[1] = (uint8_t)(0x80 | pad << 4);
	bth[2] = bth[3] = 0xff;
	bth[5] = 0x12;
	bth[6] = 0x34;
	bth[7] = 0x56;
	bth[8] = 0x80;
	bth[9] = 0xab;
	bth[10] = 0xcd;
	bth[11] = 0xef;
	memcpy(bth + 12, ext, ext_len);
	for (uint32_t i = 0; i < paylen; i++)
		bth[12 + ext_len + i] = (uint8_t)(i * 7);
	icrc = ref_icrc(ip, 20, l3);
	memcpy(ip + l3 - 4, &icrc, 4);	/* little-endian host */
	return 14 + l3;
}

static void parse_headers(void)
{
	uint8_t f[256], ext[32];
	struct whw_pkt p;
	uint32_t len;
	int rc;

	for (int i = 0; i < 32; i++)
		ext[i] = (uint8_t)(0x10 + i);
	len = hand_packet(f, 0x0a, ext, 16, 5);	/* WRITE_ONLY: RETH */
	rc = whw_roce_parse(f, len, &p);
	tap_ok(rc == WHW_PARSE_OK && p.opcode == 0x0a && p.se &&
	       p.dqpn == 0x123456 && p.ackreq && p.psn == 0xabcdef &&
	       p.va == 0x1011121314151617ull && p.rkey == 0x18191a1b &&
	       p.dmalen == 0x1c1d1e1f && p.paylen == 5 && p.payload[4] == 28,
	       "parse: BTH and RETH fields, pad removed");
	len = hand_packet(f, 0x13, ext, 28, 0);	/* CMP_SWAP: AtomicETH */
	rc = whw_roce_parse(f, len, &p);
	tap_ok(rc == WHW_PARSE_OK && p.va == 0x1011121314151617ull &&
	       p.rkey == 0x18191a1b && p.swap == 0x1c1d1e1f20212223ull &&
	       p.cmp == 0x2425262728292a2bull && !p.paylen,
	       "parse: AtomicETH");
	len = hand_packet(f, 0x12, ext, 12, 0);	/* ATOMIC_ACK */
	rc = whw_roce_parse(f, len, &p);
	tap_ok(rc == WHW_PARSE_OK && p.syndrome == 0x10 &&
	       p.msn == 0x111213 && p.orig == 0x1415161718191a1bull,
	       "parse: AETH and AtomicAckETH");
	len = hand_packet(f, 0x65, ext, 12, 3);	/* UD SEND_ONLY_IMM */
	rc = whw_roce_parse(f, len, &p);
	tap_ok(rc == WHW_PARSE_OK && p.qkey == 0x10111213 &&
	       p.src_qpn == 0x151617 && !memcmp(p.imm, ext + 8, 4) &&
	       p.paylen == 3, "parse: DETH and ImmDt");
	len = hand_packet(f, 0x17, ext, 4, 8);	/* SEND_ONLY_INV */
	rc = whw_roce_parse(f, len, &p);
	tap_ok(rc == WHW_PARSE_OK && p.ieth == 0x10111213 && p.paylen == 8,
	       "parse: IETH");
	f[len - 20] ^= 1;
	tap_ok(whw_roce_parse(f, len, &p) == WHW_PARSE_ICRC,
	       "parse: one flipped payload bit -> bad ICRC");
	f[len - 20] ^= 1;
	f[14 + 8] = 1;		/* TTL: variant, masked */
	f[14 + 1] = 0x2e;	/* DSCP: variant, masked */
	tap_ok(whw_roce_parse(f, len, &p) == WHW_PARSE_OK,
	       "parse: TTL and DSCP changed on the way: ICRC still good");
	len = hand_packet(f, 0x15, ext, 0, 0);	/* reserved opcode */
	tap_ok(whw_roce_parse(f, len, &p) == WHW_PARSE_DROP,
	       "parse: reserved opcode 0x15 -> dropped");
	len = hand_packet(f, 0x0c, ext, 16, 0);
	len -= 8;	/* cut into the RETH, lengths fixed up, ICRC good */
	f[14 + 3] -= 8;
	f[14 + 20 + 5] -= 8;
	{
		uint32_t icrc = ref_icrc(f + 14, 20, len - 14);

		memcpy(f + len - 4, &icrc, 4);
	}
	tap_ok(whw_roce_parse(f, len, &p) == WHW_PARSE_DROP,
	       "parse: READ request shorter than its RETH -> dropped");
	len = hand_packet(f, 0x04, ext, 0, 0);
	f[14 + 20 + 2] = 0x12;	/* another UDP port */
	f[14 + 20 + 3] = 0xb8;
	tap_ok(whw_roce_parse(f, len, &p) == WHW_PARSE_NOT_ROCE,
	       "parse: UDP 4792 is not RoCE");
}

/* Captured frame i (hold mode) of the pair. */
static const uint8_t *held(struct ro_pair *p, unsigned int i, size_t *len)
{
	const struct ro_frame *f = &p->q[(p->qhead + i) % RO_MAX_QUEUE];

	*len = f->len;
	return i < p->qlen ? f->data : NULL;
}

static bool icrc_good(const uint8_t *f, size_t len)
{
	const uint8_t *ip = f + 14;
	bool v4 = (ip[0] >> 4) == 4;
	uint32_t l3 = v4 ? (uint32_t)(ip[2] << 8 | ip[3])
			 : 40u + (uint32_t)(ip[4] << 8 | ip[5]);
	uint32_t icrc;

	if (14 + l3 > len || l3 < 4)
		return false;
	memcpy(&icrc, ip + l3 - 4, 4);
	return icrc == ref_icrc(ip, v4 ? 20 : 40, l3);
}

static uint16_t ref_sport(uint32_t a, uint32_t b)
{
	uint64_t v = (uint64_t)a * b;
	uint32_t fl;

	v ^= v >> 20;
	v ^= v >> 40;
	fl = (uint32_t)(v & 0xfffff);
	return (uint16_t)(((fl & 0x3fff) ^ ((fl & 0xfc000) >> 14)) | 0xc000);
}

struct txcase {
	const char *what;
	struct ro_wqe w;
	uint8_t opcode;
	uint32_t ext_len;
	uint8_t ext[28];
	uint32_t paylen;
};

static void tx_headers(void)
{
	struct txcase cases[] = {
		{ "SEND_ONLY", { .opcode = WREN_WQE_SEND, .nsge = 1 },
		  0x04, 0, { 0 }, 100 },
		{ "SEND_ONLY_IMM + ImmDt",
		  { .opcode = WREN_WQE_SEND_IMM, .imm = 0x44332211, .nsge = 1 },
		  0x05, 4, { 0x11, 0x22, 0x33, 0x44 }, 100 },
		{ "SEND_ONLY_INV + IETH",
		  { .opcode = WREN_WQE_SEND_INV, .imm = 0x0a0b0c0d, .nsge = 1 },
		  0x17, 4, { 0x0a, 0x0b, 0x0c, 0x0d }, 100 },
		{ "RDMA_WRITE_ONLY + RETH",
		  { .opcode = WREN_WQE_RDMA_WRITE, .raddr = 0x1122334455667788ull,
		    .rkey = 0x99aabbcc, .nsge = 1 },
		  0x0a, 16, { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
			      0x99, 0xaa, 0xbb, 0xcc, 0, 0, 0, 100 }, 100 },
		{ "RDMA_WRITE_ONLY_IMM + RETH + ImmDt",
		  { .opcode = WREN_WQE_RDMA_WRITE_IMM, .raddr = 0x10,
		    .rkey = 0x20, .imm = 0x01020304, .nsge = 1 },
		  0x0b, 20, { 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x20,
			      0, 0, 0, 100, 4, 3, 2, 1 }, 100 },
		{ "RDMA_READ_REQUEST + RETH",
		  { .opcode = WREN_WQE_RDMA_READ, .raddr = 0xabc, .rkey = 7,
		    .nsge = 1 },
		  0x0c, 16, { 0, 0, 0, 0, 0, 0, 0x0a, 0xbc, 0, 0, 0, 7,
			      0, 0, 0, 100 }, 0 },
		{ "COMPARE_SWAP + AtomicETH",
		  { .opcode = WREN_WQE_ATOMIC_CMP_SWP, .raddr = 0x1000,
		    .rkey = 9, .swap = 0x0102030405060708ull,
		    .cmp = 0x1112131415161718ull, .nsge = 1 },
		  0x13, 28, { 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 9,
			      1, 2, 3, 4, 5, 6, 7, 8,
			      0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18 },
		  0 },
		{ "FETCH_ADD + AtomicETH",
		  { .opcode = WREN_WQE_ATOMIC_FETCH_ADD, .raddr = 0x2000,
		    .rkey = 10, .swap = 5, .nsge = 1 },
		  0x14, 28, { 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 10,
			      0, 0, 0, 0, 0, 0, 0, 5 }, 0 },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct txcase *c = &cases[i];
		struct rc_env e;
		const uint8_t *f, *ip, *udp, *bth;
		size_t len;
		uint32_t want_len;
		bool ok;

		rc_env_init(&e, NULL);
		e.p.hold = 1;
		c->w.sge[0] = rc_sge(&e, 0, 0,
				     c->w.opcode >= WREN_WQE_ATOMIC_CMP_SWP ?
				     8 : 100);
		ro_post_send(&e.qp[0], &c->w);
		ro_settle(&e.p, 0);
		f = held(&e.p, 0, &len);
		want_len = 14 + 20 + 8 + 12 + c->ext_len + c->paylen +
			   ((4 - (c->paylen & 3)) & 3) + 4;
		ip = f ? f + 14 : NULL;
		udp = ip ? ip + 20 : NULL;
		bth = udp ? udp + 8 : NULL;
		ok = f && len == want_len &&
		     !memcmp(f, e.p.n[1].mac, 6) &&
		     !memcmp(f + 6, e.p.n[0].mac, 6) && f[12] == 0x08 &&
		     f[13] == 0 && ip[0] == 0x45 &&
		     (uint32_t)(ip[2] << 8 | ip[3]) == len - 14 &&
		     ip[6] == 0x40 && ip[7] == 0 && ip[8] == 64 &&
		     ip[9] == 17 && !memcmp(ip + 12, e.p.n[0].gid4 + 12, 4) &&
		     !memcmp(ip + 16, e.p.n[1].gid4 + 12, 4) &&
		     (uint16_t)(udp[0] << 8 | udp[1]) ==
		     ref_sport(e.qp[0].qpn, e.qp[1].qpn) &&
		     udp[2] == 0x12 && udp[3] == 0xb7 &&
		     (uint32_t)(udp[4] << 8 | udp[5]) == len - 14 - 20 &&
		     !udp[6] && !udp[7] && bth[0] == c->opcode &&
		     (bth[1] & 0x0f) == 0 && bth[2] == 0xff && bth[3] == 0xff &&
		     !bth[4] && whw_rd24be(bth + 5) == e.qp[1].qpn &&
		     bth[8] == 0x80 && whw_rd24be(bth + 9) == 0xfffff0 &&
		     !memcmp(bth + 12, c->ext, c->ext_len) &&
		     icrc_good(f, len);
		tap_ok(ok, "TX %s: Ethernet, IPv4, UDP, BTH, headers, ICRC "
		       "byte for byte", c->what);
		rc_env_fini(&e);
	}
}

static void tx_ipv6_vlan(void)
{
	struct ro_conn c = { .mtu = 5, .timeout = 14, .retry = 7,
			     .rnr_retry = 7, .rd_atomic = 1, .ipv6 = true,
			     .access = WREN_ACCESS_LOCAL_WRITE };
	struct ro_wqe w = { .opcode = WREN_WQE_SEND, .nsge = 1 };
	const uint8_t *f, *ip;
	struct rc_env e;
	size_t len;

	rc_env_init(&e, &c);
	e.p.hold = 1;
	w.sge[0] = rc_sge(&e, 0, 0, 33);
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 0);
	f = held(&e.p, 0, &len);
	ip = f ? f + 14 : NULL;
	tap_ok(f && f[12] == 0x86 && f[13] == 0xdd && (ip[0] >> 4) == 6 &&
	       ip[6] == 17 && ip[7] == 64 &&
	       (uint32_t)(ip[4] << 8 | ip[5]) == len - 14 - 40 &&
	       !memcmp(ip + 8, e.p.n[0].gid6, 16) &&
	       !memcmp(ip + 24, e.p.n[1].gid6, 16) && ip[40 + 3] == 0xb7 &&
	       ip[48 + 1] == 0x30 /* pad 3 */ && icrc_good(f, len),
	       "TX over IPv6: header, payload length, pad count, ICRC");
	rc_env_fini(&e);
}

static void icrc_drop_and_steer(void)
{
	struct rc_env e;
	struct ro_wqe w = { .opcode = WREN_WQE_SEND, .nsge = 1,
			    .flags = WREN_WQE_F_SIGNALED };
	struct wren_cqe cq;
	uint64_t icrc0;

	rc_env_init(&e, NULL);
	icrc0 = ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ICRC_ERRORS);
	rc_post_recv(&e, 1, 0, 64);
	w.sge[0] = rc_sge(&e, 0, 0, 64);
	e.p.corrupt_next = 1;
	e.p.only_from = 0;
	ro_post_send(&e.qp[0], &w);
	ro_settle(&e.p, 1000000000ull);
	tap_ok(ro_counter(&e.p.n[1], WREN_RDMA_CNT_RX_ICRC_ERRORS) == icrc0 + 1,
	       "corrupted frame: dropped, WREN_RDMA_CNT_RX_ICRC_ERRORS + 1");
	tap_ok(rc_one_cqe(&e.cq[0], &cq) && cq.status == 0 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_RETRANSMITS) >= 1 &&
	       ro_counter(&e.p.n[0], WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR) >= 1,
	       "... and the SEND completes after a timeout and retransmission");
	rc_env_fini(&e);
}

void test_roce_wire(void)
{
	crc_vectors();
	opcode_table();
	parse_headers();
	tx_headers();
	tx_ipv6_vlan();
	icrc_drop_and_steer();
}
