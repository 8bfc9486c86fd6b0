// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "wren-port-device.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(WrenPortDevice);

TypeId
WrenPortDevice::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WrenPortDevice")
                            .SetParent<NetDevice>()
                            .AddConstructor<WrenPortDevice>();
    return tid;
}

void
WrenPortDevice::Attach(Ptr<WrenChannel> channel)
{
    m_channel = channel;
}

void
WrenPortDevice::DoDispose()
{
    m_channel = nullptr;
    m_node = nullptr;
    NetDevice::DoDispose();
}

void
WrenPortDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
WrenPortDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
WrenPortDevice::GetChannel() const
{
    return m_channel;
}

void
WrenPortDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
WrenPortDevice::GetAddress() const
{
    return m_address;
}

bool
WrenPortDevice::SetMtu(const uint16_t mtu)
{
    return mtu == 9216;
}

uint16_t
WrenPortDevice::GetMtu() const
{
    return 9216;
}

bool
WrenPortDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
WrenPortDevice::AddLinkChangeCallback(Callback<void>)
{
}

bool
WrenPortDevice::IsBroadcast() const
{
    return false;
}

Address
WrenPortDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
WrenPortDevice::IsMulticast() const
{
    return false;
}

Address
WrenPortDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
WrenPortDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
WrenPortDevice::IsBridge() const
{
    return false;
}

bool
WrenPortDevice::IsPointToPoint() const
{
    return true;
}

/* The NIC and the switch send through the channel, never ns-3's stacks. */
bool
WrenPortDevice::Send(Ptr<Packet>, const Address&, uint16_t)
{
    return false;
}

bool
WrenPortDevice::SendFrom(Ptr<Packet>, const Address&, const Address&, uint16_t)
{
    return false;
}

Ptr<Node>
WrenPortDevice::GetNode() const
{
    return m_node;
}

void
WrenPortDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
WrenPortDevice::NeedsArp() const
{
    return false;
}

void
WrenPortDevice::SetReceiveCallback(NetDevice::ReceiveCallback)
{
}

void
WrenPortDevice::SetPromiscReceiveCallback(PromiscReceiveCallback)
{
}

bool
WrenPortDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
