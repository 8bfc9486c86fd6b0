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

/* What a link delivers to: a NIC or a switch port. */
class WrenPort
{
  public:
    virtual ~WrenPort() = default;
    /* A whole frame (no FCS) arrived. */
    virtual void ReceiveFrame(const uint8_t* frame, uint32_t len) = 0;
};

class WrenChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    WrenChannel();

    /* Joins @a and @b (their devices @da and @db, for ns-3's view). */
    void Connect(WrenPort* a, Ptr<NetDevice> da, WrenPort* b, Ptr<NetDevice> db);
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
    uint64_t m_frames;
};

} // namespace ns3

#endif
