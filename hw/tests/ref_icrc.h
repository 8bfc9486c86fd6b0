/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The RoCEv2 ICRC computed from IBTA's annex A17 with a bitwise CRC-32,
 * independently of the model's whw_crc32_update(): the oracle the unit
 * tests check the model's ICRC against and the fuzz harnesses fill mutated
 * frames with.
 */
#ifndef REF_ICRC_H
#define REF_ICRC_H

#include <stddef.h>
#include <stdint.h>

/* ICRC of the IPv4 (20-byte header) or IPv6 packet at @ip, @len bytes
 * with its trailing ICRC.
 */
uint32_t ref_icrc(const uint8_t *ip, size_t len);

#endif
