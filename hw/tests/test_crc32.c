// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CRC-32, every implementation whw_crc32_update() can use (slicing-by-8;
 * PCLMULQDQ folding, and VPCLMULQDQ folding 256 bytes a step, where the
 * CPU has them), against the bitwise oracle of
 * ref_icrc.c: the check value and rxe's seed, every length 0..1024 from
 * every start alignment 0..15 (the folding's 64-byte and 16-byte steps
 * and its byte-wise tail all meet there), jumbo and 1 MiB runs, random
 * data and random register states, and updates split anywhere giving the
 * same state as one update; and the ICRC built on it.
 */
#include <stdlib.h>

#include "ref_icrc.h"
#include "roce/whw_roce.h"
#include "tests.h"

#define SMALL_MAX	1024
#define ALIGNS		16
#define BIG_MAX		(1u << 20)

static const size_t big_len[] = { 4096, 9000, 65536 + 13, BIG_MAX };
static const size_t big_off[] = { 0, 1, 8, 15 };

#define N_BIG		(sizeof(big_len) / sizeof(big_len[0]))
#define N_BIG_OFF	(sizeof(big_off) / sizeof(big_off[0]))

struct crc_ref {
	uint8_t *buf;			/* BIG_MAX + ALIGNS random bytes */
	uint32_t seed[ALIGNS];		/* register state at each alignment */
	uint32_t small[ALIGNS][SMALL_MAX + 1];
	uint32_t big_seed;
	uint32_t big[N_BIG][N_BIG_OFF];
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* The oracle's answers, once for both implementations. */
static bool ref_build(struct crc_ref *r)
{
	r->buf = malloc(BIG_MAX + ALIGNS);
	if (!r->buf)
		return false;
	for (size_t i = 0; i < BIG_MAX + ALIGNS; i++)
		r->buf[i] = (uint8_t)rnd();
	for (int o = 0; o < ALIGNS; o++) {
		const uint8_t *p = r->buf + o;

		/* A register of all ones (the usual start) at one alignment. */
		r->seed[o] = o == 3 ? 0xffffffffu : rnd();
		r->small[o][0] = r->seed[o];
		for (size_t n = 1; n <= SMALL_MAX; n++)
			r->small[o][n] = ref_crc32(r->small[o][n - 1],
						   p + n - 1, 1);
	}
	r->big_seed = rnd();
	for (size_t i = 0; i < N_BIG; i++)
		for (size_t j = 0; j < N_BIG_OFF; j++)
			r->big[i][j] = ref_crc32(r->big_seed,
						 r->buf + big_off[j],
						 big_len[i]);
	return true;
}

static void crc_vectors(const char *impl)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff };

	tap_ok(!strcmp(whw_crc32_impl(), impl), "%s: whw_crc32_impl() says %s",
	       impl, whw_crc32_impl());
	tap_ok((whw_crc32_update(0xffffffffu, "123456789", 9) ^ 0xffffffffu) ==
	       0xcbf43926u, "%s: check value of \"123456789\" is 0xcbf43926",
	       impl);
	tap_ok(whw_crc32_update(0xffffffffu, ones, 8) == 0xdebb20e3u,
	       "%s: state after 8 bytes of ones is rxe's seed 0xdebb20e3",
	       impl);
}

static void crc_lengths(const char *impl, const struct crc_ref *r)
{
	unsigned int bad = 0;

	for (int o = 0; o < ALIGNS; o++) {
		for (size_t n = 0; n <= SMALL_MAX; n++) {
			uint32_t c = whw_crc32_update(r->seed[o], r->buf + o, n);

			if (c != r->small[o][n] && !bad++)
				tap_diag("%s: offset %d, %zu bytes: 0x%08x, "
					 "oracle 0x%08x", impl, o, n, c,
					 r->small[o][n]);
		}
	}
	tap_ok(!bad, "%s: every length 0..%d at every offset 0..%d (%u wrong)",
	       impl, SMALL_MAX, ALIGNS - 1, bad);

	bad = 0;
	for (size_t i = 0; i < N_BIG; i++) {
		for (size_t j = 0; j < N_BIG_OFF; j++) {
			uint32_t c = whw_crc32_update(r->big_seed,
						      r->buf + big_off[j],
						      big_len[i]);

			if (c != r->big[i][j] && !bad++)
				tap_diag("%s: offset %zu, %zu bytes: 0x%08x, "
					 "oracle 0x%08x", impl, big_off[j],
					 big_len[i], c, r->big[i][j]);
		}
	}
	tap_ok(!bad, "%s: 4 KiB, 9000 B, 64 KiB + 13 and 1 MiB at offsets "
	       "0, 1, 8, 15 (%u wrong)", impl, bad);
}

/* update(a) then update(b) is update(a || b), wherever a ends. */
static void crc_split(const char *impl, const struct crc_ref *r)
{
	unsigned int bad = 0;
	const uint8_t *p = r->buf + 5;
	uint32_t s = rnd(), whole = whw_crc32_update(s, p, 700);

	for (size_t a = 0; a <= 700; a++) {
		uint32_t c = whw_crc32_update(s, p, a);

		if (whw_crc32_update(c, p + a, 700 - a) != whole && !bad++)
			tap_diag("%s: 700 bytes split at %zu differ", impl, a);
	}
	for (int i = 0; i < 200; i++) {
		size_t off = rnd() % ALIGNS, a = rnd() % 5000;
		size_t b = rnd() % 5000;

		s = rnd();
		p = r->buf + off;
		if (whw_crc32_update(whw_crc32_update(s, p, a), p + a, b) !=
		    whw_crc32_update(s, p, a + b) && !bad++)
			tap_diag("%s: %zu + %zu bytes at offset %zu differ",
				 impl, a, b, off);
	}
	tap_ok(!bad, "%s: split updates equal one update (every split of "
	       "700 bytes, 200 random splits; %u wrong)", impl, bad);
}

/*
 * The ICRC (roce_icrc.c) against the oracle's, for IPv4 and IPv6 packets
 * of every length from the bare headers to 300 bytes more and of full
 * frames (each folding's 256-, 64- and 16-byte steps and its byte-wise
 * tail meet there, and the 64-byte copy of the headers the fold starts
 * from), over random header bytes so that the masking shows, the packet
 * at every start alignment 0..15 in turn.
 */
static void icrc_lengths(const char *impl, const struct crc_ref *r)
{
	/* Payloads after the headers: 0..300, then whole frames' (and RETH). */
	static const uint32_t full[] = { 1024, 4096, 4096 + 16, 9000 };
	const uint32_t nsmall = 301, nfull = sizeof(full) / sizeof(full[0]);
	uint8_t *buf = malloc(9000 + 64 + ALIGNS), *pkt;
	unsigned int bad = 0, n = 0;

	if (!buf) {
		tap_ok(false, "%s: ICRC buffer allocated", impl);
		return;
	}
	for (int v6 = 0; v6 <= 1; v6++) {
		uint32_t ip_len = v6 ? 40 : 20, hdrs = ip_len + 8 + WHW_BTH_LEN;

		for (uint32_t i = 0; i < nsmall + nfull; i++) {
			uint32_t total = hdrs + WHW_ICRC_LEN +
					 (i < nsmall ? i : full[i - nsmall]);

			pkt = buf + (i * 7 + (uint32_t)v6) % ALIGNS;
			memcpy(pkt, r->buf + i % ALIGNS, total);
			pkt[0] = v6 ? 0x6f : 0x45;
			n++;
			if (whw_roce_icrc(pkt, !v6, total) !=
			    ref_icrc(pkt, ip_len, total) && !bad++)
				tap_diag("%s: IPv%d ICRC of %u bytes at alignment %u differs",
					 impl, v6 ? 6 : 4, total,
					 (unsigned int)(pkt - buf));
		}
	}
	free(buf);
	tap_ok(!bad, "%s: ICRC of %u IPv4 and IPv6 packets, headers alone to "
	       "9000 B, at every alignment, equals the oracle's (%u wrong)", impl, n, bad);
}

/* What the automatic choice should be, asked of the CPU directly. */
static const char *cpu_best_impl(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("pclmul") || !__builtin_cpu_supports("sse4.1"))
		return "slice8";
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("vpclmulqdq"))
		return "vpclmul";
	return "pclmul";
#else
	return "slice8";
#endif
}

void test_crc32(void)
{
	static const char *const impls[] = { "slice8", "pclmul", "vpclmul" };
	static const char *const needs[] = { "", "PCLMULQDQ/SSE4.1",
					     "AVX-512F/VPCLMULQDQ" };
	struct crc_ref *r = calloc(1, sizeof(*r));

	if (!r || !ref_build(r)) {
		tap_ok(false, "crc32: oracle buffers allocated");
		free(r);
		return;
	}
	for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		if (!whw_test_crc32_force(impls[i])) {
			tap_skipped(needs[i], "%s: CRC-32 implementation (this CPU lacks it)",
				    impls[i]);
			continue;
		}
		crc_vectors(impls[i]);
		crc_lengths(impls[i], r);
		crc_split(impls[i], r);
		icrc_lengths(impls[i], r);
	}
	tap_ok(whw_test_crc32_force(NULL) &&
	       !strcmp(whw_crc32_impl(), cpu_best_impl()),
	       "the automatic choice is %s on this CPU", whw_crc32_impl());
	free(r->buf);
	free(r);
}
