// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "wren-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WrenNetDevice");
NS_OBJECT_ENSURE_REGISTERED(WrenNetDevice);

TypeId
WrenNetDevice::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WrenNetDevice")
                            .SetParent<WrenPortDevice>()
                            .AddConstructor<WrenNetDevice>();
    return tid;
}

WrenNetDevice::WrenNetDevice()
    : m_ready(false),
      m_local(true),
      m_linkMbps(0),
      m_processPending(false)
{
    std::memset(&m_nic, 0, sizeof(m_nic));
    std::memset(&m_flows, 0, sizeof(m_flows));
}

WrenNetDevice::~WrenNetDevice()
{
    DoDispose();
}

void
WrenNetDevice::DoDispose()
{
    if (m_ready)
    {
        m_timer.Cancel();
        ro_flow_host_fini(&m_flows);
        ro_node_fini(&m_nic);
        m_ready = false;
    }
    m_sent.clear();
    WrenPortDevice::DoDispose();
}

bool
WrenNetDevice::Setup(uint32_t index, uint32_t linkMbps)
{
    struct ro_conn conn;
    struct wrenhw_config cfg;
    uint8_t gid4[16] = {}, gid6[16] = {};

    std::memset(&conn, 0, sizeof(conn));
    conn.mtu = WREN_MTU_4096; /* kFlowMtu */
    conn.timeout = 14;
    conn.retry = 7;
    conn.rnr_retry = 7;
    conn.min_rnr = 1;
    conn.rd_atomic = 1;
    std::memset(&cfg, 0, sizeof(cfg));
    /* Locally administered, "WR" and the host's index. */
    cfg.mac[0] = 0x02;
    cfg.mac[1] = 0x57;
    cfg.mac[2] = 0x52;
    cfg.mac[3] = static_cast<uint8_t>(index >> 16);
    cfg.mac[4] = static_cast<uint8_t>(index >> 8);
    cfg.mac[5] = static_cast<uint8_t>(index);
    cfg.link_speed_mbps = linkMbps;
    cfg.discrete_clock = 1;
    /* 10.x.y.z, and fe80::x:y:z. */
    gid4[10] = gid4[11] = 0xff;
    gid4[12] = 10;
    gid4[13] = cfg.mac[3];
    gid4[14] = cfg.mac[4];
    gid4[15] = cfg.mac[5];
    gid6[0] = 0xfe;
    gid6[1] = 0x80;
    std::memcpy(gid6 + 13, cfg.mac + 3, 3);
    if (ro_node_init(&m_nic, &cfg, gid4, gid6))
    {
        return false;
    }
    m_linkMbps = linkMbps;
    m_local = !m_node || m_node->GetSystemId() == WrenRank();
    m_address.CopyFrom(cfg.mac);
    struct th* h = m_nic.d->h;
    h->keep_tx = false;
    h->tx_hook = &WrenNetDevice::TxHook;
    h->tx_ctx = this;
    h->timer_hook = &WrenNetDevice::TimerHook;
    h->schedule_hook = &WrenNetDevice::ScheduleHook;
    h->event_ctx = this;
    m_ready = true;
    Sync();
    wrenhw_set_link(h->hw, true, linkMbps);
    td_aeq_count(m_nic.d, 0xff); /* the link's event */
    return ro_flow_host_init(&m_flows, &m_nic, 12, &conn) == 0;
}

int
WrenNetDevice::SetCc(enum ro_cc_profile profile, uint8_t prioMask)
{
    Sync();
    int rc = ro_cc_set(m_nic.d, profile, prioMask, m_linkMbps);
    PollFlows();
    return rc;
}

int
WrenNetDevice::SetLossless(uint8_t pfcEn)
{
    Sync();
    int rc = ro_pfc_set(m_nic.d, pfcEn);
    if (!rc)
    {
        rc = ro_trust_dscp(m_nic.d);
    }
    PollFlows();
    return rc;
}

int
WrenNetDevice::SetMaxRate(uint8_t tc, uint64_t kbps)
{
    Sync();
    int rc = ro_maxrate_set(m_nic.d, tc, kbps);
    PollFlows();
    return rc;
}

void
WrenNetDevice::SetFlowDone(FlowDone cb)
{
    m_flowDone = std::move(cb);
}

static void
FlowEnded(struct ro_flow* f)
{
    static_cast<WrenNetDevice*>(f->ctx)->NotifyFlowDone(f);
}

void
WrenNetDevice::NotifyFlowDone(struct ro_flow* f)
{
    auto it = std::find_if(m_sent.begin(), m_sent.end(), [f](const auto& p) {
        return &p->f == f;
    });
    if (it == m_sent.end())
    {
        return;
    }
    if (m_flowDone)
    {
        m_flowDone(f, (*it)->tag);
    }
    if (!m_flows.defer_release)
    {
        /* Swap with the last: the order of flows in flight does not matter. */
        std::swap(*it, m_sent.back());
        m_sent.pop_back();
    }
}

void
WrenNetDevice::SetDeferRelease(bool defer)
{
    m_flows.defer_release = defer;
}

void
WrenNetDevice::ReleaseFlow(struct ro_flow* f)
{
    auto it = std::find_if(m_sent.begin(), m_sent.end(), [f](const auto& p) {
        return &p->f == f;
    });
    if (it == m_sent.end())
    {
        return;
    }
    Sync();
    f->dst->n->d->h->now_ns = m_nic.d->h->now_ns;
    ro_flow_release(f);
    std::swap(*it, m_sent.back());
    m_sent.pop_back();
}

bool
WrenNetDevice::IsLocal() const
{
    return m_local;
}

struct ro_flow*
WrenNetDevice::StartFlow(Ptr<WrenNetDevice> dst,
                         enum ro_flow_op op,
                         uint64_t bytes,
                         uint8_t prio,
                         uint64_t tag)
{
    auto s = std::make_unique<Sent>();

    Sync();
    dst->Sync();
    if (ro_flow_start(&s->f, &m_flows, &dst->m_flows, op, bytes, prio))
    {
        return nullptr;
    }
    s->f.done_cb = &FlowEnded;
    s->f.ctx = this;
    s->tag = tag;
    m_sent.push_back(std::move(s));
    return &m_sent.back()->f;
}

struct ro_node*
WrenNetDevice::GetNic()
{
    return &m_nic;
}

uint64_t
WrenNetDevice::Counter(uint8_t set, uint32_t index, unsigned int n)
{
    Sync();
    return td_counter(m_nic.d, set, index, n);
}

void
WrenNetDevice::Sync()
{
    m_nic.d->h->now_ns = WrenNowNs();
}

void
WrenNetDevice::PollFlows()
{
    ro_flow_poll(&m_flows);
}

void
WrenNetDevice::TxHook(void* ctx, const void* frame, size_t len)
{
    auto* dev = static_cast<WrenNetDevice*>(ctx);

    /* A NIC another process simulates only keeps its QPs in step. */
    if (dev->m_channel && dev->m_local)
    {
        dev->m_channel->Transmit(dev, static_cast<const uint8_t*>(frame), len);
    }
}

void
WrenNetDevice::TimerHook(void* ctx, uint64_t deadlineNs)
{
    auto* dev = static_cast<WrenNetDevice*>(ctx);
    int64_t now = WrenNowNs();

    dev->m_timer.Cancel();
    if (deadlineNs == UINT64_MAX || !dev->m_local)
    {
        return;
    }
    int64_t at = static_cast<int64_t>(deadlineNs) > now ? static_cast<int64_t>(deadlineNs) : now;
    dev->m_timer = Simulator::Schedule(WrenUntil(at), &WrenNetDevice::TimerFired, dev);
}

void
WrenNetDevice::ScheduleHook(void* ctx)
{
    auto* dev = static_cast<WrenNetDevice*>(ctx);

    if (!dev->m_processPending && dev->m_local)
    {
        dev->m_processPending = true;
        Simulator::ScheduleNow(&WrenNetDevice::Process, dev);
    }
}

void
WrenNetDevice::TimerFired()
{
    struct th* h = m_nic.d->h;

    Sync();
    h->timer_deadline = UINT64_MAX;
    wrenhw_timer_expired(h->hw);
    PollFlows();
}

void
WrenNetDevice::Process()
{
    struct th* h = m_nic.d->h;

    m_processPending = false;
    Sync();
    h->scheduled = false;
    h->process_calls++;
    wrenhw_process(h->hw);
    PollFlows();
}

void
WrenNetDevice::ReceiveFrame(const uint8_t* frame, uint32_t len)
{
    Sync();
    wrenhw_rx_frame(m_nic.d->h->hw, frame, len);
    PollFlows();
}

/* NetDevice: the rest is every Wren link end's (WrenPortDevice). */

bool
WrenNetDevice::SetMtu(const uint16_t mtu)
{
    return mtu == 9000;
}

uint16_t
WrenNetDevice::GetMtu() const
{
    return 9000;
}

} // namespace ns3
