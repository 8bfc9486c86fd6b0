// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "prng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void prng_seed(struct prng *p, uint64_t seed)
{
	/* splitmix expands any seed, including 0, into a non-zero state */
	for (int i = 0; i < 4; i++)
		p->s[i] = splitmix64(&seed);
}

uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double prng_unit(struct prng *p)
{
	return (double)(prng_next(p) >> 11) * 0x1.0p-53;
}

bool prng_chance(struct prng *p, double prob)
{
	if (prob <= 0.0)
		return false;
	if (prob >= 1.0)
		return true;
	return prng_unit(p) < prob;
}

uint32_t prng_below(struct prng *p, uint32_t n)
{
	return (uint32_t)(((prng_next(p) >> 32) * (uint64_t)n) >> 32);
}
