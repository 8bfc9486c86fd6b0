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

/* CRC-32 register @crc (not inverted) after the @n bytes at @buf, bit by
 * bit: the oracle for whw_crc32_update().
 */
uint32_t ref_crc32(uint32_t crc, const void *buf, size_t n);

/* ICRC of the packet at @ip: @l3 is its IP header's length (20 for IPv4,
 * 40 for IPv6; the caller knows it from the ethertype), @len its bytes
 * with the trailing ICRC.  0 if @l3 is neither or @len has no room for
 * the UDP header, BTH and ICRC.
 */
uint32_t ref_icrc(const uint8_t *ip, size_t l3, size_t len);

#endif
