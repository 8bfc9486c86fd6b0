// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * E5, PFC deadlock: two fabrics with a cyclic buffer dependency, PFC on
 * priority 3, no ECN (PFC alone), small switch buffers (@buffer-kb),
 * 100 Gb/s and 1 us everywhere.
 *
 *   ring  three switches in a ring, a host on each; each host sends to
 *         the host two switches on, clockwise, over @qps QPs at once, so
 *         every ring link carries two flows.
 *   clos  a 2x2 Clos (leaves L0, L1, spines S0, S1, two hosts a leaf)
 *         whose link S1-L1 has failed: S1 reaches L1's hosts only by
 *         bouncing down to L0 and up through S0, while L0 still spreads
 *         L1's traffic over both spines (its route not yet withdrawn).
 *         A flow hashed to S1 loops between L0 and S1 until its TTL runs
 *         out; each host on L0 sends to each on L1 over @qps QPs.
 *
 * Four runs of each:
 *
 *   deadlock  the routes above: the fabric locks; throughput falls to 0
 *             and stays 0 for >= 500 ms (past the senders giving up),
 *             and the cycle of paused links is found and printed;
 *   watchdog  the same with the switches' PFC watchdog (200 ms detect,
 *             200 ms restore): traffic resumes within 400 ms of the lock,
 *             and the watchdog's lossless drops are counted;
 *   loopfree  loop-free routing (ring: each flow one hop, the short way;
 *             Clos: the routes once L0 has withdrawn S1): no cycle forms;
 *   light     the deadlock's routes at light load (ring: each host's
 *             priority 3 capped at 40 Gb/s, no link oversubscribed;
 *             Clos: at 1 Gb/s, so that 32 laps of a loop fit a link): no
 *             deadlock.
 *
 *   make sim-e5 [E5_ARGS="--fabric=clos --qps=8"]
 */
#include "report.h"
#include "wren-topology.h"

#include "ns3/core-module.h"

#include <algorithm>
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
    uint64_t wdDrops = 0, storms = 0, lossless = 0, pfc = 0, ttl = 0;
    uint64_t delivered = 0;
    uint32_t failedFlows = 0;
    std::vector<uint64_t> bins; /* bytes delivered per 10 ms */
};

enum Fabric
{
    RING,
    CLOS,
};

enum Variant
{
    DEADLOCK,
    WATCHDOG,
    LOOPFREE,
    LIGHT,
};

/* A fabric built: its switches, and which host sends to which. */
struct Built
{
    std::vector<uint32_t> switches;
    std::vector<std::pair<uint32_t, uint32_t>> flows; /* (src, dst) host */
    uint32_t lightMbps = 0;                           /* LIGHT's cap a host */
};

bool
BuildRing(WrenTopology& topo, const WrenSwitchConfig& cfg, Variant v, Built* b)
{
    const uint64_t rate = 100000000000ull;
    if (!topo.AddHosts(3, rate / 1000000))
    {
        return false;
    }
    for (uint32_t i = 0; i < 3; i++)
    {
        b->switches.push_back(topo.AddSwitch(cfg));
    }
    const std::vector<uint32_t>& s = b->switches;
    for (uint32_t i = 0; i < 3; i++)
    {
        topo.Link(i, s[i], rate, MicroSeconds(1));
    }
    for (uint32_t i = 0; i < 3; i++)
    {
        topo.Link(s[i], s[(i + 1) % 3], rate, MicroSeconds(1));
    }
    topo.ComputeRoutes(); /* each switch's own host, and the short way */
    if (v != LOOPFREE)
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
        b->flows.emplace_back(h, (h + 2) % 3);
    }
    b->lightMbps = 40000;
    return true;
}

bool
BuildClos(WrenTopology& topo, const WrenSwitchConfig& cfg, Variant v, Built* b)
{
    const uint64_t rate = 100000000000ull;
    if (!topo.AddHosts(4, rate / 1000000))
    {
        return false;
    }
    for (uint32_t i = 0; i < 4; i++)
    {
        b->switches.push_back(topo.AddSwitch(cfg));
    }
    const uint32_t l0 = b->switches[0], l1 = b->switches[1];
    const uint32_t s0 = b->switches[2], s1 = b->switches[3];
    for (uint32_t h = 0; h < 4; h++)
    {
        topo.Link(h, h < 2 ? l0 : l1, rate, MicroSeconds(1));
    }
    topo.Link(l0, s0, rate, MicroSeconds(1));
    topo.Link(l0, s1, rate, MicroSeconds(1));
    topo.Link(l1, s0, rate, MicroSeconds(1));
    /* S1-L1 has failed: S1's shortest way to L1 is down to L0 and up
     * through S0, the bounce. */
    topo.ComputeRoutes();
    if (v != LOOPFREE)
    {
        /* L0 has not withdrawn S1 yet: L1's hosts over both spines. */
        std::vector<uint32_t> up = {uint32_t(topo.PortTowards(l0, s0)),
                                    uint32_t(topo.PortTowards(l0, s1))};
        for (uint32_t h = 2; h < 4; h++)
        {
            topo.Switch(l0)->SetRoute(WrenTopology::HostIp(h), up);
        }
    }
    b->flows = {{0, 2}, {0, 3}, {1, 2}, {1, 3}};
    b->lightMbps = 1000;
    return true;
}

Result
Run(Fabric fabric, Variant v, uint32_t qps, uint32_t bufferKb, double runMs)
{
    Result res;
    WrenTopology topo;
    WrenSwitchConfig cfg;
    Built b;

    cfg.bufferBytes = uint64_t(bufferKb) << 10;
    cfg.ecn = false;
    cfg.watchdog = v == WATCHDOG;
    if (!(fabric == RING ? BuildRing : BuildClos)(topo, cfg, v, &b))
    {
        return res;
    }
    if (!topo.ShortBuffersMessage().empty())
    {
        res.error = topo.ShortBuffersMessage();
        return res;
    }
    for (uint32_t h = 0; h < topo.NHosts(); h++)
    {
        if (topo.Host(h)->SetLossless(0x08) ||
            (v == LIGHT && topo.Host(h)->SetMaxRate(3, b.lightMbps * 1000)))
        {
            return res;
        }
    }
    res.made = true;

    /* Bytes delivered to the flows' receivers, per 10 ms. */
    uint32_t bins = static_cast<uint32_t>(runMs / 10) + 1;
    std::vector<uint64_t> bytes(bins);
    for (uint32_t sw : b.switches)
    {
        std::vector<int> rxPorts;
        for (const auto& f : b.flows)
        {
            rxPorts.push_back(topo.PortTowards(sw, f.second));
        }
        topo.Switch(sw)->SetTxTrace(
            [&, rxPorts](uint32_t port, uint8_t prio, const uint8_t*, uint32_t len) {
                uint32_t bin = static_cast<uint32_t>(Simulator::Now().GetSeconds() * 100);
                if (prio == 3 && bin < bins &&
                    std::find(rxPorts.begin(), rxPorts.end(), int(port)) != rxPorts.end())
                {
                    bytes[bin] += len;
                }
            });
    }
    for (uint32_t h = 0; h < topo.NHosts(); h++)
    {
        topo.Host(h)->SetFlowDone([&](struct ro_flow* f, uint64_t) { res.failedFlows += f->status != 0; });
    }
    for (const auto& f : b.flows)
    {
        for (uint32_t q = 0; q < qps; q++)
        {
            topo.Host(f.first)->StartFlow(topo.Host(f.second), RO_FLOW_WRITE, 4ull << 30, 3);
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
    for (uint32_t bin = 0; bin + 1 < bins; bin++)
    {
        res.delivered += bytes[bin];
        run = bytes[bin] ? 0 : run + 1;
        best = std::max(best, run);
        if (res.lockMs >= 0 && res.resumeMs < 0 && bin * 10.0 > res.lockMs + 10 && bytes[bin])
        {
            res.resumeMs = bin * 10.0 - res.lockMs;
        }
    }
    res.zeroMs = best * 10.0;
    bytes.pop_back(); /* the bin the stop falls in */
    res.bins = std::move(bytes);
    for (uint32_t id : b.switches)
    {
        Ptr<WrenSwitch> sw = topo.Switch(id);
        res.ttl += sw->TtlDrops();
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

/* The switches by name: the ring's S0..S2, the Clos' L0, L1, S0, S1. */
std::string
CycleText(Fabric fabric, const std::vector<uint32_t>& c, uint32_t firstSwitch)
{
    static const char* const clos[] = {"L0", "L1", "S0", "S1"};
    std::string t;
    for (uint32_t id : c)
    {
        uint32_t i = id - firstSwitch;
        t += t.empty() ? "" : " -> ";
        t += fabric == CLOS && i < 4 ? std::string(clos[i]) : "S" + std::to_string(i);
    }
    return t;
}

/* Delivered bytes per 10 ms of one run, as "fabric,run,ms,gbps" rows. */
void
Trace(FILE* f, const char* fabric, const char* run, const Result& res)
{
    for (std::size_t b = 0; f && b < res.bins.size(); b++)
    {
        std::fprintf(f, "%s,%s,%zu,%.3f\n", fabric, run, b * 10, res.bins[b] * 8 / 1e7);
    }
}

/* The four runs on one fabric, their figures and criteria. */
bool
Experiment(Report& r,
           Fabric fabric,
           uint32_t qps,
           uint32_t bufferKb,
           double runMs,
           double flowingMs,
           FILE* trace)
{
    const char* name = fabric == RING ? "ring" : "clos";
    const uint32_t firstSwitch = fabric == RING ? 3 : 4;
    const size_t cycleLen = fabric == RING ? 4 : 3; /* first again at the end */
    Result d = Run(fabric, DEADLOCK, qps, bufferKb, runMs);
    if (!d.error.empty())
    {
        std::fprintf(stderr, "e5: %s\n", d.error.c_str());
        return false;
    }
    r.Figure("e5 %s: %s, 100 Gb/s, 1 us, %u KiB buffers, %u QPs a flow, PFC alone: lock "
             "at %.0f ms, %.1f MB delivered, %llu PFC frames, %llu TTL drops, %u flows "
             "failed (retries exhausted)",
             name,
             fabric == RING ? "3 switches, clockwise routes"
                            : "2x2 Clos, S1-L1 failed, L0's route through S1 not withdrawn",
             bufferKb, qps, d.lockMs, d.delivered / 1e6, static_cast<unsigned long long>(d.pfc),
             static_cast<unsigned long long>(d.ttl), d.failedFlows);
    r.Figure("e5 %s: paused cycle: %s", name,
             d.cycle.empty() ? "none" : CycleText(fabric, d.cycle, firstSwitch).c_str());
    r.Criterion(d.made && d.cycle.size() == cycleLen,
                "e5 %s: deadlock: a cycle of paused links is found", name);
    r.Criterion(d.made && d.zeroMs >= 500 && d.lossless == 0,
                "e5 %s: deadlock: throughput 0 for %.0f ms, target >= 500 ms; no lossless "
                "drop (%llu)",
                name, d.zeroMs, static_cast<unsigned long long>(d.lossless));

    Trace(trace, name, "deadlock", d);
    Result w = Run(fabric, WATCHDOG, qps, bufferKb, runMs);
    Trace(trace, name, "watchdog", w);
    r.Figure("e5 %s: with the switch watchdog: lock at %.0f ms, traffic again %.0f ms later, "
             "%llu storms, %llu frames dropped by it, %.1f MB delivered, %u flows failed",
             name, w.lockMs, w.resumeMs, static_cast<unsigned long long>(w.storms),
             static_cast<unsigned long long>(w.wdDrops), w.delivered / 1e6, w.failedFlows);
    r.Criterion(w.made && w.lockMs >= 0 && w.resumeMs >= 0 && w.resumeMs <= 400 && w.wdDrops > 0,
                "e5 %s: watchdog: traffic resumes %.0f ms after the lock, target <= 400 ms; "
                "its drops counted (%llu)",
                name, w.resumeMs, static_cast<unsigned long long>(w.wdDrops));

    Result lf = Run(fabric, LOOPFREE, qps, bufferKb, flowingMs);
    Trace(trace, name, "loop-free", lf);
    r.Figure("e5 %s: loop-free routes, %.0f ms: %.1f MB delivered, %llu PFC frames, cycle: %s",
             name, flowingMs, lf.delivered / 1e6, static_cast<unsigned long long>(lf.pfc),
             lf.cycle.empty() ? "none" : CycleText(fabric, lf.cycle, firstSwitch).c_str());
    r.Criterion(lf.made && lf.cycle.empty() && lf.zeroMs == 0,
                "e5 %s: loop-free routing: no cycle, traffic never stops", name);

    Result l = Run(fabric, LIGHT, qps, bufferKb, flowingMs);
    Trace(trace, name, "light", l);
    r.Figure("e5 %s: light load, %.0f ms: %.1f MB delivered, %llu PFC frames, %llu TTL "
             "drops, cycle: %s",
             name, flowingMs, l.delivered / 1e6, static_cast<unsigned long long>(l.pfc),
             static_cast<unsigned long long>(l.ttl),
             l.cycle.empty() ? "none" : CycleText(fabric, l.cycle, firstSwitch).c_str());
    r.Criterion(l.made && l.cycle.empty() && l.zeroMs == 0,
                "e5 %s: lighter load on the same routes: no deadlock", name);
    r.Speed(fabric == RING ? "e5 ring" : "e5 clos", d.events + w.events + lf.events + l.events,
            d.simS + w.simS + lf.simS + l.simS);
    return true;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t qps = 0, bufferKb = 1024;
    double runMs = 800, flowingMs = 100;
    std::string fabric = "both", traceFile;
    CommandLine cmd(__FILE__);
    cmd.AddValue("fabric", "ring, clos or both", fabric);
    cmd.AddValue("qps", "QPs a flow (0: the ring's 4, the Clos' 8)", qps);
    cmd.AddValue("buffer-kb", "each switch's shared buffer, KiB", bufferKb);
    cmd.AddValue("run-ms", "simulated ms of the deadlock and watchdog runs", runMs);
    cmd.AddValue("flowing-ms", "simulated ms of the runs that should not lock", flowingMs);
    cmd.AddValue("trace", "CSV of each run's delivered Gb/s per 10 ms", traceFile);
    cmd.Parse(argc, argv);
    if (fabric != "ring" && fabric != "clos" && fabric != "both")
    {
        std::fprintf(stderr, "e5: --fabric is ring, clos or both\n");
        return 2;
    }
    FILE* trace = nullptr;
    if (!traceFile.empty() && !(trace = std::fopen(traceFile.c_str(), "w")))
    {
        std::fprintf(stderr, "e5: %s: cannot be written\n", traceFile.c_str());
        return 2;
    }
    if (trace)
    {
        std::fprintf(trace, "fabric,run,ms,gbps\n");
    }
    Report r;
    /* The Clos' senders each need a QP hashed onto the loop to be caught:
     * 16 QPs a host make one all but certain. */
    bool made =
        (fabric == "clos" || Experiment(r, RING, qps ? qps : 4, bufferKb, runMs, flowingMs, trace)) &&
        (fabric == "ring" || Experiment(r, CLOS, qps ? qps : 8, bufferKb, runMs, flowingMs, trace));
    if (trace)
    {
        std::fclose(trace);
    }
    return made ? r.Done() : 2;
}
