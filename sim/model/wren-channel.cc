// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "wren-channel.h"

#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#ifdef WREN_SIM_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#endif

#include <algorithm>
#include <cmath>
#include <map>

namespace ns3
{

namespace
{

/* Before main(): every Time the program makes is in picoseconds. */
const bool g_picoseconds = (Time::SetResolution(Time::PS), true);

/* A frame is handed over in picoseconds 1 .. 998 of the nanosecond
 * before its own, by port; the messages in picosecond 999. */
constexpr uint32_t kPortSlots = 998;

std::function<void(uint64_t)> g_broadcastHandler;
std::vector<uint64_t> g_broadcastDue;
std::vector<std::pair<uint32_t, uint32_t>> g_broadcastTo; /* rank -> node, ifIndex */

/* A message's bytes: a marker no frame starts with at this length. */
constexpr uint32_t kMessageBytes = 9;
constexpr uint8_t kMessageMarker = 0xff;

void
BroadcastFlush()
{
    std::vector<uint64_t> due;
    due.swap(g_broadcastDue);
    std::sort(due.begin(), due.end());
    for (uint64_t v : due)
    {
        if (g_broadcastHandler)
        {
            g_broadcastHandler(v);
        }
    }
}

void
BroadcastArrived(uint64_t value)
{
    if (g_broadcastDue.empty())
    {
        /* After the others of this picosecond, scheduled earlier. */
        Simulator::ScheduleNow(&BroadcastFlush);
    }
    g_broadcastDue.push_back(value);
}

#ifdef WREN_SIM_MPI
void
MpiArrived(WrenPort* to, Ptr<Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    if (b.size() == kMessageBytes && b[0] == kMessageMarker)
    {
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
        {
            v |= uint64_t(b[1 + i]) << (8 * i);
        }
        BroadcastArrived(v);
        return;
    }
    to->ReceiveFrame(b.data(), static_cast<uint32_t>(b.size()));
}

/* Frames and messages for @dev (on this process) from others go to @to. */
void
EnsureReceiver(Ptr<NetDevice> dev, WrenPort* to)
{
    if (!dev->GetObject<MpiReceiver>())
    {
        Ptr<MpiReceiver> r = CreateObject<MpiReceiver>();
        r->SetReceiveCallback(MakeBoundCallback(&MpiArrived, to));
        dev->AggregateObject(r);
    }
}
#endif

} // namespace

int64_t
WrenNowNs()
{
    int64_t ps = Simulator::Now().GetPicoSeconds();
    return (ps + 999) / 1000;
}

Time
WrenNow()
{
    return PicoSeconds(WrenNowNs() * 1000);
}

Time
WrenLag()
{
    return WrenNow() - Simulator::Now();
}

Time
WrenUntil(int64_t ns)
{
    return PicoSeconds(ns * 1000) - Simulator::Now();
}

int64_t
WrenTxNs(uint64_t bps, uint64_t bytes)
{
    return static_cast<int64_t>((bytes * 8 * 1000000000ull + bps / 2) / bps);
}

Time
WrenArrival(int64_t ns, uint32_t port)
{
    return PicoSeconds(ns * 1000 - 1000 + 1 + std::min(port, kPortSlots - 1));
}

uint32_t
WrenRank()
{
#ifdef WREN_SIM_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
WrenRanks()
{
#ifdef WREN_SIM_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

void
WrenSetBroadcastHandler(std::function<void(uint64_t)> handler)
{
    g_broadcastHandler = std::move(handler);
    g_broadcastDue.clear();
}

void
WrenSetBroadcastDevice(Ptr<NetDevice> dev, uint32_t rank)
{
    if (g_broadcastTo.size() <= rank)
    {
        g_broadcastTo.resize(rank + 1, {UINT32_MAX, 0});
    }
    g_broadcastTo[rank] = {dev->GetNode()->GetId(), dev->GetIfIndex()};
#ifdef WREN_SIM_MPI
    if (rank == WrenRank() && WrenRanks() > 1)
    {
        EnsureReceiver(dev, dynamic_cast<WrenPort*>(PeekPointer(dev)));
    }
#endif
}

void
WrenBroadcast(int64_t atNs, uint64_t value)
{
    Time at = PicoSeconds(atNs * 1000 - 1);
    Simulator::Schedule(at - Simulator::Now(), &BroadcastArrived, value);
#ifdef WREN_SIM_MPI
    for (uint32_t r = 0; r < WrenRanks(); r++)
    {
        if (r == WrenRank() || r >= g_broadcastTo.size() || g_broadcastTo[r].first == UINT32_MAX)
        {
            continue;
        }
        uint8_t b[kMessageBytes] = {kMessageMarker};
        for (int i = 0; i < 8; i++)
        {
            b[1 + i] = static_cast<uint8_t>(value >> (8 * i));
        }
        MpiInterface::SendPacket(Create<Packet>(b, kMessageBytes), at, g_broadcastTo[r].first,
                                 g_broadcastTo[r].second);
    }
#endif
}

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
      m_slot{0, 0},
      m_frames(0)
{
    (void)g_picoseconds;
}

void
WrenChannel::Connect(WrenPort* a, Ptr<NetDevice> da, WrenPort* b, Ptr<NetDevice> db)
{
    Connect(a, da, 0, b, db, 0);
}

void
WrenChannel::Connect(WrenPort* a,
                     Ptr<NetDevice> da,
                     uint32_t pa,
                     WrenPort* b,
                     Ptr<NetDevice> db,
                     uint32_t pb)
{
    m_port[0] = a;
    m_port[1] = b;
    m_dev[0] = da;
    m_dev[1] = db;
    m_slot[0] = pa;
    m_slot[1] = pb;
#ifdef WREN_SIM_MPI
    if (Crosses())
    {
        for (int i = 0; i < 2; i++)
        {
            if (m_dev[i]->GetNode()->GetSystemId() == WrenRank())
            {
                EnsureReceiver(m_dev[i], m_port[i]);
            }
        }
    }
#endif
}

bool
WrenChannel::Crosses() const
{
    return WrenRanks() > 1 && m_dev[0] && m_dev[1] && m_dev[0]->GetNode() &&
           m_dev[1]->GetNode() &&
           m_dev[0]->GetNode()->GetSystemId() != m_dev[1]->GetNode()->GetSystemId();
}

void
WrenChannel::Transmit(WrenPort* from, const uint8_t* frame, uint32_t len)
{
    int to = from == m_port[0] ? 1 : 0;
    int64_t at = WrenNowNs() + WrenTxNs(m_rate.GetBitRate(), len + kWireOverheadBytes) +
                 (m_delay.GetPicoSeconds() + 500) / 1000;
    Time rx = WrenArrival(at, m_slot[to]);

    m_frames++;
#ifdef WREN_SIM_MPI
    Ptr<Node> node = m_dev[to] ? m_dev[to]->GetNode() : nullptr;
    if (node && WrenRanks() > 1 && node->GetSystemId() != WrenRank())
    {
        MpiInterface::SendPacket(Create<Packet>(frame, len), rx, node->GetId(),
                                 m_dev[to]->GetIfIndex());
        return;
    }
#endif
    Simulator::Schedule(rx - Simulator::Now(),
                        &WrenChannel::Deliver,
                        this,
                        m_port[to],
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
