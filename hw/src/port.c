// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The Ethernet port's state: the wire's link (wrenhw_set_link, PHY status
 * frames), the driver's admin state, and DIAG link flaps.  The port is
 * ACTIVE when all three allow it; every change of that, and every new
 * speed while it stays ACTIVE, is one WREN_EVENT_PORT_STATE.
 */
#include "whw_control.h"
#include "whw_device.h"
#include "whw_events.h"
#include "whw_sched.h"
#include "wrenhw.h"
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
