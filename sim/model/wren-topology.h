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
    /*
     * For a run over several processes (MPI ranks): the rank that
     * simulates each node, by id (hosts first, then switches, as they will
     * be made); set before the first host.  Every process builds every
     * node, NIC and link; a link whose ends are on different ranks carries
     * its frames by MPI.  Unset, everything is on rank 0.
     */
    void SetRanks(std::vector<uint32_t> rankOf);
    /*
     * A partition of @nodes nodes (the first @hosts of them hosts, the
     * rest switches) joined by @links over @ranks ranks: the switches with
     * hosts (edge switches) in id order in blocks of about equal hosts,
     * each host with its switch; then the other switches nearest the
     * hosts first, each on the rank that holds most of its neighbours
     * (on a tie, the tied rank that has won fewest ties).
     */
    static std::vector<uint32_t> Partition(uint32_t hosts,
                                           uint32_t nodes,
                                           const std::vector<std::pair<uint32_t, uint32_t>>& links,
                                           uint32_t ranks);
    uint32_t RankOf(uint32_t id) const;
    /* The links whose ends are on different ranks, and the least delay of them. */
    uint32_t CrossingLinks() const;
    Time Lookahead() const;
    /* The largest link delay: what a message between processes waits, at least. */
    Time MaxDelay() const;
    /* Whether every two ranks share a link (null messages go to neighbours only). */
    bool RanksAllJoined(uint32_t ranks) const;

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
    std::vector<Ptr<Node>> m_switchNodes;
    std::vector<uint32_t> m_rankOf;
    std::vector<std::pair<uint32_t, uint32_t>> m_joined; /* rank pairs with a link */
    uint32_t m_crossing = 0;
    Time m_lookahead;
    Time m_maxDelay;
    std::vector<Ptr<WrenNetDevice>> m_hosts;
    std::vector<Ptr<WrenSwitch>> m_switches;
    std::vector<std::vector<Edge>> m_adj;
};

} // namespace ns3

#endif
