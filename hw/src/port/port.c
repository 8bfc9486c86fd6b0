// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Ethernet port: its state, and where the frames the wire brings go.
 *
 * The state: the wire's link (wrenhw_set_link, the fabric's PHY status
 * frames), the driver's admin state, and DIAG link flaps.  The port is
 * ACTIVE when all three allow it; every change of that, and every new
 * speed while it stays ACTIVE, is one WREN_EVENT_PORT_STATE.
 *
 * Frames from the wire: PHY status frames go to the port's state, MAC
 * control frames (pause, PFC) to pause.c, everything else through the
 * receive buffers (rxbuf.c) to the Ethernet receive engine (eth_rx.c)
 * while the port is up.
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../eth/whw_eth.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_mac_ctrl.h"
#include "whw_port.h"
#include "whw_rxbuf.h"
#include "whw_sched.h"
#include "wrenhw.h"

static bool port_active(const struct wrenhw *hw)
{
	return hw->port.phys_up && hw->port.admin_up && !hw->port.flapping;
}

void whw_port_update(struct wrenhw *hw)
{
	bool active = port_active(hw);
	bool link = hw->port.phys_up && !hw->port.flapping;

	if (link)
		hw->status |= WREN_STATUS_LINK_UP;
	else
		hw->status &= ~WREN_STATUS_LINK_UP;
	if (active == hw->port.reported_active)
		return;
	hw->port.reported_active = active;
	if (!active) {
		/* What waits for the wire is lost with it. */
		whw_sched_flush(hw);
		hw->port.link_down_count++;
		hw->cnt_port[WREN_CNT_LINK_DOWN_EVENTS]++;
	}
	whw_aeq_post(hw, WREN_EVENT_PORT_STATE,
		     active ? WREN_PORT_ACTIVE : WREN_PORT_DOWN,
		     active ? hw->port.phys_speed : 0, 0);
}

void whw_port_timer(struct wrenhw *hw, uint64_t now)
{
	if (hw->port.flapping && now >= hw->port.flap_until_ns) {
		hw->port.flapping = false;
		whw_port_update(hw);
	}
}

void wrenhw_set_link(struct wrenhw *hw, bool up, unsigned int speed_mbps)
{
	bool was_active = hw->port.reported_active;
	bool new_speed = speed_mbps && speed_mbps != hw->port.phys_speed;

	hw->port.phys_up = up;
	if (speed_mbps)
		hw->port.phys_speed = speed_mbps;
	whw_port_update(hw);
	/*
	 * The contract announces speed changes too: a link that stays up at
	 * a new rate (the fabric's `rate` command) is one more ACTIVE event,
	 * or the driver would keep reporting the old speed.
	 */
	if (new_speed && was_active && hw->port.reported_active)
		whw_aeq_post(hw, WREN_EVENT_PORT_STATE, WREN_PORT_ACTIVE,
			     hw->port.phys_speed, 0);
}

/*
 * The fabric's PHY status frame: how the switch port tells the NIC that
 * the link went up or down and at which speed (see hw/README.md):
 *
 *   dst 02:57:52:45:4e:00, EtherType 0x88b6, then
 *   "WPHY" | u8 version (1) | u8 link_up (0/1) | u16 reserved (0) |
 *   u32 speed in Mb/s, big-endian
 *
 * Anything malformed is dropped and counted as a length/format error.
 */
#define PHY_ETHERTYPE	0x88b6
#define PHY_HDR_LEN	14
#define PHY_BODY_LEN	12
#define PHY_VERSION	1

static const uint8_t phy_dst[6] = { 0x02, 0x57, 0x52, 0x45, 0x4e, 0x00 };

/* Is this frame addressed to the PHY channel at all? */
static bool is_phy_frame(const uint8_t *f, size_t len)
{
	return len >= PHY_HDR_LEN && !memcmp(f, phy_dst, sizeof(phy_dst)) &&
	       whw_rd16be(f + 12) == PHY_ETHERTYPE;
}

static bool phy_frame(struct wrenhw *hw, const uint8_t *f, size_t len)
{
	const uint8_t *b = f + PHY_HDR_LEN;
	uint32_t speed;

	if (!is_phy_frame(f, len))
		return false;
	if (len < PHY_HDR_LEN + PHY_BODY_LEN || memcmp(b, "WPHY", 4) ||
	    b[4] != PHY_VERSION || b[5] > 1 || b[6] || b[7]) {
		hw->cnt_port[WREN_CNT_RX_ERRORS_LENGTH]++;
		return true;	/* consumed: it was for the PHY, malformed */
	}
	speed = whw_rd32be(b + 8);
	wrenhw_set_link(hw, b[5], speed);
	return true;
}

#define ETH_HLEN	14
#define ETH_MIN_LEN	ETH_HLEN
#define ETH_MAX_LEN	(ETH_HLEN + 4 + WHW_MAX_MTU)	/* with a VLAN tag */

bool wrenhw_rx_frame(struct wrenhw *hw, const void *frame, size_t len)
{
	const uint8_t *f = frame;

	if (!f || len < ETH_MIN_LEN || len > ETH_MAX_LEN) {
		hw->cnt_port[WREN_CNT_RX_ERRORS_LENGTH]++;
		return false;
	}
	/* The PHY channel works even while the device is fatal or resetting. */
	if (phy_frame(hw, f, len))
		return true;
	/* A port that is down (wire, admin or flap) receives nothing. */
	if (!whw_link_active(hw))
		return false;
	/* Pause and PFC frames are the port's own, never passed up. */
	if (whw_mac_ctrl_is(f, len)) {
		bool ok = whw_pause_rx(hw, f, len);

		whw_sched_kick(hw);
		return ok;
	}
	return whw_rxbuf_rx(hw, f, len);
}
