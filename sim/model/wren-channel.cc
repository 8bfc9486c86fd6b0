// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "wren-channel.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(WrenChannel);

TypeId
WrenChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WrenChannel")
                            .SetParent<Channel>()
                            .AddConstructor<WrenChannel>()
                            .AddAttribute("DataRate",
                                          "The link's rate",
                                          DataRateValue(DataRate("100Gbps")),
                                          MakeDataRateAccessor(&WrenChannel::m_rate),
                                          MakeDataRateChecker())
                            .AddAttribute("Delay",
                                          "Propagation delay",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&WrenChannel::m_delay),
                                          MakeTimeChecker());
    return tid;
}

WrenChannel::WrenChannel()
    : m_port{nullptr, nullptr},
      m_frames(0)
{
}

void
WrenChannel::Connect(WrenPort* a, Ptr<NetDevice> da, WrenPort* b, Ptr<NetDevice> db)
{
    m_port[0] = a;
    m_port[1] = b;
    m_dev[0] = da;
    m_dev[1] = db;
}

void
WrenChannel::Transmit(WrenPort* from, const uint8_t* frame, uint32_t len)
{
    WrenPort* to = from == m_port[0] ? m_port[1] : m_port[0];
    Time serial = m_rate.CalculateBytesTxTime(len + kWireOverheadBytes);

    m_frames++;
    Simulator::Schedule(serial + m_delay,
                        &WrenChannel::Deliver,
                        this,
                        to,
                        std::vector<uint8_t>(frame, frame + len));
}

void
WrenChannel::Deliver(WrenPort* to, std::vector<uint8_t> frame)
{
    to->ReceiveFrame(frame.data(), static_cast<uint32_t>(frame.size()));
}

DataRate
WrenChannel::GetRate() const
{
    return m_rate;
}

Time
WrenChannel::GetDelay() const
{
    return m_delay;
}

uint64_t
WrenChannel::GetFrames() const
{
    return m_frames;
}

std::size_t
WrenChannel::GetNDevices() const
{
    return 2;
}

Ptr<NetDevice>
WrenChannel::GetDevice(std::size_t i) const
{
    return i < 2 ? m_dev[i] : nullptr;
}

} // namespace ns3
