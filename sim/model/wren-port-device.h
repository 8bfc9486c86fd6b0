// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One end of a WrenChannel as ns-3 sees it: a point-to-point NetDevice
 * on a node.  ns-3's own stacks never send through it (the NIC makes
 * its frames, the switch forwards them, both through the channel); it is
 * there so that ns-3's distributed simulation finds the links between
 * processes, their delay (the lookahead) and, for frames from another
 * process, the port they go to (an MpiReceiver aggregated to it).  A
 * switch port is one as it is; WrenNetDevice, the NIC, builds on it.
 */
#ifndef WREN_PORT_DEVICE_H
#define WREN_PORT_DEVICE_H

#include "wren-channel.h"

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"

namespace ns3
{

class WrenPortDevice : public NetDevice
{
  public:
    static TypeId GetTypeId();
    WrenPortDevice() = default;

    void Attach(Ptr<WrenChannel> channel);

    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

    Ptr<WrenChannel> m_channel;
    Ptr<Node> m_node;
    uint32_t m_ifIndex = 0;
    Mac48Address m_address;
};

} // namespace ns3

#endif
