// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RoCEv2 invariant CRC (IBTA annex A17.3.3): CRC-32 (the IEEE
 * polynomial, reflected, as Ethernet's FCS) over 8 bytes of ones standing
 * for the masked LRH, the IP header, the UDP header and the BTH with their
 * variant fields set to ones, then the rest of the packet up to the ICRC.
 * Masked: IPv4 TOS, TTL and header checksum; IPv6 traffic class, flow
 * label and hop limit; the UDP checksum; the BTH's reserved byte in front
 * of the destination QP.  rxe_icrc.c computes the same thing (its seed
 * 0xdebb20e3 is this CRC's state after the 8 bytes of ones).  The result
 * is inverted and stored little-endian, as the FCS is.
 *
 * The ICRC covers every payload byte twice per packet (sender and
 * receiver), so the CRC is most of the engine's cost per byte.  Where the
 * processor has PCLMULQDQ (x86-64; crc32_clmul.c) runs of 64 bytes and
 * more are folded by carry-less multiplication, 16 bytes at a time at
 * the end, and only the last 0-15 bytes and short runs (headers) go
 * through the tables here; elsewhere everything does.  With AVX-512
 * VPCLMULQDQ (crc32_vpclmul.c) runs of 256 bytes and more fold four
 * blocks an instruction.  Measured on this project's build machines (AMD
 * EPYC, 2 shared cores), 64 KiB buffers, gcc -O2, best of 9:
 * slicing-by-8 2.1 GB/s, folding 14.4 GB/s, zlib 1.2.13's crc32() 5.9
 * GB/s; at 1 KiB the folding still does 14.  The 512-bit folding, beside
 * a guest boot on the other core: 45 GB/s at 64 KiB, 26 at 4 KiB, 30 at
 * 1 KiB, against 11 for the 128-bit folding in the same run.
 *
 * The 8 bytes of ones are a constant register state (CRC_ONES), and the
 * masked headers, copied with the rest of the packet's first 64 bytes,
 * are the first block of the same fold as the payload where it lies,
 * which then ends on a whole 16-byte block (whw_roce_icrc()).
 */
#include <string.h>

#include "whw_crc32_clmul.h"
#include "whw_roce.h"

/*
 * Slicing-by-8: eight bytes per step through eight tables, the portable
 * implementation and the tail of the other.
 *
 * Several QEMU threads may compute CRCs, so the tables are built once
 * without a lock: the first caller claims the build, the rest see
 * CRC_TABLES_READY with acquire order (and so the finished tables), and
 * a caller that comes while they are being built goes bit by bit rather
 * than wait or read half a table.
 */
enum { CRC_TABLES_NONE, CRC_TABLES_BUILDING, CRC_TABLES_READY };

static uint32_t crc_table[8][256];
static int crc_tables;

static bool crc_tables_ready(void)
{
	int st = __atomic_load_n(&crc_tables, __ATOMIC_ACQUIRE);

	if (st == CRC_TABLES_READY)
		return true;
	if (st != CRC_TABLES_NONE ||
	    !__atomic_compare_exchange_n(&crc_tables, &st,
					 CRC_TABLES_BUILDING, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^
					  crc_table[0][crc_table[t - 1][i] &
						       0xff];
	__atomic_store_n(&crc_tables, CRC_TABLES_READY, __ATOMIC_RELEASE);
	return true;
}

static uint32_t crc_bitwise(uint32_t crc, const uint8_t *b, size_t len)
{
	while (len--) {
		crc ^= *b++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return crc;
}

static uint32_t crc_slice8(uint32_t crc, const uint8_t *b, size_t len)
{
	if (!crc_tables_ready())
		return crc_bitwise(crc, b, len);
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t)b[0] | (uint32_t)b[1] << 8 |
				     (uint32_t)b[2] << 16 |
				     (uint32_t)b[3] << 24);
		uint32_t hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 |
			      (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;

		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		      crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		      crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		      crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		b += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return crc;
}

/*
 * The implementation, chosen on first use and kept.  Choosing is
 * idempotent (the same CPU gives the same answer), so racing first
 * callers just store the same value; the atomics only keep that a
 * well-defined race.
 */
enum { CRC_IMPL_UNSET, CRC_IMPL_SLICE8, CRC_IMPL_PCLMUL, CRC_IMPL_VPCLMUL };

static int crc_impl;

static int crc_detect(void)
{
#ifdef WHW_HAVE_CRC32_CLMUL
	if (whw_crc32_vpclmul_ok())
		return CRC_IMPL_VPCLMUL;
	if (whw_crc32_clmul_ok())
		return CRC_IMPL_PCLMUL;
#endif
	return CRC_IMPL_SLICE8;
}

static int crc_pick(void)
{
	int impl = __atomic_load_n(&crc_impl, __ATOMIC_RELAXED);

	if (impl == CRC_IMPL_UNSET) {
		impl = crc_detect();
		__atomic_store_n(&crc_impl, impl, __ATOMIC_RELAXED);
	}
	return impl;
}

uint32_t whw_crc32_update(uint32_t crc, const void *p, size_t len)
{
	const uint8_t *b = p;

#ifdef WHW_HAVE_CRC32_CLMUL
	/* Below 64 (256) bytes there is nothing to fold four ways. */
	if (len >= 64) {
		int impl = crc_pick();
		size_t n = len & ~(size_t)15;

		if (impl == CRC_IMPL_VPCLMUL && n >= 256)
			crc = whw_crc32_vpclmul(crc, b, n);
		else if (impl >= CRC_IMPL_PCLMUL)
			crc = whw_crc32_clmul(crc, b, n);
		else
			n = 0;
		b += n;
		len -= n;
	}
#endif
	return crc_slice8(crc, b, len);
}

const char *whw_crc32_impl(void)
{
	static const char *const name[] = {
		[CRC_IMPL_SLICE8] = "slice8", [CRC_IMPL_PCLMUL] = "pclmul",
		[CRC_IMPL_VPCLMUL] = "vpclmul",
	};

	return name[crc_pick()];
}

#ifdef WHW_TEST_HOOKS
bool whw_test_crc32_force(const char *impl)
{
	int want;

	if (!impl)
		want = crc_detect();
	else if (!strcmp(impl, "slice8"))
		want = CRC_IMPL_SLICE8;
	else if (!strcmp(impl, "pclmul") && crc_detect() >= CRC_IMPL_PCLMUL)
		want = CRC_IMPL_PCLMUL;
	else if (!strcmp(impl, "vpclmul") && crc_detect() == CRC_IMPL_VPCLMUL)
		want = CRC_IMPL_VPCLMUL;
	else
		return false;
	__atomic_store_n(&crc_impl, want, __ATOMIC_RELAXED);
	return true;
}
#endif

/* The register after the 8 bytes of ones, from all ones (rxe's seed). */
#define CRC_ONES	0xdebb20e3u

/* The variant fields of the headers at @h, set to ones. */
static void icrc_mask(uint8_t *h, bool ipv4)
{
	uint8_t *udp = h + (ipv4 ? 20 : 40), *bth = udp + 8;

	if (ipv4) {
		h[1] = 0xff;			/* TOS */
		h[8] = 0xff;			/* TTL */
		h[10] = h[11] = 0xff;		/* header checksum */
	} else {
		h[0] |= 0x0f;			/* traffic class, low nibble */
		h[1] = h[2] = h[3] = 0xff;	/* class and flow label */
		h[7] = 0xff;			/* hop limit */
	}
	udp[6] = udp[7] = 0xff;
	bth[4] = 0xff;				/* FECN, BECN, resv6a */
}

/*
 * The same masks as bits to set in the packet's first 64 bytes, for the
 * folds that mask as they load: IPv4, then IPv6.
 */
static const uint8_t icrc_ones[2][64] = {
	{ [1] = 0xff, [8] = 0xff, [10] = 0xff, [11] = 0xff,
	  [20 + 6] = 0xff, [20 + 7] = 0xff, [20 + 8 + 4] = 0xff },
	{ [0] = 0x0f, [1] = 0xff, [2] = 0xff, [3] = 0xff, [7] = 0xff,
	  [40 + 6] = 0xff, [40 + 7] = 0xff, [40 + 8 + 4] = 0xff },
};

uint32_t whw_roce_icrc(const uint8_t *l3, bool ipv4, uint32_t total)
{
	/* What the CRC covers after the ones: the packet up to its ICRC. */
	uint32_t body = total - WHW_ICRC_LEN;
	uint32_t hlen = (ipv4 ? 20u : 40u) + 8 + WHW_BTH_LEN;
	/* Zeros in front that make the rest after the head whole blocks. */
	uint32_t z = (0u - body) & 15;
	/* 16 zeros, then the packet's first 64 bytes, masked. */
	uint8_t buf[16 + 64], *pkt = buf + 16;
	size_t rest, n;
	uint32_t crc;

	/* Callers guarantee total >= hlen + ICRC and a 20-byte IPv4 header. */
	if (body < 64) {
		memcpy(pkt, l3, body);
		icrc_mask(pkt, ipv4);
		return ~whw_crc32_update(CRC_ONES, pkt, body);
	}
	/*
	 * The first 64 bytes with the headers masked are the fold's first
	 * block.  A CRC register started at 0 stays 0 over zero bytes, and
	 * a state is the same as 0 with that state added to the next 4
	 * bytes; so the block may start with z zeros, the state added after
	 * them, and the fold then ends on a whole block, with no bytes left
	 * for the tables.  Only where the headers still fit the block
	 * (IPv6's 60 bytes leave room for 4 zeros) and the packet is whole
	 * words, as the engine's are (the folds move the block by 32-bit
	 * words): else no zeros, and a table tail.
	 */
	if (z + hlen > 64 || (z & 3))
		z = 0;
	rest = body + z - 64;
	n = rest & ~(size_t)15;
#ifdef WHW_HAVE_CRC32_CLMUL
	{
		int impl = crc_pick();

		if (impl == CRC_IMPL_VPCLMUL && n >= 192) {
			crc = whw_crc32_vpclmul_icrc(CRC_ONES, l3,
						     icrc_ones[!ipv4], z, n);
			return ~crc_slice8(crc, l3 + 64 - z + n, rest - n);
		}
		if (impl >= CRC_IMPL_PCLMUL) {
			crc = whw_crc32_clmul_icrc(CRC_ONES, l3,
						   icrc_ones[!ipv4], z, n);
			return ~crc_slice8(crc, l3 + 64 - z + n, rest - n);
		}
	}
#endif
	/* The tables: the same block, built in memory. */
	memset(buf, 0, 16);
	memcpy(pkt, l3, 64);
	icrc_mask(pkt, ipv4);
	for (unsigned int i = 0; i < 4; i++)
		pkt[i] ^= (uint8_t)(CRC_ONES >> (8 * i));
	crc = crc_slice8(0, pkt - z, 64);
	return ~crc_slice8(crc, l3 + 64 - z, rest);
}
