// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A fabric of Wren hosts and switches: hosts (a node with one
 * WrenNetDevice, address 10.0.0.0 + its index + 1, the NIC's IPv4 GID),
 * switches, links between them at a rate and delay, and routes: every
 * switch forwards to each host over all the ports that lie on a shortest
 * path to it (ECMP).
 */
#ifndef WREN_TOPOLOGY_H
#define WREN_TOPOLOGY_H

#include "wren-net-device.h"
#include "wren-switch.h"

#include "ns3/node-container.h"

#include <string>
#include <vector>

namespace ns3
{

class WrenTopology
{
  public:
    /* A host with a NIC of @linkMbps; false if it could not be made. */
    bool AddHosts(uint32_t n, uint32_t linkMbps);
    uint32_t AddSwitch(const WrenSwitchConfig& cfg);
    /*
     * Links host or switch @a to @b: ids below NHosts() are hosts, the
     * rest switches (AddSwitch()'s return).  Returns the channel.
     */
    Ptr<WrenChannel> Link(uint32_t a, uint32_t b, uint64_t rateBps, Time delay);
    /* Shortest-path routes with ECMP in every switch. */
    void ComputeRoutes();
    /*
     * The switches whose buffer cannot hold their ports' reserves and
     * headroom (WrenSwitch::BufferFits()), as ids; empty when all do.
     * Experiments refuse to run such a fabric.
     */
    std::vector<uint32_t> ShortBuffers() const;
    /* The same as a message for the user, or empty. */
    std::string ShortBuffersMessage() const;
    /* A static route: switch @sw sends frames for host @host to @next. */
    void SetRoute(uint32_t sw, uint32_t host, uint32_t next);
    /*
     * A cycle of paused links on priority @prio, switch ids in order
     * (each one's egress to the next is paused by it), or empty: the
     * state a PFC deadlock leaves.
     */
    std::vector<uint32_t> PausedCycle(uint8_t prio) const;
    uint32_t NNodes() const;
    /*
     * The shortest path from host @src to host @dst: its one-way delay,
     * its slowest link and the time one frame of @frameBytes (wire bytes)
     * takes on all its links.  False if there is none.
     */
    bool Path(uint32_t src,
              uint32_t dst,
              uint32_t frameBytes,
              Time* delay,
              uint64_t* minBps,
              Time* frameTx) const;

    uint32_t NHosts() const;
    Ptr<WrenNetDevice> Host(uint32_t i) const;
    Ptr<WrenSwitch> Switch(uint32_t id) const;
    /* The host's IPv4 address, host order. */
    static uint32_t HostIp(uint32_t i);
    /* The switch port @sw uses towards node @peer (-1: none). */
    int PortTowards(uint32_t sw, uint32_t peer) const;

  private:
    struct Edge
    {
        uint32_t to;
        int port; /* on this end if it is a switch, else -1 */
        uint64_t bps;
        Time delay;
    };

    NodeContainer m_nodes;
    std::vector<Ptr<WrenNetDevice>> m_hosts;
    std::vector<Ptr<WrenSwitch>> m_switches;
    std::vector<std::vector<Edge>> m_adj;
};

} // namespace ns3

#endif
