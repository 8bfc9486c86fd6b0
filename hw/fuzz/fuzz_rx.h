/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The record format of fuzz_rx.c, shared with the seed generator. */
#ifndef WRENHW_FUZZ_RX_H
#define WRENHW_FUZZ_RX_H

/*
 * The input's first byte: the port's settings, made by admin commands
 * before any frame arrives, so that the receive buffers, pause and PFC
 * generation, DSCP classification and ECN/CNP handling all get frames.
 */
#define FX_CFG_PFC	0x01	/* PFC on priority 3 */
#define FX_CFG_DSCP	0x02	/* DSCP trust */
#define FX_CFG_CC	0x04	/* ECN and DCQCN (NP and RP) on every priority */
#define FX_CFG_DRAIN	0x08	/* the host drains RX at 10 Mb/s: buffers fill */
#define FX_CFG_PAUSE	0x10	/* 802.3x pause honoured and sent */
#define FX_CFG_WD	0x20	/* PFC storm watchdogs */
#define FX_CFG_PROMISC	0x40	/* Ethernet RX promiscuous */
#define FX_CFG_JUMBO	0x80	/* MTU 9000 */

enum fx_kind {
	FX_FRAME,	/* u8 fix (FZ_FIX_*), u16 n, n bytes of frame */
	FX_TIME,	/* u32 microseconds of simulated time */
	FX_POLL,	/* -: consume completions, give buffers back */
	FX_LINK,	/* u8 up, u32 Mb/s */
	FX_SEND,	/* u8 which: a request from A or a UD send */
	FX_KINDS
};

/* Frames longer than this are cut: the largest the wire carries, and more. */
#define FX_FRAME_MAX	9400

#endif
