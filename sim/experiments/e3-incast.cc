// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * E3, incast: N senders each WRITE @kb KB at once to one receiver
 * through one switch (32 MB shared buffer, 100 Gb/s and 1 us links),
 * on lossless priority 3; once with PFC alone (no ECN), once with
 * DCQCN (ECN at the switch, @profile at the NICs).  Criteria: no
 * lossless drop ever, every flow completes, and the time the switch
 * held its senders in XOFF with DCQCN at most 25 % of PFC alone's.  The
 * flows' completion times are printed as percentiles.
 *
 *   make sim-e3 [E3_ARGS="--senders=60"]
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
    uint32_t done = 0, failed = 0;
    std::vector<double> fctUs;
    double xoffUs = 0; /* summed over the senders' ports */
    uint64_t lossless = 0, pfc = 0, marked = 0, maxQueue = 0;
};

Result
Run(uint32_t senders, uint32_t kb, uint32_t bufferMb, bool dcqcn, enum ro_cc_profile profile)
{
    const uint64_t rate = 100000000000ull;
    Result res;
    WrenTopology topo;
    WrenSwitchConfig cfg;

    cfg.bufferBytes = uint64_t(bufferMb) << 20;
    cfg.ecn = dcqcn;
    if (!topo.AddHosts(senders + 1, rate / 1000000))
    {
        return res;
    }
    uint32_t sw = topo.AddSwitch(cfg);
    for (uint32_t h = 0; h <= senders; h++)
    {
        topo.Link(h, sw, rate, MicroSeconds(1));
    }
    topo.ComputeRoutes();
    if (!topo.ShortBuffersMessage().empty())
    {
        res.error = topo.ShortBuffersMessage();
        return res;
    }
    for (uint32_t h = 0; h <= senders; h++)
    {
        if (topo.Host(h)->SetLossless(0x08) || (dcqcn && topo.Host(h)->SetCc(profile, 0x08)))
        {
            return res;
        }
    }
    res.made = true;
    uint32_t rx = senders;
    for (uint32_t h = 0; h < senders; h++)
    {
        topo.Host(h)->SetFlowDone([&](struct ro_flow* f, uint64_t) {
            res.done++;
            res.failed += f->status != 0;
            res.fctUs.push_back((f->end_ns - f->start_ns) / 1e3);
            if (res.done == senders)
            {
                Simulator::Stop();
            }
        });
        topo.Host(h)->StartFlow(topo.Host(rx), RO_FLOW_WRITE, uint64_t(kb) * 1000, 3);
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    Ptr<WrenSwitch> s = topo.Switch(sw);
    for (uint32_t p = 0; p < s->GetNPorts(); p++)
    {
        const WrenQueueStats& st = s->Stats(p, 3);
        res.lossless += st.losslessDrops;
        res.pfc += st.pfcSent;
        res.marked += st.marked;
        res.maxQueue = std::max(res.maxQueue, st.maxDepth);
        res.xoffUs += s->XoffTime(p, 3).GetMicroSeconds();
    }
    std::sort(res.fctUs.begin(), res.fctUs.end());
    res.events = Simulator::GetEventCount();
    res.simS = Simulator::Now().GetSeconds();
    Simulator::Destroy();
    return res;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t senders = 16, kb = 500, bufferMb = 32;
    std::string profile = "hpcc";
    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "senders at once", senders);
    cmd.AddValue("kb", "KB each sends", kb);
    cmd.AddValue("buffer-mb", "the switch's shared buffer, MiB", bufferMb);
    cmd.AddValue("profile", "DCQCN profile: mlx5, paper or hpcc", profile);
    cmd.Parse(argc, argv);
    Report r;
    enum ro_cc_profile cc = profile == "paper"  ? RO_CC_PAPER
                            : profile == "mlx5" ? RO_CC_MLX5
                                                : RO_CC_HPCC;

    Result pfc = Run(senders, kb, bufferMb, false, cc);
    Result dq = Run(senders, kb, bufferMb, true, cc);
    if (!pfc.error.empty())
    {
        std::fprintf(stderr, "e3: %s\n", pfc.error.c_str());
        return 2;
    }
    for (const Result* x : {&pfc, &dq})
    {
        r.Figure("e3: %u x %u KB incast, 100 Gb/s, %u MiB buffer, %s: %u of %u flows done "
                 "(%u failed), FCT median %.0f us, 95th %.0f, 99th %.0f, max %.0f; queue max "
                 "%llu bytes; XOFF held %.0f us in all, %llu PFC frames, %llu marks, %llu "
                 "lossless drops",
                 senders, kb, bufferMb, x == &pfc ? "PFC alone" : ("DCQCN " + profile).c_str(), x->done,
                 senders, x->failed, Percentile(x->fctUs, 50), Percentile(x->fctUs, 95), Percentile(x->fctUs, 99),
                 x->fctUs.empty() ? 0 : x->fctUs.back(),
                 static_cast<unsigned long long>(x->maxQueue), x->xoffUs,
                 static_cast<unsigned long long>(x->pfc), static_cast<unsigned long long>(x->marked),
                 static_cast<unsigned long long>(x->lossless));
    }
    r.Criterion(pfc.made && dq.made && !pfc.lossless && !dq.lossless,
                "e3: no lossless drop (PFC alone %llu, DCQCN %llu)",
                static_cast<unsigned long long>(pfc.lossless),
                static_cast<unsigned long long>(dq.lossless));
    r.Criterion(pfc.done == senders && dq.done == senders && !pfc.failed && !dq.failed,
                "e3: every flow completes (%u and %u of %u)", pfc.done, dq.done, senders);
    /* Without a pause under PFC alone there is nothing to compare. */
    r.Criterion(pfc.made && pfc.xoffUs > 0 && dq.xoffUs <= 0.25 * pfc.xoffUs,
                "e3: XOFF time with DCQCN %.0f us, at most 25 %% of PFC alone's %.0f us%s",
                dq.xoffUs, pfc.xoffUs,
                pfc.xoffUs > 0 ? "" : " (PFC alone never paused: no comparison)");
    r.Speed("e3", pfc.events + dq.events, pfc.simS + dq.simS);
    return r.Done();
}
