// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Runs an HPCC-simulator topology and flow file on Wren NICs and Wren
 * switches, and writes the flows' completion times in HPCC's FCT columns
 * (sport is the sender's QP number), so that its analysis reads them.
 * The standalone FCT of a flow is what it would take alone: its first
 * frame's time on every hop, the rest of its frames (4096 bytes of
 * payload, 58 of headers and ICRC, 24 of preamble, FCS and gap) at the
 * path's slowest link, and the path's delay there and back.  Prints how
 * many flows ended and their slowdown (FCT over standalone FCT) at the
 * median, 95th and 99th, the switches' pause frames and XOFF time, and
 * whether any lossless frame was dropped.
 *
 *   make sim build/sim/hpcc-run
 *   build/sim/hpcc-run --topology=T --flows=F --fct=OUT [--profile=hpcc]
 *
 * A topology or flow file it cannot use is an error naming the file,
 * line and field, and exit status 2.
 */
#include "report.h"
#include "wren-hpcc-files.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string topoFile, flowFile, fctFile, profile = "hpcc";
    double stopS = 10;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "HPCC topology file", topoFile);
    cmd.AddValue("flows", "HPCC flow file", flowFile);
    cmd.AddValue("fct", "FCT output file", fctFile);
    cmd.AddValue("profile", "DCQCN profile: mlx5, paper, hpcc or none", profile);
    cmd.AddValue("stop-s", "simulated seconds at the most", stopS);
    cmd.Parse(argc, argv);
    Report r;
    if (topoFile.empty() || flowFile.empty() || fctFile.empty())
    {
        std::fprintf(stderr, "hpcc-run: --topology, --flows and --fct are needed\n");
        return 2;
    }
    if (profile != "mlx5" && profile != "paper" && profile != "hpcc" && profile != "none")
    {
        std::fprintf(stderr, "hpcc-run: --profile is mlx5, paper, hpcc or none\n");
        return 2;
    }

    WrenTopology topo;
    WrenSwitchConfig scfg;
    HpccFiles files;
    std::vector<HpccFlow> flows;
    std::string err;
    scfg.ecn = profile != "none";
    if (!files.ReadTopology(topoFile, scfg, topo, &err) || !files.ReadFlows(flowFile, &flows, &err))
    {
        std::fprintf(stderr, "hpcc-run: %s\n", err.c_str());
        return 2;
    }
    for (std::size_t i = 0; i < flows.size(); i++)
    {
        Time delay, tx;
        uint64_t bps;
        if (!topo.Path(flows[i].src, flows[i].dst, 4096, &delay, &bps, &tx))
        {
            std::fprintf(stderr, "hpcc-run: %s: flow %zu: no path from node %u to node %u\n",
                         flowFile.c_str(), i + 1, files.FileId(flows[i].src),
                         files.FileId(flows[i].dst));
            return 2;
        }
    }
    FILE* fct = std::fopen(fctFile.c_str(), "w");
    if (!fct)
    {
        std::fprintf(stderr, "hpcc-run: %s: cannot be written\n", fctFile.c_str());
        return 2;
    }
    enum ro_cc_profile cc = profile == "mlx5"    ? RO_CC_MLX5
                            : profile == "paper" ? RO_CC_PAPER
                                                 : RO_CC_HPCC;
    uint8_t lossless = 0;
    for (const HpccFlow& f : flows)
    {
        lossless |= 1u << f.prio;
    }
    for (uint32_t h = 0; h < topo.NHosts(); h++)
    {
        if (topo.Host(h)->SetLossless(lossless) ||
            (profile != "none" && topo.Host(h)->SetCc(cc, lossless)))
        {
            std::fprintf(stderr, "hpcc-run: SET_PFC, SET_TRUST or SET_CC refused\n");
            return 2;
        }
    }

    std::vector<double> slowdown;
    uint32_t ended = 0, failed = 0, unstarted = 0;
    for (uint32_t h = 0; h < topo.NHosts(); h++)
    {
        topo.Host(h)->SetFlowDone([&](struct ro_flow* f, uint64_t i) {
            const HpccFlow& in = flows[i];
            /* The first frame crosses every hop, the rest follow it at
             * the slowest link, and the ACK comes back. */
            const uint32_t mtu = WrenNetDevice::kFlowMtu;
            const uint32_t frame = kRoceV2HeaderBytes + kWireOverheadBytes;
            uint64_t first = std::min<uint64_t>(in.bytes, mtu), rest = in.bytes - first;
            Time delay, firstTx;
            uint64_t minBps;
            topo.Path(in.src, in.dst, first + frame, &delay, &minBps, &firstTx);
            uint64_t restWire = rest + (rest + mtu - 1) / mtu * frame;
            uint64_t alone = 2 * delay.GetNanoSeconds() + firstTx.GetNanoSeconds() +
                             restWire * 8000000000ull / minBps;
            uint64_t fctNs = f->end_ns - f->start_ns;
            ended++;
            failed += f->status != 0;
            HpccFiles::WriteFct(fct, WrenTopology::HostIp(in.src), WrenTopology::HostIp(in.dst),
                                f->sqp.qpn, in.dport, in.bytes, f->start_ns, fctNs, alone);
            slowdown.push_back(std::max(1.0, double(fctNs) / alone));
        });
    }
    for (std::size_t i = 0; i < flows.size(); i++)
    {
        Simulator::Schedule(Seconds(flows[i].startS), [&, i]() {
            const HpccFlow& in = flows[i];
            if (!topo.Host(in.src)->StartFlow(topo.Host(in.dst), RO_FLOW_WRITE, in.bytes, in.prio, i))
            {
                unstarted++;
            }
        });
    }
    std::function<void()> watch = [&]() {
        if (ended + unstarted == flows.size())
        {
            Simulator::Stop();
            return;
        }
        Simulator::Schedule(MicroSeconds(100), watch);
    };
    Simulator::Schedule(MicroSeconds(100), watch);
    Simulator::Stop(Seconds(stopS));
    Simulator::Run();
    std::fclose(fct);

    std::sort(slowdown.begin(), slowdown.end());
    r.Figure("hpcc-run: %s, %s: %u hosts, %zu flows, profile %s, %.3f s simulated",
             topoFile.c_str(), flowFile.c_str(), topo.NHosts(), flows.size(), profile.c_str(),
             Simulator::Now().GetSeconds());
    uint64_t noRoute = 0, pauses = 0, losslessDrops = 0, xoffUs = 0;
    for (uint32_t id = topo.NHosts(); id < topo.NNodes(); id++)
    {
        Ptr<WrenSwitch> s = topo.Switch(id);
        noRoute += s->NoRouteDrops();
        for (uint32_t p = 0; p < s->GetNPorts(); p++)
        {
            for (uint8_t prio = 0; prio < 8; prio++)
            {
                pauses += s->Stats(p, prio).pfcSent;
                losslessDrops += s->Stats(p, prio).losslessDrops;
                xoffUs += s->XoffTime(p, prio).GetMicroSeconds();
            }
        }
    }
    r.Figure("hpcc-run: slowdown median %.2f, 95th %.2f, 99th %.2f; %llu frames dropped "
             "for want of a route; FCTs in %s",
             Percentile(slowdown, 50), Percentile(slowdown, 95), Percentile(slowdown, 99), static_cast<unsigned long long>(noRoute),
             fctFile.c_str());
    r.Figure("hpcc-run: PFC: %llu pause frames sent by the switches, %.3f ms of XOFF summed "
             "over ports",
             static_cast<unsigned long long>(pauses), xoffUs / 1000.0);
    r.Criterion(!losslessDrops, "hpcc-run: no lossless drop (%llu)",
                static_cast<unsigned long long>(losslessDrops));
    r.Criterion(ended == flows.size() && !failed && !unstarted,
                "hpcc-run: every flow ends without error (%u of %zu ended, %u failed, %u not "
                "started)",
                ended, flows.size(), failed, unstarted);
    r.Speed("hpcc-run", Simulator::GetEventCount(), Simulator::Now().GetSeconds());
    Simulator::Destroy();
    return r.Done();
}
