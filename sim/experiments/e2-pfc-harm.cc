// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * E2, PFC's harm and DCQCN's cure (the DCQCN paper's section 2) on a
 * 3-tier mini-Clos at 40 Gb/s: ToRs T0 and T1 under leaf L0, ToR T2
 * under leaf L1, a spine S joining the leaves; 1 us links, 12 MB switch
 * buffers (a Trident II's), priority 3 lossless.
 *
 *   - incast: @incast senders on T1 and one sender A on T0 all send to R
 *     on T0; the T1 senders share T0's one port from L0, A is alone on its
 *     own port;
 *   - victim: V on T1 sends to W on T2; its path shares only T1 -> L0 with
 *     the incast, and its own bottleneck is that link: its max-min fair
 *     share is what the incast leaves of it, 40 / (incast + 1) Gb/s.
 *
 * Each sender runs @qps QPs.  With PFC alone (no ECN): A gets >= 2x each
 * T1 sender (the parking lot), and V < 50 % of its share once >= 4
 * incast senders run.  With DCQCN (@profile): Jain >= 0.95 among the
 * incast senders, V >= 80 % of its share, and >= 10x fewer PFC frames.
 *
 *   make sim-e2 [E2_ARGS="--incast=16 --profile=hpcc"]
 */
#include "report.h"
#include "wren-topology.h"

#include "ns3/core-module.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Result
{
    bool made = false;
    std::string error; /* why it was not made, for the user */
    std::vector<double> incastGbps; /* the T1 senders */
    double aGbps = 0, victimGbps = 0;
    uint64_t pfc = 0, lossless = 0, events = 0;
    double simS = 0;
};

Result
Run(uint32_t incast, uint32_t qps, bool dcqcn, enum ro_cc_profile profile, double warmMs, double measureMs)
{
    const uint64_t rate = 40000000000ull;
    Result res;
    WrenTopology topo;
    WrenSwitchConfig cfg;

    cfg.bufferBytes = 12ull << 20;
    /* RED as HPCC sets it, scaled to 40 Gb/s: 160 KB, 640 KB, 0.2. */
    cfg.ecn = dcqcn;
    /* Hosts: 0 R, 1 A (T0); 2 .. incast+1 the T1 senders; then V (T1), W (T2). */
    uint32_t nHosts = incast + 4, r = 0, a = 1, v = incast + 2, w = incast + 3;
    if (!topo.AddHosts(nHosts, rate / 1000000))
    {
        return res;
    }
    uint32_t t0 = topo.AddSwitch(cfg), t1 = topo.AddSwitch(cfg), t2 = topo.AddSwitch(cfg);
    uint32_t l0 = topo.AddSwitch(cfg), l1 = topo.AddSwitch(cfg), s = topo.AddSwitch(cfg);
    Time d = MicroSeconds(1);
    topo.Link(r, t0, rate, d);
    topo.Link(a, t0, rate, d);
    for (uint32_t i = 0; i < incast; i++)
    {
        topo.Link(2 + i, t1, rate, d);
    }
    topo.Link(v, t1, rate, d);
    topo.Link(w, t2, rate, d);
    topo.Link(t0, l0, rate, d);
    topo.Link(t1, l0, rate, d);
    topo.Link(t2, l1, rate, d);
    topo.Link(l0, s, rate, d);
    topo.Link(l1, s, rate, d);
    topo.ComputeRoutes();
    if (!topo.ShortBuffersMessage().empty())
    {
        res.error = topo.ShortBuffersMessage();
        return res;
    }
    for (uint32_t h = 0; h < nHosts; h++)
    {
        if (topo.Host(h)->SetLossless(0x08) || (dcqcn && topo.Host(h)->SetCc(profile, 0x08)))
        {
            return res;
        }
    }
    res.made = true;

    /* Payload bytes per sender in the measured window, at the last hop. */
    std::vector<uint64_t> bytes(nHosts);
    double t0Ms = warmMs, t1Ms = warmMs + measureMs;
    auto meter = [&](uint32_t sw, uint32_t host) {
        int port = topo.PortTowards(sw, host);
        topo.Switch(sw)->SetTxTrace([&, port](uint32_t p, uint8_t prio, const uint8_t* f, uint32_t len) {
            double now = Simulator::Now().GetSeconds() * 1000;
            if (int(p) != port || prio != 3 || len <= kRoceV2HeaderBytes || now < t0Ms || now >= t1Ms)
            {
                return;
            }
            uint32_t sip = (uint32_t(f[26]) << 24) | (f[27] << 16) | (f[28] << 8) | f[29];
            uint32_t i = sip - WrenTopology::HostIp(0);
            if (i < bytes.size())
            {
                bytes[i] += len - kRoceV2HeaderBytes;
            }
        });
    };
    meter(t0, r);
    meter(t2, w);
    for (uint32_t h = 1; h <= incast + 1; h++)
    {
        for (uint32_t q = 0; q < qps; q++)
        {
            topo.Host(h)->StartFlow(topo.Host(r), RO_FLOW_WRITE, 64ull << 30, 3);
        }
    }
    for (uint32_t q = 0; q < qps; q++)
    {
        topo.Host(v)->StartFlow(topo.Host(w), RO_FLOW_WRITE, 64ull << 30, 3);
    }
    Simulator::Stop(MilliSeconds(1) * t1Ms);
    Simulator::Run();
    auto gbps = [&](uint32_t h) { return bytes[h] * 8 / (measureMs * 1e-3) / 1e9; };
    res.aGbps = gbps(a);
    for (uint32_t i = 0; i < incast; i++)
    {
        res.incastGbps.push_back(gbps(2 + i));
    }
    res.victimGbps = gbps(v);
    for (uint32_t id : {t0, t1, t2, l0, l1, s})
    {
        Ptr<WrenSwitch> sw = topo.Switch(id);
        for (uint32_t p = 0; p < sw->GetNPorts(); p++)
        {
            res.pfc += sw->Stats(p, 3).pfcSent;
            res.lossless += sw->Stats(p, 3).losslessDrops;
        }
    }
    res.events = Simulator::GetEventCount();
    res.simS = Simulator::Now().GetSeconds();
    Simulator::Destroy();
    return res;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t incast = 8, qps = 4;
    double warmMs = 20, measureMs = 20;
    std::string profile = "paper";
    CommandLine cmd(__FILE__);
    cmd.AddValue("incast", "senders on T1 to R", incast);
    cmd.AddValue("qps", "QPs a sender runs", qps);
    cmd.AddValue("warm-ms", "ms before measuring", warmMs);
    cmd.AddValue("measure-ms", "ms measured", measureMs);
    cmd.AddValue("profile", "DCQCN profile: mlx5, paper or hpcc", profile);
    cmd.Parse(argc, argv);
    Report r;
    enum ro_cc_profile cc = profile == "hpcc"   ? RO_CC_HPCC
                            : profile == "mlx5" ? RO_CC_MLX5
                                                : RO_CC_PAPER;
    double share = WrenNetDevice::PayloadRate(40e9) / 1e9 / (incast + 1);

    Result p = Run(incast, qps, false, cc, warmMs, measureMs);
    Result d = Run(incast, qps, true, cc, warmMs, measureMs);
    if (!p.error.empty())
    {
        std::fprintf(stderr, "e2: %s\n", p.error.c_str());
        return 2;
    }
    for (const Result* x : {&p, &d})
    {
        r.Figure("e2: %s, %u incast senders x %u QPs, 40 Gb/s: A %.2f Gb/s, T1 senders %.2f "
                 "Gb/s each on average (Jain %.3f), victim %.2f Gb/s of a %.2f share; %llu PFC "
                 "frames, %llu lossless drops",
                 x == &p ? "PFC alone" : ("DCQCN " + profile).c_str(), incast, qps, x->aGbps,
                 Mean(x->incastGbps), Jain(x->incastGbps), x->victimGbps, share,
                 static_cast<unsigned long long>(x->pfc),
                 static_cast<unsigned long long>(x->lossless));
    }
    double ratio = Mean(p.incastGbps) > 0 ? p.aGbps / Mean(p.incastGbps) : 0;
    r.Criterion(p.made && ratio >= 2,
                "e2: PFC alone: the sender alone on its port gets %.2fx each T1 sender, "
                "target >= 2x",
                ratio);
    r.Criterion(p.made && incast >= 4 && p.victimGbps < 0.5 * share,
                "e2: PFC alone: the victim gets %.0f %% of its max-min share, target < 50 %% "
                "(with >= 4 incast senders)",
                100 * p.victimGbps / share);
    r.Criterion(d.made && Jain(d.incastGbps) >= 0.95,
                "e2: DCQCN: Jain's index among the incast senders %.3f, target >= 0.95",
                Jain(d.incastGbps));
    r.Criterion(d.made && d.victimGbps >= 0.8 * share,
                "e2: DCQCN: the victim gets %.0f %% of its share, target >= 80 %%",
                100 * d.victimGbps / share);
    r.Criterion(d.made && p.pfc > 0 && d.pfc * 10 <= p.pfc,
                "e2: DCQCN sends %llu PFC frames against PFC alone's %llu, target >= 10x fewer",
                static_cast<unsigned long long>(d.pfc), static_cast<unsigned long long>(p.pfc));
    r.Speed("e2", p.events + d.events, p.simS + d.simS);
    return r.Done();
}
