// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A full-duplex Ethernet link between two ports: a frame a port starts
 * sending arrives whole at the other end after its serialisation at the
 * link's rate plus the propagation delay.  Whoever sends (the NIC's port
 * scheduler, a switch's egress) spaces its frames itself; the link only
 * carries them.
 */
#ifndef WREN_CHANNEL_H
#define WREN_CHANNEL_H

#include <cstdint>
#include <functional>
#include <vector>

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"

namespace ns3
{

/* On the wire beyond a frame's bytes: preamble, start delimiter, FCS, gap. */
constexpr uint32_t kWireOverheadBytes = 24;
/*
 * A RoCEv2 frame's bytes besides its payload: Ethernet 14, IPv4 20, UDP
 * 8, BTH 12, ICRC 4 (a message's first frame carries a 16-byte RETH too).
 */
constexpr uint32_t kRoceV2HeaderBytes = 58;

/*
 * The model's clock: whole nanoseconds, the NIC's unit.  ns-3 runs in
 * picoseconds (set before main()) so that a frame a link delivers at
 * nanosecond t is handed over at t - 1 ns + (port + 1) ps: after every
 * event of the receiving node at t - 1, before every one at t, and in
 * the order of the ports it came in on.  Every other event falls on a
 * whole nanosecond.  Events of one node at one time then run in an
 * order that does not depend on when they were scheduled, so a run
 * split over processes (MPI: a frame from another process is scheduled
 * when it arrives there, not when it was sent) does what one process
 * does, to the bit.
 */
/* Now, rounded up to the nanosecond: the time a handed-over frame is at. */
int64_t WrenNowNs();
/* The same as a Time, and what it is ahead of ns-3's now (0 .. 999 ps). */
Time WrenNow();
Time WrenLag();
/* The delay from now to nanosecond @ns. */
Time WrenUntil(int64_t ns);
/* A frame of @bytes (wire bytes) at @bps, in whole nanoseconds (rounded). */
int64_t WrenTxNs(uint64_t bps, uint64_t bytes);
/* The slot in nanosecond @ns where frames arriving on @port are handed over. */
Time WrenArrival(int64_t ns, uint32_t port);

/*
 * The process this one is of a distributed run (MPI rank), 0 when there
 * is one; a node is simulated only by the process its system id names.
 */
uint32_t WrenRank();
uint32_t WrenRanks();

/* What a link delivers to: a NIC or a switch port. */
class WrenPort
{
  public:
    virtual ~WrenPort() = default;
    /* A whole frame (no FCS) arrived. */
    virtual void ReceiveFrame(const uint8_t* frame, uint32_t len) = 0;
};

/*
 * A message of the simulation itself between processes (a flow's QPs
 * released): @value delivered to the handler at @at (a whole ns, >= now +
 * the largest link delay) in every process, this one included.  Messages
 * for one time are handled after every frame for it and before its other
 * events, in the order of their values.
 */
void WrenBroadcast(int64_t atNs, uint64_t value);
void WrenSetBroadcastHandler(std::function<void(uint64_t)> handler);
/* The device of this process that takes the messages of others (one a process). */
void WrenSetBroadcastDevice(Ptr<NetDevice> dev, uint32_t rank);

class WrenChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    WrenChannel();

    /*
     * Joins @a and @b, their devices @da and @db (on the nodes that
     * simulate them: a frame for a node of another process goes there by
     * MPI) and the ports they are on their node (@pa, @pb: the slot their
     * frames are handed over in, WrenArrival()).
     */
    void Connect(WrenPort* a, Ptr<NetDevice> da, uint32_t pa,
                 WrenPort* b, Ptr<NetDevice> db, uint32_t pb);
    void Connect(WrenPort* a, Ptr<NetDevice> da, WrenPort* b, Ptr<NetDevice> db);
    /* Whether the two ends are simulated by different processes. */
    bool Crosses() const;
    /* @from starts sending @frame now. */
    void Transmit(WrenPort* from, const uint8_t* frame, uint32_t len);

    DataRate GetRate() const;
    Time GetDelay() const;
    uint64_t GetFrames() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    void Deliver(WrenPort* to, std::vector<uint8_t> frame);

    DataRate m_rate;
    Time m_delay;
    WrenPort* m_port[2];
    Ptr<NetDevice> m_dev[2];
    uint32_t m_slot[2];
    uint64_t m_frames;
};

} // namespace ns3

#endif
