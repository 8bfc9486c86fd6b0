// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * E5, PFC deadlock on a ring: three switches in a ring, a host on each,
 * 100 Gb/s and 1 us everywhere, PFC on priority 3, no ECN (PFC alone),
 * small switch buffers (@buffer-kb).  Each host sends to the host two
 * switches on, clockwise, over @qps QPs at once, so every ring link
 * carries two flows: a cyclic buffer dependency.  Four runs:
 *
 *   deadlock  static clockwise routes: the ring locks; throughput falls
 *             to 0 and stays 0 for >= 500 ms (past the senders giving
 *             up), and the cycle of paused links is found and printed;
 *   watchdog  the same with the switches' PFC watchdog (200 ms detect,
 *             200 ms restore): traffic resumes within 400 ms of the lock,
 *             and the watchdog's lossless drops are counted;
 *   shortest  loop-free routing (each flow one hop, the short way): no
 *             cycle forms;
 *   light     the clockwise routes at 40 % load (each host's priority 3
 *             capped at 40 Gb/s): no link is oversubscribed, no deadlock.
 *
 *   make sim-e5 [E5_ARGS="--qps=8"]
 */
#include "report.h"
#include "wren-topology.h"

#include "ns3/core-module.h"

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
    uint64_t events = 0;
    double simS = 0;
    std::vector<uint32_t> cycle; /* switch ids, first again at the end */
    double lockMs = -1;          /* when the cycle was first seen */
    double zeroMs = 0;           /* longest run of 10 ms bins with no byte */
    double resumeMs = -1;        /* after the lock, first bin with bytes */
    uint64_t wdDrops = 0, storms = 0, lossless = 0, pfc = 0;
    uint64_t delivered = 0;
    uint32_t failedFlows = 0;
};

enum Variant
{
    DEADLOCK,
    WATCHDOG,
    SHORTEST,
    LIGHT,
};

Result
Run(Variant v, uint32_t qps, uint32_t bufferKb, double runMs)
{
    const uint64_t rate = 100000000000ull;
    Result res;
    WrenTopology topo;
    WrenSwitchConfig cfg;

    cfg.bufferBytes = uint64_t(bufferKb) << 10;
    cfg.ecn = false;
    cfg.watchdog = v == WATCHDOG;
    if (!topo.AddHosts(3, rate / 1000000))
    {
        return res;
    }
    uint32_t s[3];
    for (auto& id : s)
    {
        id = topo.AddSwitch(cfg);
    }
    for (uint32_t i = 0; i < 3; i++)
    {
        topo.Link(i, s[i], rate, MicroSeconds(1));
    }
    for (uint32_t i = 0; i < 3; i++)
    {
        topo.Link(s[i], s[(i + 1) % 3], rate, MicroSeconds(1));
    }
    topo.ComputeRoutes(); /* each switch's own host, and the short way */
    if (!topo.ShortBuffersMessage().empty())
    {
        res.error = topo.ShortBuffersMessage();
        return res;
    }
    if (v != SHORTEST)
    {
        /* Clockwise: host i's traffic to host i+2 goes s[i] -> s[i+1] -> s[i+2]. */
        for (uint32_t i = 0; i < 3; i++)
        {
            uint32_t dst = (i + 2) % 3;
            topo.SetRoute(s[i], dst, s[(i + 1) % 3]);
            topo.SetRoute(s[(i + 1) % 3], dst, s[dst]);
        }
    }
    for (uint32_t h = 0; h < 3; h++)
    {
        if (topo.Host(h)->SetLossless(0x08) ||
            (v == LIGHT && topo.Host(h)->SetMaxRate(3, 40000000)))
        {
            return res;
        }
    }
    res.made = true;

    /* Bytes delivered to the hosts, per 10 ms. */
    uint32_t bins = static_cast<uint32_t>(runMs / 10) + 1;
    std::vector<uint64_t> bytes(bins);
    for (uint32_t i = 0; i < 3; i++)
    {
        Ptr<WrenSwitch> sw = topo.Switch(s[i]);
        int hostPort = topo.PortTowards(s[i], i);
        sw->SetTxTrace([&, hostPort](uint32_t port, uint8_t prio, const uint8_t*, uint32_t len) {
            uint32_t b = static_cast<uint32_t>(Simulator::Now().GetSeconds() * 100);
            if (int(port) == hostPort && prio == 3 && b < bins)
            {
                bytes[b] += len;
            }
        });
    }
    for (uint32_t h = 0; h < 3; h++)
    {
        topo.Host(h)->SetFlowDone([&](struct ro_flow* f, uint64_t) { res.failedFlows += f->status != 0; });
        for (uint32_t q = 0; q < qps; q++)
        {
            topo.Host(h)->StartFlow(topo.Host((h + 2) % 3), RO_FLOW_WRITE, 4ull << 30, 3);
        }
    }
    /* Look for a cycle every ms. */
    std::function<void()> look = [&]() {
        if (res.cycle.empty())
        {
            res.cycle = topo.PausedCycle(3);
            if (!res.cycle.empty())
            {
                res.lockMs = Simulator::Now().GetSeconds() * 1000;
            }
        }
        Simulator::Schedule(MilliSeconds(1), look);
    };
    Simulator::Schedule(MilliSeconds(1), look);
    Simulator::Stop(MilliSeconds(1) * runMs);
    Simulator::Run();

    uint32_t run = 0, best = 0;
    for (uint32_t b = 0; b + 1 < bins; b++)
    {
        res.delivered += bytes[b];
        run = bytes[b] ? 0 : run + 1;
        best = std::max(best, run);
        if (res.lockMs >= 0 && res.resumeMs < 0 && b * 10.0 > res.lockMs + 10 && bytes[b])
        {
            res.resumeMs = b * 10.0 - res.lockMs;
        }
    }
    res.zeroMs = best * 10.0;
    for (uint32_t i = 0; i < 3; i++)
    {
        Ptr<WrenSwitch> sw = topo.Switch(s[i]);
        for (uint32_t p = 0; p < sw->GetNPorts(); p++)
        {
            const WrenQueueStats& st = sw->Stats(p, 3);
            res.wdDrops += st.wdDrops;
            res.storms += st.storms;
            res.lossless += st.losslessDrops;
            res.pfc += st.pfcSent;
        }
    }
    res.events = Simulator::GetEventCount();
    res.simS = Simulator::Now().GetSeconds();
    Simulator::Destroy();
    return res;
}

std::string
CycleText(const std::vector<uint32_t>& c, uint32_t firstSwitch)
{
    std::string t;
    for (uint32_t id : c)
    {
        t += (t.empty() ? "S" : " -> S") + std::to_string(id - firstSwitch);
    }
    return t;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t qps = 4, bufferKb = 1024;
    double runMs = 800, flowingMs = 100;
    CommandLine cmd(__FILE__);
    cmd.AddValue("qps", "flows (QPs) a host sends at once", qps);
    cmd.AddValue("buffer-kb", "each switch's shared buffer, KiB", bufferKb);
    cmd.AddValue("run-ms", "simulated ms of the deadlock and watchdog runs", runMs);
    cmd.AddValue("flowing-ms", "simulated ms of the runs that should not lock", flowingMs);
    cmd.Parse(argc, argv);
    Report r;

    Result d = Run(DEADLOCK, qps, bufferKb, runMs);
    if (!d.error.empty())
    {
        std::fprintf(stderr, "e5: %s\n", d.error.c_str());
        return 2;
    }
    r.Figure("e5: ring of 3 switches, 100 Gb/s, 1 us, %u KiB buffers, %u QPs a host, PFC "
             "alone, clockwise routes: lock at %.0f ms, %.1f MB delivered, %llu PFC frames, "
             "%u flows failed (retries exhausted)",
             bufferKb, qps, d.lockMs, d.delivered / 1e6,
             static_cast<unsigned long long>(d.pfc), d.failedFlows);
    r.Figure("e5: paused cycle: %s", d.cycle.empty() ? "none" : CycleText(d.cycle, 3).c_str());
    r.Criterion(d.made && d.cycle.size() == 4,
                "e5: deadlock: a cycle of paused links through all three switches is found");
    r.Criterion(d.made && d.zeroMs >= 500 && d.lossless == 0,
                "e5: deadlock: throughput 0 for %.0f ms, target >= 500 ms; no lossless drop (%llu)",
                d.zeroMs, static_cast<unsigned long long>(d.lossless));

    Result w = Run(WATCHDOG, qps, bufferKb, runMs);
    r.Figure("e5: with the switch watchdog: lock at %.0f ms, traffic again %.0f ms later, "
             "%llu storms, %llu frames dropped by it, %.1f MB delivered",
             w.lockMs, w.resumeMs, static_cast<unsigned long long>(w.storms),
             static_cast<unsigned long long>(w.wdDrops), w.delivered / 1e6);
    r.Criterion(w.made && w.lockMs >= 0 && w.resumeMs >= 0 && w.resumeMs <= 400 && w.wdDrops > 0,
                "e5: watchdog: traffic resumes %.0f ms after the lock, target <= 400 ms; its "
                "drops counted (%llu)",
                w.resumeMs, static_cast<unsigned long long>(w.wdDrops));

    Result sp = Run(SHORTEST, qps, bufferKb, flowingMs);
    r.Figure("e5: shortest paths, %.0f ms: %.1f MB delivered, %llu PFC frames, cycle: %s",
             flowingMs, sp.delivered / 1e6, static_cast<unsigned long long>(sp.pfc),
             sp.cycle.empty() ? "none" : CycleText(sp.cycle, 3).c_str());
    r.Criterion(sp.made && sp.cycle.empty() && sp.zeroMs == 0,
                "e5: loop-free routing: no cycle, traffic never stops");

    Result l = Run(LIGHT, qps, bufferKb, flowingMs);
    r.Figure("e5: 40 %% load, %.0f ms: %.1f MB delivered, %llu PFC frames, cycle: %s",
             flowingMs, l.delivered / 1e6, static_cast<unsigned long long>(l.pfc),
             l.cycle.empty() ? "none" : CycleText(l.cycle, 3).c_str());
    r.Criterion(l.made && l.cycle.empty() && l.zeroMs == 0,
                "e5: lighter load on the same routes: no deadlock");
    r.Speed("e5", d.events + w.events + sp.events + l.events, d.simS + w.simS + sp.simS + l.simS);
    return r.Done();
}
