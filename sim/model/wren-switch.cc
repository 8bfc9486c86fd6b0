// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "wren-switch.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(WrenSwitch);

/* DRR's quantum: a jumbo frame, every non-strict priority alike. */
static const uint32_t kDrrQuantum = 9216;

TypeId
WrenSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WrenSwitch").SetParent<Object>().AddConstructor<WrenSwitch>();
    return tid;
}

WrenSwitch::WrenSwitch()
    : m_shared(0),
      m_headroomTotal(0),
      m_reserveTotal(0),
      m_noRoute(0),
      m_ttlDrops(0),
      m_id(0)
{
    dscp_map_default(m_dscpMap);
    prng_seed(&m_prng, m_cfg.seed);
}

WrenSwitch::~WrenSwitch() = default;

void
WrenSwitch::DoDispose()
{
    for (auto& p : m_ports)
    {
        p->txEvent.Cancel();
        for (auto& in : p->in)
        {
            in.refresh.Cancel();
        }
    }
    m_ports.clear();
    Object::DoDispose();
}

void
WrenSwitch::Configure(const WrenSwitchConfig& cfg)
{
    m_cfg = cfg;
    prng_seed(&m_prng, cfg.seed ^ (uint64_t(m_id) << 32));
}

void
WrenSwitch::SetId(uint32_t id)
{
    m_id = id;
    prng_seed(&m_prng, m_cfg.seed ^ (uint64_t(id) << 32));
}

uint32_t
WrenSwitch::AddPort(Ptr<WrenChannel> channel)
{
    auto p = std::make_unique<Port>();
    uint32_t idx = m_ports.size();

    p->sw = this;
    p->index = idx;
    p->channel = channel;
    p->rate = channel->GetRate();
    p->rateBps = p->rate.GetBitRate();
    /* RED as configured at 100 Gb/s, scaled to the port's rate. */
    p->red.enabled = true;
    p->red.drop_not_ect = false;
    p->red.kmin = uint64_t(m_cfg.kminAt100g * (double(p->rateBps) / 100e9));
    p->red.kmax = uint64_t(m_cfg.kmaxAt100g * (double(p->rateBps) / 100e9));
    p->red.pmax = m_cfg.pmax;
    /*
     * What the upstream may still send once it is told XOFF: the pause's
     * way there and the data's way back at the line rate, plus a jumbo
     * frame being sent at each end.
     */
    p->headroomBytes = uint64_t(p->rateBps / 8 * 2 * channel->GetDelay().GetSeconds()) + 2 * 9216;
    p->mac[0] = 0x02;
    p->mac[1] = 0x53;
    p->mac[2] = 0x57;
    p->mac[3] = static_cast<uint8_t>(m_id >> 8);
    p->mac[4] = static_cast<uint8_t>(m_id);
    p->mac[5] = static_cast<uint8_t>(idx);
    m_headroomTotal += p->headroomBytes * __builtin_popcount(m_cfg.losslessMask);
    m_reserveTotal += uint64_t(m_cfg.reserveBytes) * FABRIC_PRIOS;
    m_ports.push_back(std::move(p));
    return idx;
}

bool
WrenSwitch::BufferFits() const
{
    /* At least a jumbo frame a port to share beyond the fixed parts. */
    return m_headroomTotal + m_reserveTotal + 9216ull * m_ports.size() <= m_cfg.bufferBytes;
}

WrenPort*
WrenSwitch::GetPort(uint32_t port)
{
    return m_ports.at(port).get();
}

void
WrenSwitch::SetRoute(uint32_t dstIp, const std::vector<uint32_t>& ports)
{
    m_routes[dstIp] = ports;
}

uint32_t
WrenSwitch::GetNPorts() const
{
    return m_ports.size();
}

const WrenQueueStats&
WrenSwitch::Stats(uint32_t port, uint8_t prio) const
{
    return m_ports.at(port)->q[prio & 7].stats;
}

uint64_t
WrenSwitch::QueueBytes(uint32_t port, uint8_t prio) const
{
    return m_ports.at(port)->q[prio & 7].bytes;
}

bool
WrenSwitch::EgressPaused(uint32_t port, uint8_t prio) const
{
    const Queue& q = m_ports.at(port)->q[prio & 7];
    return !q.storm && q.pausedUntil > WrenNow();
}

void
WrenSwitch::SetTxTrace(TxTrace trace)
{
    m_txTrace = std::move(trace);
}

Time
WrenSwitch::XoffTime(uint32_t port, uint8_t prio) const
{
    const Ingress& g = m_ports.at(port)->in[prio & 7];
    return g.xoffTime + (g.xoff ? WrenNow() - g.xoffSince : Time(0));
}

uint64_t
WrenSwitch::NoRouteDrops() const
{
    return m_noRoute;
}

uint64_t
WrenSwitch::TtlDrops() const
{
    return m_ttlDrops;
}

void
WrenSwitch::Port::ReceiveFrame(const uint8_t* frame, uint32_t len)
{
    sw->Ingress_(this, frame, len);
}

Time
WrenSwitch::QuantaTime(const Port* p, uint32_t quanta) const
{
    return NanoSeconds(pfc_quanta_ns(quanta, static_cast<uint32_t>(p->rateBps / 1000000)));
}

void
WrenSwitch::Ingress_(Port* p, const uint8_t* f, uint32_t len)
{
    if (len < ETH_HDR_LEN)
    {
        return;
    }
    struct mac_ctrl c = mac_ctrl_parse(f, len);
    if (c.kind != MAC_CTRL_NONE)
    {
        PauseReceived(p, c);
        return;
    }
    uint8_t prio = classify_frame(f, len, m_dscpMap).prio & 7;
    int out = Route(f, len);
    if (out < 0)
    {
        m_noRoute++;
        return;
    }
    Port* o = m_ports[out].get();
    Queue& q = o->q[prio];
    bool lossless = m_cfg.losslessMask & (1u << prio);

    if (q.storm)
    {
        q.stats.wdDrops++;
        return;
    }
    /* A router's hop: a frame caught in a routing loop dies of old age. */
    Frame fr{std::vector<uint8_t>(f, f + len), p->index, prio, false};
    if (ip_hop_decrement(fr.data.data(), len) == IP_HOP_EXPIRED)
    {
        m_ttlDrops++;
        return;
    }
    if (!Admit(p, prio, len, &fr.headroom))
    {
        if (lossless)
        {
            q.stats.losslessDrops++;
        }
        else
        {
            q.stats.lossyDrops++;
        }
        return;
    }
    if (m_cfg.ecn && lossless)
    {
        if (red_apply(&o->red, q.bytes, &m_prng, fr.data.data(), len) == RED_MARK)
        {
            q.stats.marked++;
        }
    }
    q.bytes += len;
    q.stats.maxDepth = std::max(q.stats.maxDepth, q.bytes);
    q.frames.push_back(std::move(fr));
    CheckXoff(p, prio);
    Kick(o);
}

/* ECMP: addresses and UDP ports, mixed with the switch's seed. */
int
WrenSwitch::Route(const uint8_t* f, uint32_t len)
{
    if (len < ETH_HDR_LEN + 20 || get_be16(f + 12) != ETHERTYPE_IPV4)
    {
        return -1;
    }
    const uint8_t* ip = f + ETH_HDR_LEN;
    uint32_t sip = get_be32(ip + 12), dip = get_be32(ip + 16);
    auto it = m_routes.find(dip);
    if (it == m_routes.end() || it->second.empty())
    {
        return -1;
    }
    const std::vector<uint32_t>& hops = it->second;
    if (hops.size() == 1)
    {
        return hops[0];
    }
    uint32_t ihl = (ip[0] & 0xf) * 4;
    uint32_t ports = 0;
    if (ip[9] == 17 && len >= ETH_HDR_LEN + ihl + 4)
    {
        ports = get_be32(ip + ihl);
    }
    uint64_t h = m_cfg.seed * 0x9e3779b97f4a7c15ull + m_id;
    for (uint64_t v : {uint64_t(sip), uint64_t(dip), uint64_t(ports)})
    {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    return hops[h % hops.size()];
}

uint64_t
WrenSwitch::Threshold() const
{
    uint64_t fixed = m_headroomTotal + m_reserveTotal + m_shared;
    uint64_t free = m_cfg.bufferBytes > fixed ? m_cfg.bufferBytes - fixed : 0;
    return free >> m_cfg.alphaShift;
}

static uint64_t
SharedPart(uint64_t bytes, uint32_t reserve)
{
    return bytes > reserve ? bytes - reserve : 0;
}

bool
WrenSwitch::Admit(Port* in, uint8_t prio, uint32_t len, bool* headroom)
{
    Ingress& g = in->in[prio];
    uint64_t before = SharedPart(g.bytes, m_cfg.reserveBytes);
    uint64_t after = SharedPart(g.bytes + len, m_cfg.reserveBytes);
    bool lossless = m_cfg.losslessMask & (1u << prio);

    /* Once in headroom, stay there until XON: the order is kept. */
    if (!(lossless && g.headroom) && (after == before || after <= Threshold()))
    {
        g.bytes += len;
        m_shared += after - before;
        *headroom = false;
        return true;
    }
    if (lossless && g.headroom + len <= in->headroomBytes)
    {
        g.headroom += len;
        *headroom = true;
        return true;
    }
    return false;
}

void
WrenSwitch::Release(const Frame& fr)
{
    Port* in = m_ports[fr.inPort].get();
    Ingress& g = in->in[fr.prio];
    uint32_t len = fr.data.size();

    if (fr.headroom)
    {
        g.headroom -= len;
    }
    else
    {
        uint64_t before = SharedPart(g.bytes, m_cfg.reserveBytes);
        g.bytes -= len;
        m_shared -= before - SharedPart(g.bytes, m_cfg.reserveBytes);
    }
    if (g.xoff && !g.headroom &&
        SharedPart(g.bytes, m_cfg.reserveBytes) + m_cfg.resumeOffset <= Threshold())
    {
        g.xoff = false;
        g.xoffTime += WrenNow() - g.xoffSince;
        g.refresh.Cancel();
        SendPfc(in, fr.prio, 0);
    }
}

void
WrenSwitch::CheckXoff(Port* in, uint8_t prio)
{
    Ingress& g = in->in[prio];

    if (g.xoff || !(m_cfg.losslessMask & (1u << prio)))
    {
        return;
    }
    if (g.headroom || SharedPart(g.bytes, m_cfg.reserveBytes) >= Threshold())
    {
        g.xoff = true;
        g.xoffSince = WrenNow();
        SendPfc(in, prio, PFC_MAX_QUANTA);
        g.refresh = Simulator::Schedule(WrenLag() + QuantaTime(in, PFC_MAX_QUANTA) / 2,
                                        &WrenSwitch::Refresh,
                                        this,
                                        in->index,
                                        prio);
    }
}

void
WrenSwitch::Refresh(uint32_t port, uint8_t prio)
{
    Port* p = m_ports[port].get();

    if (!p->in[prio].xoff)
    {
        return;
    }
    SendPfc(p, prio, PFC_MAX_QUANTA);
    p->in[prio].refresh = Simulator::Schedule(WrenLag() + QuantaTime(p, PFC_MAX_QUANTA) / 2,
                                              &WrenSwitch::Refresh,
                                              this,
                                              port,
                                              prio);
}

void
WrenSwitch::SendPfc(Port* p, uint8_t prio, uint16_t quanta)
{
    uint16_t q[FABRIC_PRIOS] = {};
    std::vector<uint8_t> f(PFC_FRAME_LEN);

    q[prio] = quanta;
    pfc_frame_build(f.data(), p->mac, static_cast<uint8_t>(1u << prio), q);
    p->ctrl.push_back(std::move(f));
    p->q[prio].stats.pfcSent++;
    Kick(p);
}

void
WrenSwitch::PauseReceived(Port* p, const struct mac_ctrl& c)
{
    Time now = WrenNow();

    if (c.kind != MAC_CTRL_PFC && c.kind != MAC_CTRL_PAUSE)
    {
        return;
    }
    for (uint8_t prio = 0; prio < FABRIC_PRIOS; prio++)
    {
        bool named = c.kind == MAC_CTRL_PAUSE || (c.class_enable & (1u << prio));
        if (!named)
        {
            continue;
        }
        uint16_t quanta = c.kind == MAC_CTRL_PAUSE ? c.quanta[0] : c.quanta[prio];
        Queue& q = p->q[prio];
        q.stats.pfcReceived++;
        if (quanta)
        {
            q.lastPause = now;
        }
        if (q.storm)
        {
            continue; /* the watchdog ignores it */
        }
        bool continuing = q.paused && q.pausedUntil > now;
        q.pausedUntil = now + QuantaTime(p, quanta);
        if (!quanta)
        {
            q.paused = false;
            Kick(p);
            continue;
        }
        if (!continuing)
        {
            q.stormSince = now;
        }
        q.paused = true;
        /* Back when it ends (an XON or a refresh may come first). */
        Simulator::Schedule(WrenLag() + q.pausedUntil - now, &WrenSwitch::Kick, this, p);
        if (m_cfg.watchdog && (m_cfg.losslessMask & (1u << prio)) && !continuing)
        {
            Simulator::Schedule(WrenLag() + m_cfg.wdDetect, &WrenSwitch::Watchdog, this, p, prio);
        }
    }
}

void
WrenSwitch::Watchdog(Port* p, uint8_t prio)
{
    Queue& q = p->q[prio];
    Time now = WrenNow();

    if (q.storm)
    {
        /* Restored once no pause came for the restore time. */
        if (now - q.lastPause >= m_cfg.wdRestore)
        {
            q.storm = false;
            q.paused = false;
            q.pausedUntil = now;
            Kick(p);
        }
        else
        {
            Simulator::Schedule(WrenLag() + m_cfg.wdRestore / 4, &WrenSwitch::Watchdog, this, p, prio);
        }
        return;
    }
    if (!q.paused || q.pausedUntil <= now)
    {
        return; /* the pause ended; the next one starts its own watch */
    }
    if (now - q.stormSince < m_cfg.wdDetect || q.frames.empty())
    {
        Simulator::Schedule(WrenLag() + m_cfg.wdDetect / 4, &WrenSwitch::Watchdog, this, p, prio);
        return;
    }
    /* A storm: what waits is dropped, and so is what comes until restore. */
    q.storm = true;
    q.stats.storms++;
    while (!q.frames.empty())
    {
        Release(q.frames.front());
        q.bytes -= q.frames.front().data.size();
        q.stats.wdDrops++;
        q.frames.pop_front();
    }
    Simulator::Schedule(WrenLag() + m_cfg.wdRestore / 4, &WrenSwitch::Watchdog, this, p, prio);
}

void
WrenSwitch::Kick(Port* p)
{
    if (p->txEvent.IsRunning())
    {
        return;
    }
    Time now = WrenNow();
    Time at = p->busyUntil > now ? p->busyUntil - now : Time(0);
    p->txEvent = Simulator::Schedule(WrenLag() + at, &WrenSwitch::Transmit, this, p->index);
}

int
WrenSwitch::Pick(Port* p)
{
    Time now = WrenNow();
    auto ready = [&](uint8_t prio) {
        const Queue& q = p->q[prio];
        return !q.frames.empty() && (q.storm || q.pausedUntil <= now);
    };

    for (int prio = FABRIC_PRIOS - 1; prio >= 0; prio--)
    {
        if ((m_cfg.strictMask & (1u << prio)) && ready(prio))
        {
            return prio;
        }
    }
    for (int visit = 0; visit < 2 * FABRIC_PRIOS; visit++)
    {
        uint8_t prio = p->drrNext;
        Queue& q = p->q[prio];
        if (!(m_cfg.strictMask & (1u << prio)) && ready(prio))
        {
            uint32_t len = q.frames.front().data.size();
            if (q.deficit < len)
            {
                q.deficit += kDrrQuantum;
            }
            if (q.deficit >= len)
            {
                q.deficit -= len;
                return prio;
            }
        }
        else
        {
            q.deficit = 0;
        }
        p->drrNext = (prio + 1) % FABRIC_PRIOS;
    }
    return -1;
}

void
WrenSwitch::Transmit(uint32_t port)
{
    Port* p = m_ports[port].get();
    Time now = WrenNow();
    std::vector<uint8_t> out;

    if (p->busyUntil > now)
    {
        Kick(p);
        return;
    }
    if (!p->ctrl.empty())
    {
        out = std::move(p->ctrl.front());
        p->ctrl.pop_front();
    }
    else
    {
        int prio = Pick(p);
        if (prio < 0)
        {
            return; /* a new frame, a pause's end or XON kicks it again */
        }
        Queue& q = p->q[prio];
        Frame fr = std::move(q.frames.front());
        q.frames.pop_front();
        q.bytes -= fr.data.size();
        q.stats.txFrames++;
        q.stats.txBytes += fr.data.size();
        Release(fr);
        if (m_txTrace)
        {
            m_txTrace(port, fr.prio, fr.data.data(), fr.data.size());
        }
        out = std::move(fr.data);
    }
    p->busyUntil = now + NanoSeconds(WrenTxNs(p->rateBps, out.size() + kWireOverheadBytes));
    p->channel->Transmit(p, out.data(), out.size());
    p->txEvent = Simulator::Schedule(WrenLag() + p->busyUntil - now, &WrenSwitch::Transmit, this, port);
}

} // namespace ns3
