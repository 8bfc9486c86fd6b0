/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Small seeded PRNG (xoshiro256**) so that fault injection is reproducible:
 * the same --seed and the same traffic give the same drops.
 */
#ifndef WREN_FABRIC_PRNG_H
#define WREN_FABRIC_PRNG_H

#include <stdbool.h>
#include <stdint.h>

struct prng {
	uint64_t s[4];
};

void prng_seed(struct prng *p, uint64_t seed);
uint64_t prng_next(struct prng *p);
/* Uniform double in [0, 1). */
double prng_unit(struct prng *p);
/* True with probability @prob (values <= 0 never, >= 1 always). */
bool prng_chance(struct prng *p, double prob);
/* Uniform integer in [0, n); n must be > 0. */
uint32_t prng_below(struct prng *p, uint32_t n);

#endif
