/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What a sender fills in after the headers: IP and UDP lengths, the IPv4
 * header checksum and the RoCEv2 ICRC.  The wire harness applies them to
 * the fuzz input's frame, so that mutated headers and payloads still get
 * past the checks a corrupted frame stops at and reach the transport.
 */
#ifndef WRENHW_FUZZ_FRAME_H
#define WRENHW_FUZZ_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FZ_FIX_LEN	0x01	/* IP total/payload length, UDP length */
#define FZ_FIX_CSUM	0x02	/* IPv4 header checksum */
#define FZ_FIX_ICRC	0x04	/* RoCEv2 ICRC (UDP port 4791) */

void fz_frame_fix(uint8_t *f, size_t len, unsigned int how);

#endif
