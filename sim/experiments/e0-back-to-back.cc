// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * E0: two Wren NICs back to back at 100 Gb/s over a 1 us link.
 *
 * One RC WRITE flow; its goodput against the payload line rate (what the
 * wire carries of a 4096-byte MTU's frames once headers, ICRC, preamble,
 * FCS and gap are paid).  Target: at least 95 %.
 *
 * Then a CE-marked stream for each published DCQCN profile: the receiver
 * marks what arrives as RED would at a virtual 50 Gb/s bottleneck, so it
 * sends CNPs and the sender's reaction point cuts, recovers and cuts
 * again.  The sender's QP is read with QUERY_QP every microsecond (Rc,
 * Rt, alpha); the CNPs it received and the frames it sent are fed, at
 * the nanosecond they happened, to the reference the host tests check
 * the DCQCN state machine against (hw/host dcqcn_ref.h).  Target: every
 * reading equals the reference's; the first difference is printed.
 *
 *   make sim-e0 [E0_ARGS="--mib=64 --cc-mib=128"]
 */
#include "report.h"
#include "wren-net-device.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <malloc.h>
#include <string>
#include <vector>

extern "C"
{
#include "dcqcn_ref.h"
#include "ecn.h"
#include "prng.h"
}

using namespace ns3;

namespace
{

/* RoCEv2 over untagged IPv4: the BTH's opcode and destination QP. */
constexpr uint32_t kBth = 14 + 20 + 8;
constexpr uint8_t kOpCnp = 0x81;
constexpr uint8_t kOpAck = 0x11;

bool
RoceFrame(const uint8_t* f, uint32_t len, uint8_t* op, uint32_t* dqp)
{
    if (len < kBth + 12 || f[12] != 0x08 || f[13] != 0x00 || f[23] != 17 || f[36] != 0x12 ||
        f[37] != 0xb7)
    {
        return false;
    }
    *op = f[kBth];
    *dqp = (uint32_t(f[kBth + 5]) << 16) | (f[kBth + 6] << 8) | f[kBth + 7];
    return true;
}

/*
 * A NIC whose received frames pass a hook first: it may change them (set
 * CE) or note them.  The model itself is WrenNetDevice's.
 */
class HookedNic : public WrenNetDevice
{
  public:
    using Hook = std::function<void(uint8_t* frame, uint32_t len)>;

    void SetRxHook(Hook h)
    {
        m_hook = std::move(h);
    }

    void ReceiveFrame(const uint8_t* frame, uint32_t len) override
    {
        if (!m_hook)
        {
            WrenNetDevice::ReceiveFrame(frame, len);
            return;
        }
        m_buf.assign(frame, frame + len);
        m_hook(m_buf.data(), len);
        WrenNetDevice::ReceiveFrame(m_buf.data(), len);
    }

  private:
    Hook m_hook;
    std::vector<uint8_t> m_buf;
};

/* What happened to the sender's QP, in the order it happened. */
struct Input
{
    enum Kind : uint8_t
    {
        kCnp,
        kSent,
        kRead,
    } kind;
    uint64_t ns;
    uint32_t bytes;    /* kSent */
    bool queued;       /* kSent: started as the one before ended: may have waited */
    bool active;       /* kRead: QUERY_QP's */
    uint32_t rc, rt, alpha;
};

/* The host stub's frame hook of the sender, chained. */
struct TxTap
{
    void (*next)(void*, const void*, size_t);
    void* nextCtx;
    std::function<void(const uint8_t*, uint32_t)> note;

    static void Hook(void* ctx, const void* frame, size_t len)
    {
        auto* t = static_cast<TxTap*>(ctx);
        if (t->note)
        {
            t->note(static_cast<const uint8_t*>(frame), static_cast<uint32_t>(len));
        }
        t->next(t->nextCtx, frame, len);
    }
};

struct Replay
{
    uint64_t reads = 0, cnps = 0, frames = 0;
    uint64_t timerEvents = 0, byteEvents = 0;
    unsigned int cuts = 0, ignored = 0, recovered = 0;
    uint64_t minRc = UINT64_MAX, maxAlpha = 0;
    bool diverged = false;
    std::string first;
    /*
     * A byte-counter event on a frame that may have waited in the port:
     * when the NIC counted it is not seen, the comparison ends there.
     */
    uint64_t unseenNs = 0;
};

/*
 * Steps the reference through every nanosecond from the first input to
 * the last, applying the inputs in their order, and compares it with
 * every reading.
 */
Replay
RunReference(const std::vector<Input>& in, const struct dcqcn_ref_params& p)
{
    Replay out;
    struct dcqcn_ref r;
    std::memset(&r, 0, sizeof(r));
    if (in.empty())
    {
        return out;
    }
    uint64_t tick = in.front().ns;
    dcqcn_ref_tick(&r, &p, tick);
    for (const Input& e : in)
    {
        if (out.unseenNs)
        {
            break;
        }
        while (tick < e.ns)
        {
            uint64_t t = r.t;
            dcqcn_ref_tick(&r, &p, ++tick);
            out.timerEvents += r.t != t;
        }
        switch (e.kind)
        {
        case Input::kCnp:
            dcqcn_ref_cnp(&r, &p, tick);
            out.cnps++;
            break;
        case Input::kSent:
        {
            uint64_t bc = r.bc;
            dcqcn_ref_send(&r, &p, e.bytes);
            out.byteEvents += r.bc > bc ? r.bc - bc : 0;
            out.frames++;
            if (r.bc > bc && e.queued && !out.unseenNs)
            {
                out.unseenNs = e.ns;
            }
            break;
        }
        case Input::kRead:
            out.reads++;
            if (r.active)
            {
                out.minRc = std::min<uint64_t>(out.minRc, r.rc);
                out.maxAlpha = std::max<uint64_t>(out.maxAlpha, r.alpha);
            }
            if (!out.diverged &&
                (e.active != r.active ||
                 (r.active && (e.rc != r.rc || e.rt != r.rt || e.alpha != r.alpha))))
            {
                char b[256];
                std::snprintf(b, sizeof(b),
                              "at %.3f us: reference %s Rc %llu Rt %llu alpha %llu, "
                              "QUERY_QP %s Rc %u Rt %u alpha %u",
                              e.ns / 1e3, r.active ? "limited" : "not limited",
                              static_cast<unsigned long long>(r.rc),
                              static_cast<unsigned long long>(r.rt),
                              static_cast<unsigned long long>(r.alpha),
                              e.active ? "limited" : "not limited", e.rc, e.rt, e.alpha);
                out.first = b;
                out.diverged = true;
            }
            break;
        }
    }
    out.cuts = r.cuts;
    out.ignored = r.ignored;
    out.recovered = r.recovered;
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t mib = 64;
    uint32_t ccMib = 128;
    uint32_t linkMbps = 100000;
    double bottleneckGbps = 50;
    double markMs = 4;
    CommandLine cmd(__FILE__);
    cmd.AddValue("mib", "flow size in MiB", mib);
    cmd.AddValue("cc-mib", "size of each CE-marked stream in MiB", ccMib);
    cmd.AddValue("bottleneck-gbps", "the virtual bottleneck the receiver marks at", bottleneckGbps);
    cmd.AddValue("mark-ms", "ms of each stream the receiver marks in", markMs);
    cmd.Parse(argc, argv);
    Report r;

    /* In use: small blocks and the mmap()ed large ones (hblkhd). */
    auto heap = [] {
        struct mallinfo2 m = mallinfo2();
        return m.uordblks + m.hblkhd;
    };
    size_t heap0 = heap();
    NodeContainer nodes;
    nodes.Create(2);
    Ptr<WrenChannel> ch = CreateObject<WrenChannel>();
    ch->SetAttribute("DataRate", DataRateValue(DataRate(uint64_t(linkMbps) * 1000000)));
    ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
    Ptr<HookedNic> nic[2];
    for (int i = 0; i < 2; i++)
    {
        nic[i] = CreateObject<HookedNic>();
        nodes.Get(i)->AddDevice(nic[i]);
        if (!nic[i]->Setup(i + 1, linkMbps))
        {
            std::fprintf(stderr, "e0: NIC %d could not be made\n", i);
            return 1;
        }
        nic[i]->Attach(ch);
    }
    ch->Connect(PeekPointer(nic[0]), nic[0], PeekPointer(nic[1]), nic[1]);

    uint64_t bytes = uint64_t(mib) << 20;
    int64_t fctNs = -1;
    int status = -1;
    nic[0]->SetFlowDone([&](struct ro_flow* f, uint64_t) {
        fctNs = static_cast<int64_t>(f->end_ns - f->start_ns);
        status = f->status;
        Simulator::Stop();
    });
    if (!nic[0]->StartFlow(nic[1], RO_FLOW_WRITE, bytes, 3))
    {
        std::fprintf(stderr, "e0: the flow could not start\n");
        return 1;
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    /* Both NICs with their hosts, the link and ns-3's nodes, at the end. */
    double perNicMb = (heap() - heap0) / 2.0 / 1e6;

    double payloadRate = WrenNetDevice::PayloadRate(linkMbps * 1e6);
    bool done = fctNs > 0 && status == 0;
    double goodput = done ? bytes * 8.0 / (fctNs * 1e-9) : 0;
    double share = goodput / payloadRate * 100;
    r.Figure("e0: %u MiB RC WRITE, 100 Gb/s, 1 us link, MTU 4096: %s in %.1f us, "
             "goodput %.2f Gb/s, payload line rate %.2f Gb/s",
             mib,
             done ? "done" : "NOT done",
             fctNs / 1e3,
             goodput / 1e9,
             payloadRate / 1e9);
    r.Figure("e0: %llu frames on the link, %.3f ms simulated",
             static_cast<unsigned long long>(ch->GetFrames()),
             Simulator::Now().GetSeconds() * 1e3);
    r.Figure("e0: heap per simulated NIC with its host stub: %.2f MB", perNicMb);
    r.Criterion(done && share >= 95,
                "e0: RC WRITE goodput %.1f %% of the payload line rate, target >= 95 %%",
                share);
    r.Criterion(perNicMb <= 2, "e0: %.2f MB per simulated NIC, target <= 2 MB", perNicMb);

    /*
     * The CE-marked streams.  The receiver's RED: Kmin 10 KB, Kmax 100 KB,
     * Pmax 0.2 on a virtual queue that drains at the bottleneck's rate.
     */
    struct red_config red = {true, false, 10000, 100000, 0.2};
    struct prng prng;
    prng_seed(&prng, 1);
    double vq = 0;
    int64_t vqNs = 0, markFrom = 0;
    bool marking = false;
    uint64_t marked = 0;
    nic[1]->SetRxHook([&](uint8_t* f, uint32_t len) {
        uint8_t op;
        uint32_t dqp;
        int64_t now = Simulator::Now().GetNanoSeconds();
        if (!marking || now - markFrom >= markMs * 1e6 || !RoceFrame(f, len, &op, &dqp) ||
            op == kOpAck || op == kOpCnp)
        {
            return;
        }
        vq = std::max(0.0, vq - (now - vqNs) * bottleneckGbps / 8);
        vqNs = now;
        marked += red_apply(&red, static_cast<uint64_t>(vq), &prng, f, len) == RED_MARK;
        vq += len + kWireOverheadBytes;
    });

    struct th* h0 = nic[0]->GetNic()->d->h;
    TxTap tap{h0->tx_hook, h0->tx_ctx, nullptr};
    h0->tx_hook = &TxTap::Hook;
    h0->tx_ctx = &tap;
    std::vector<Input> log;
    uint64_t wireFreePs = 0;
    uint32_t sqpn = 0, dqpn = 0;
    tap.note = [&](const uint8_t* f, uint32_t len) {
        uint8_t op;
        uint32_t dqp;
        if (RoceFrame(f, len, &op, &dqp) && dqp == dqpn && op != kOpCnp && op != kOpAck)
        {
            /*
             * The NIC counts a frame when its port takes it; the wire shows
             * when it started.  The same unless it waited behind another.
             */
            uint64_t ps = h0->now_ns * 1000;
            bool queued = ps <= wireFreePs + 1000;
            wireFreePs = ps + (len + kWireOverheadBytes) * 8000000ull / linkMbps;
            log.push_back({Input::kSent, h0->now_ns, len, queued, false, 0, 0, 0});
        }
    };
    nic[0]->SetRxHook([&](uint8_t* f, uint32_t len) {
        uint8_t op;
        uint32_t dqp;
        if (RoceFrame(f, len, &op, &dqp) && op == kOpCnp && dqp == sqpn)
        {
            log.push_back({Input::kCnp,
                           static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()),
                           0, false, false, 0, 0, 0});
        }
    });
    /* QUERY_QP at ns-3's time, as the device's own calls set it. */
    EventId nextRead;
    std::function<void()> read = [&]() {
        struct wren_query_qp_out o;
        std::memset(&o, 0, sizeof(o));
        h0->now_ns = Simulator::Now().GetNanoSeconds();
        td_handle_cmd(nic[0]->GetNic()->d, WREN_AQ_OP_QUERY_QP, sqpn, &o, sizeof(o));
        log.push_back({Input::kRead, h0->now_ns, 0, false, (o.cc_flags & WREN_QP_CC_RP_ACTIVE) != 0,
                       o.cc_rate_kbps, o.cc_target_kbps, o.cc_alpha});
        nextRead = Simulator::Schedule(MicroSeconds(1), read);
    };
    nic[0]->SetFlowDone([&](struct ro_flow* f, uint64_t) {
        nextRead.Cancel();
        fctNs = static_cast<int64_t>(f->end_ns - f->start_ns);
        status = f->status;
        Simulator::Stop();
    });

    const struct
    {
        enum ro_cc_profile cc;
        const char* name;
    } profiles[] = {{RO_CC_PAPER, "paper"}, {RO_CC_HPCC, "HPCC"}};
    for (const auto& pr : profiles)
    {
        /* DSCP trust, as a lossless port: the receiver knows the priority. */
        if (nic[0]->SetLossless(0x08) || nic[1]->SetLossless(0x08) ||
            nic[0]->SetCc(pr.cc, 0x08) || nic[1]->SetCc(pr.cc, 0x08))
        {
            std::fprintf(stderr, "e0: SET_PFC, SET_TRUST or SET_CC refused\n");
            return 1;
        }
        log.clear();
        vq = 0;
        vqNs = markFrom = Simulator::Now().GetNanoSeconds();
        marked = 0;
        marking = true;
        fctNs = -1;
        uint64_t t0 = Simulator::Now().GetNanoSeconds();
        struct ro_flow* f = nic[0]->StartFlow(nic[1], RO_FLOW_WRITE, uint64_t(ccMib) << 20, 3);
        if (!f)
        {
            std::fprintf(stderr, "e0: the flow could not start\n");
            return 1;
        }
        sqpn = f->sqp.qpn;
        dqpn = f->dqp.qpn;
        Simulator::ScheduleNow(read);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        marking = false;
        bool ok = fctNs > 0 && status == 0;

        struct wren_cc_params cc;
        struct dcqcn_ref_params p;
        ro_cc_profile(&cc, pr.cc, 0x08, linkMbps);
        dcqcn_ref_params_cc(&p, &cc, linkMbps, 1);
        Replay rp = RunReference(log, p);
        r.Figure("e0: CE-marked stream, %s profile: %u MiB in %.1f us (%.2f Gb/s), RED at a "
                 "virtual %.0f Gb/s bottleneck marked %llu frames",
                 pr.name, ccMib, (Simulator::Now().GetNanoSeconds() - t0) / 1e3,
                 ok ? (uint64_t(ccMib) << 20) * 8.0 / fctNs : 0, bottleneckGbps,
                 static_cast<unsigned long long>(marked));
        r.Figure("e0: %s: %llu CNPs and %llu frames fed to the reference: %u cuts, %u CNPs "
                 "ignored, %llu timer and %llu byte-counter increase events, %u returns to "
                 "full rate; Rc down to %.2f Gb/s, alpha up to %llu/1024",
                 pr.name, static_cast<unsigned long long>(rp.cnps),
                 static_cast<unsigned long long>(rp.frames), rp.cuts, rp.ignored,
                 static_cast<unsigned long long>(rp.timerEvents),
                 static_cast<unsigned long long>(rp.byteEvents), rp.recovered,
                 rp.minRc == UINT64_MAX ? 0 : rp.minRc / 1e6,
                 static_cast<unsigned long long>(rp.maxAlpha));
        if (rp.unseenNs)
        {
            r.Figure("e0: %s: compared up to %.1f us into the stream: there a byte-counter "
                     "event fell on a frame that left back to back with the one before, so "
                     "when the NIC counted it is not seen on the wire",
                     pr.name, (rp.unseenNs - t0) / 1e3);
        }
        if (rp.diverged)
        {
            r.Figure("e0: %s: first difference %s", pr.name, rp.first.c_str());
        }
        r.Criterion(ok && !rp.diverged && rp.cuts > 0 && rp.reads > 0,
                    "e0: CE-marked stream, %s profile: Rc/Rt/alpha from QUERY_QP equal hw/tests' "
                    "DCQCN reference at %llu readings (every us), %u cuts",
                    pr.name, static_cast<unsigned long long>(rp.reads), rp.cuts);
    }
    r.Speed("e0", Simulator::GetEventCount(), Simulator::Now().GetSeconds());
    Simulator::Destroy();
    return r.Done();
}
