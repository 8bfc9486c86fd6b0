/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The switch itself, free of sockets and clocks: frames come in through
 * fabric_receive(), leave through the fabric_io callbacks, and time comes
 * from io.now_ns so that tests can drive it with a fake clock.
 */
#ifndef WREN_FABRIC_FABRIC_H
#define WREN_FABRIC_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egress.h"
#include "ether.h"
#include "mac_table.h"
#include "mcast_snoop.h"
#include "pcap.h"
#include "pfc.h"
#include "prng.h"

#define FABRIC_MAX_PORTS 64
#define FABRIC_DEFAULT_RATE_MBPS 25000u
#define FABRIC_MAX_RATE_MBPS 1000000u
#define FABRIC_DEFAULT_MAC_AGE_S 300u
#define FABRIC_MAX_BUFFER (64u * 1024 * 1024) /* bytes, any threshold */
#define FABRIC_MAX_PFCWD_NS (60000ull * 1000000u)
/*
 * How long a frame picked for reordering waits for a later frame to
 * overtake it before it leaves anyway: long enough for the next frame
 * of a stream under TCG (tens of microseconds apart), short against
 * RoCE's retransmission timers (milliseconds and more).
 */
#define FABRIC_REORDER_HOLD_NS (500ull * 1000)

struct fabric_io {
	void *ctx;
	/* monotonic nanoseconds since the fabric started */
	uint64_t (*now_ns)(void *ctx);
	/* wall clock for pcap time stamps */
	uint64_t (*realtime_ns)(void *ctx);
	/* is there room to hand the port's peer another frame? */
	bool (*can_send)(void *ctx, unsigned port);
	/* hand a frame to the port's peer; false if it could not be kept */
	bool (*send)(void *ctx, unsigned port, const uint8_t *frame,
		     uint32_t len);
};

struct port_stats {
	uint64_t rx_frames; /* everything the guest sent, before any drop */
	uint64_t rx_bytes;
	uint64_t tx_frames; /* everything handed to the guest (not PHY frames) */
	uint64_t tx_bytes;
	uint64_t drop_runt;         /* shorter than an Ethernet header */
	uint64_t drop_reserved;     /* guest sent a fabric PHY status frame */
	uint64_t drop_rx_link_down; /* received while the link was down */
	uint64_t drop_rx_loss;      /* injected loss, guest -> fabric */
	uint64_t drop_filtered;     /* destination is on the ingress port */
	uint64_t drop_tx_link_down; /* to this port while down, or flushed */
	uint64_t drop_no_peer;      /* to this port with no guest connected */
	uint64_t drop_queue_full;   /* egress tail drop, all queues */
	uint64_t drop_tx_loss;      /* injected loss, fabric -> guest */
	uint64_t drop_send_fail;    /* out of memory, or the peer never reads */
	uint64_t rx_corrupted;      /* injected corruption, guest -> fabric */
	uint64_t tx_corrupted;      /* injected corruption, fabric -> guest */
	uint64_t tx_duplicated;     /* injected duplicates sent to the guest */
	uint64_t tx_held;           /* frames held back to be reordered */
	uint64_t tx_reordered;      /* ... that a later frame overtook */
	uint64_t flooded;           /* unknown/group destination, flooded */
	uint64_t mcast_reports;     /* IGMP/MLD group records from the guest */
	uint64_t mcast_to_members;  /* its group's member ports only */
	uint64_t phy_sent;          /* PHY status frames sent to the guest */
	uint64_t bad_stream;        /* connections closed for a bad length */
	uint64_t connects;
	uint64_t rx_pfc_frames;     /* 802.1Qbb frames from the guest */
	uint64_t rx_pause_frames;   /* 802.3x pause frames from the guest */
	uint64_t rx_mac_ctrl_other; /* other or truncated MAC control, dropped */
	uint64_t tx_pfc_frames;     /* PFC frames the fabric sent the guest */
	uint64_t tx_pfc_fail;       /* ... that the guest's buffer refused */
};

#define PFC_DEFAULT_XOFF (64u * 1024)
#define PFC_DEFAULT_XON (32u * 1024)
/*
 * In flight when an XOFF leaves: the guest -> fabric unix socket (about
 * 200 KiB with default buffers), what QEMU has queued, and the frames the
 * NIC model sends before it sees the pause.
 */
#define PFC_DEFAULT_HEADROOM (512u * 1024)
#define PFCWD_DEFAULT_DETECT_MS 200u
#define PFCWD_DEFAULT_RESTORE_MS 200u

struct fabric_port {
	unsigned index;
	bool connected;
	bool link_up; /* administrative state, set by the control socket */
	double loss;    /* per traversal of this port's link, each way */
	double corrupt; /* likewise: one bit flipped past the MAC header */
	/* per frame sent to the guest: sent twice; held back for the next */
	double duplicate;
	double reorder;
	struct frame *held;      /* the frame held back, or NULL */
	uint64_t held_until_ns;  /* when it leaves if nothing overtook it */
	bool held_overtaken;
	struct prng prng;
	struct egress_port egress;
	struct pfc_port pfc; /* its ingress buffer, PFC both ways */
	struct port_stats st;
	struct pcap_writer pcap;
};

struct fabric_config {
	unsigned nports;
	uint32_t rate_mbps;
	double loss;
	double corrupt;
	double duplicate;
	double reorder;
	uint64_t seed;
	uint64_t mac_age_ns;
	uint32_t queue_limit_frames;
	uint64_t queue_limit_bytes;
	const char *pcap_dir; /* NULL: no capture unless turned on later */
	/* applied to every port; all off by default */
	uint8_t lossless_prios; /* bitmap */
	uint64_t pfc_xoff;
	uint64_t pfc_xon;
	uint64_t pfc_headroom;
	uint8_t ecn_queues;     /* bitmap of queues with RED/ECN */
	struct red_config red;
	uint8_t pfcwd_prios;    /* bitmap of queues with a watchdog */
	struct pfcwd_config wd;
	uint8_t ets_weight[FABRIC_PRIOS]; /* 0: strict priority */
};

struct fabric {
	unsigned nports;
	struct fabric_port ports[FABRIC_MAX_PORTS];
	struct mac_table macs;
	struct snoop_table snoop; /* IGMP/MLD: multicast group members */
	uint8_t dscp_map[DSCP_COUNT];
	struct fabric_io io;
	struct pfc pfc; /* over ports[i].pfc, sending through io */
	char pcap_dir[512];
};

void fabric_config_default(struct fabric_config *cfg);
/* 0, or -1 with a message in @err for an invalid configuration. */
int fabric_init(struct fabric *f, const struct fabric_config *cfg,
		const struct fabric_io *io, char *err, size_t errlen);
void fabric_destroy(struct fabric *f);

/* A frame arrived from the guest on @port. */
void fabric_receive(struct fabric *f, unsigned port, const uint8_t *frame,
		    uint32_t len);
/* Send what the serialization clocks allow; returns the next event time
 * (io.now_ns scale) or UINT64_MAX when nothing is waiting. */
uint64_t fabric_service(struct fabric *f);
void fabric_service_port(struct fabric *f, unsigned port);

void fabric_connect(struct fabric *f, unsigned port);
void fabric_disconnect(struct fabric *f, unsigned port, bool bad_stream);
void fabric_set_link(struct fabric *f, unsigned port, bool up);
void fabric_set_rate(struct fabric *f, unsigned port, uint32_t mbps);
/*
 * Turn capture on (to <pcap_dir>/port<N>.pcap, appending to what this run
 * captured before) or off; -1 on failure.
 */
int fabric_set_pcap(struct fabric *f, unsigned port, bool on);
void fabric_reseed(struct fabric *f, uint64_t seed);

/* Validation of lossless, RED and watchdog settings: 0, or -1 and @err. */
int fabric_check_lossless(uint64_t xoff, uint64_t xon, uint64_t headroom,
			  char *err, size_t errlen);
int fabric_check_red(const struct red_config *red, char *err, size_t errlen);
int fabric_check_pfcwd(const struct pfcwd_config *wd, char *err,
		       size_t errlen);
/* Make (@port, @prio) lossless or lossy with these (checked) thresholds. */
void fabric_set_lossless(struct fabric *f, unsigned port, unsigned prio,
			 bool on, uint64_t xoff, uint64_t xon,
			 uint64_t headroom);

static inline bool fabric_port_operational(const struct fabric_port *p)
{
	return p->connected && p->link_up;
}

#endif
