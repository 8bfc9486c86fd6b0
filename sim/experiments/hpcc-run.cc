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
 * Built against ns-3 with MPI (make sim-mpi, build/sim-mpi/hpcc-run) it
 * runs over the ranks mpirun starts: the topology is partitioned
 * (WrenTopology::Partition()), every rank builds every node and starts
 * every flow's QPs, simulates its own nodes, and rank 0 writes the FCTs
 * of all flows.  The FCT file is in flow order whatever the number of
 * ranks, and the same bytes.
 *
 *   mpirun -np 2 build/sim-mpi/hpcc-run ... [--simulator=window|nullmsg]
 *
 * A topology or flow file it cannot use is an error naming the file,
 * line and field, and exit status 2.
 */
#include "report.h"
#include "wren-hpcc-files.h"

#include "ns3/core-module.h"

#ifdef WREN_SIM_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/* A flow that ended, as this rank saw it. */
struct Ended
{
    uint64_t index;
    uint64_t fctNs, aloneNs;
    int failed;
    std::string line; /* its FCT line */
};

/*
 * The flows that ended on every rank, on rank 0, in flow order (their
 * other fields kept); @local on the others.  Sums @sums over the ranks.
 */
std::vector<Ended>
Gather(std::vector<Ended> local, std::vector<uint64_t>& sums)
{
#ifdef WREN_SIM_MPI
    if (WrenRanks() > 1)
    {
        std::ostringstream os;
        for (const Ended& e : local)
        {
            os << e.index << ' ' << e.fctNs << ' ' << e.aloneNs << ' ' << e.failed << ' '
               << e.line;
        }
        std::string mine = os.str();
        int len = static_cast<int>(mine.size()), ranks = static_cast<int>(WrenRanks());
        std::vector<int> lens(ranks), offs(ranks);
        MPI_Comm comm = MpiInterface::GetCommunicator();
        MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
        std::string all;
        if (WrenRank() == 0)
        {
            int total = 0;
            for (int r = 0; r < ranks; r++)
            {
                offs[r] = total;
                total += lens[r];
            }
            all.resize(total);
        }
        MPI_Gatherv(mine.data(), len, MPI_CHAR, all.empty() ? nullptr : &all[0], lens.data(),
                    offs.data(), MPI_CHAR, 0, comm);
        std::vector<uint64_t> in(sums);
        MPI_Reduce(in.data(), sums.data(), static_cast<int>(sums.size()), MPI_UINT64_T, MPI_SUM,
                   0, comm);
        if (WrenRank() != 0)
        {
            return local;
        }
        local.clear();
        std::istringstream is(all);
        Ended e;
        while (is >> e.index >> e.fctNs >> e.aloneNs >> e.failed)
        {
            is.get();
            std::getline(is, e.line);
            e.line += '\n';
            local.push_back(e);
        }
    }
#endif
    (void)sums;
    std::sort(local.begin(), local.end(), [](const Ended& a, const Ended& b) {
        return a.index < b.index;
    });
    return local;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string topoFile, flowFile, fctFile, profile = "hpcc", simulator = "window";
    double stopS = 10;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "HPCC topology file", topoFile);
    cmd.AddValue("flows", "HPCC flow file", flowFile);
    cmd.AddValue("fct", "FCT output file", fctFile);
    cmd.AddValue("profile", "DCQCN profile: mlx5, paper, hpcc or none", profile);
    cmd.AddValue("stop-s", "simulated seconds at the most", stopS);
    cmd.AddValue("simulator",
                 "over MPI ranks: window (a granted time window, all ranks at once; the faster "
                 "here) or nullmsg (null messages between neighbour ranks)",
                 simulator);
    cmd.Parse(argc, argv);
#ifdef WREN_SIM_MPI
    /* One rank runs ns-3's own sequential simulator: no lookahead to wait on. */
    MPI_Init(&argc, &argv);
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1)
    {
        if (simulator != "nullmsg" && simulator != "window")
        {
            std::fprintf(stderr, "hpcc-run: --simulator is nullmsg or window\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(simulator == "nullmsg" ? "ns3::NullMessageSimulatorImpl"
                                                             : "ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(MPI_COMM_WORLD);
    }
#endif
    int rc = 0;
    {
        Report r;
        /* Only rank 0 reports; the others are quiet unless something fails. */
        const bool quiet = WrenRank() != 0;
        if (topoFile.empty() || flowFile.empty() || fctFile.empty())
        {
            std::fprintf(stderr, "hpcc-run: --topology, --flows and --fct are needed\n");
            rc = 2;
        }
        else if (profile != "mlx5" && profile != "paper" && profile != "hpcc" && profile != "none")
        {
            std::fprintf(stderr, "hpcc-run: --profile is mlx5, paper, hpcc or none\n");
            rc = 2;
        }
        WrenTopology topo;
        WrenSwitchConfig scfg;
        HpccFiles files;
        std::vector<HpccFlow> flows;
        std::string err;
        scfg.ecn = profile != "none";
        if (!rc && (!files.ReadTopology(topoFile, scfg, topo, &err) ||
                    !files.ReadFlows(flowFile, &flows, &err)))
        {
            std::fprintf(stderr, "hpcc-run: %s\n", err.c_str());
            rc = 2;
        }
        for (std::size_t i = 0; !rc && i < flows.size(); i++)
        {
            Time delay, tx;
            uint64_t bps;
            if (!topo.Path(flows[i].src, flows[i].dst, 4096, &delay, &bps, &tx))
            {
                std::fprintf(stderr, "hpcc-run: %s: flow %zu: no path from node %u to node %u\n",
                             flowFile.c_str(), i + 1, files.FileId(flows[i].src),
                             files.FileId(flows[i].dst));
                rc = 2;
            }
        }
        FILE* fct = nullptr;
        if (!rc && !quiet && !(fct = std::fopen(fctFile.c_str(), "w")))
        {
            std::fprintf(stderr, "hpcc-run: %s: cannot be written\n", fctFile.c_str());
            rc = 2;
        }
        enum ro_cc_profile cc = profile == "mlx5"    ? RO_CC_MLX5
                                : profile == "paper" ? RO_CC_PAPER
                                                     : RO_CC_HPCC;
        uint8_t lossless = 0;
        for (const HpccFlow& f : flows)
        {
            lossless |= 1u << f.prio;
        }
        for (uint32_t h = 0; !rc && h < topo.NHosts(); h++)
        {
            if (topo.Host(h)->SetLossless(lossless) ||
                (profile != "none" && topo.Host(h)->SetCc(cc, lossless)))
            {
                std::fprintf(stderr, "hpcc-run: SET_PFC, SET_TRUST or SET_CC refused\n");
                rc = 2;
            }
        }
        if (!rc && simulator == "nullmsg" && !topo.RanksAllJoined(WrenRanks()))
        {
            /* The messages that release QPs go to every rank. */
            std::fprintf(stderr, "hpcc-run: --simulator=nullmsg needs a link between every two "
                                 "ranks; this partition has not (use --simulator=window)\n");
            rc = 2;
        }
        if (rc)
        {
#ifdef WREN_SIM_MPI
            MPI_Abort(MPI_COMM_WORLD, rc);
#endif
            return rc;
        }
        if (!quiet && WrenRanks() > 1)
        {
            std::string split;
            for (uint32_t rank = 0; rank < WrenRanks(); rank++)
            {
                uint32_t hosts = 0, switches = 0;
                for (uint32_t id = 0; id < topo.NNodes(); id++)
                {
                    (id < topo.NHosts() ? hosts : switches) += topo.RankOf(id) == rank;
                }
                split += (rank ? ", rank " : "rank ") + std::to_string(rank) + " " +
                         std::to_string(hosts) + " hosts and " + std::to_string(switches) +
                         " switches";
            }
            r.Figure("hpcc-run: %u ranks (%s); %u links cross ranks, lookahead %lld ns",
                     WrenRanks(), split.c_str(), topo.CrossingLinks(),
                     static_cast<long long>(topo.Lookahead().GetNanoSeconds()));
        }

        /*
         * Every rank starts every flow (a NIC of another rank makes and
         * connects its QP too, so that QP numbers agree everywhere) and
         * releases its QPs when told: the largest link delay after its
         * sender saw it end, on every rank at once.
         */
        const int64_t releaseNs = std::max<int64_t>(topo.MaxDelay().GetNanoSeconds(), 1);
        std::vector<struct ro_flow*> started(flows.size(), nullptr);
        std::vector<bool> released(flows.size(), false);
        std::vector<Ended> ended;
        uint32_t settled = 0, unstarted = 0;
        for (uint32_t h = 0; h < topo.NHosts(); h++)
        {
            topo.Host(h)->SetDeferRelease(true);
            topo.Host(h)->SetFlowDone([&](struct ro_flow* f, uint64_t i) {
                const HpccFlow& in = flows[i];
                if (!topo.Host(in.src)->IsLocal())
                {
                    return; /* its sender's rank reports it */
                }
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
                char line[160];
                std::snprintf(line, sizeof(line), "%08x %08x %u %u %llu %llu %llu %llu\n",
                              WrenTopology::HostIp(in.src), WrenTopology::HostIp(in.dst),
                              f->sqp.qpn, in.dport, static_cast<unsigned long long>(in.bytes),
                              static_cast<unsigned long long>(f->start_ns),
                              static_cast<unsigned long long>(fctNs),
                              static_cast<unsigned long long>(alone));
                ended.push_back({i, fctNs, alone, f->status != 0, line});
                WrenBroadcast(WrenNowNs() + releaseNs, i);
            });
        }
        WrenSetBroadcastHandler([&](uint64_t i) {
            if (i < flows.size() && started[i] && !released[i])
            {
                topo.Host(flows[i].src)->ReleaseFlow(started[i]);
                released[i] = true;
                settled++;
            }
        });
        for (uint32_t rank = 0; rank < WrenRanks(); rank++)
        {
            for (uint32_t h = 0; h < topo.NHosts(); h++)
            {
                if (topo.RankOf(h) == rank)
                {
                    WrenSetBroadcastDevice(topo.Host(h), rank);
                    break;
                }
            }
        }
        for (std::size_t i = 0; i < flows.size(); i++)
        {
            int64_t ns = std::llround(flows[i].startS * 1e9);
            Simulator::Schedule(WrenUntil(ns), [&, i]() {
                const HpccFlow& in = flows[i];
                started[i] = topo.Host(in.src)->StartFlow(topo.Host(in.dst), RO_FLOW_WRITE,
                                                          in.bytes, in.prio, i);
                unstarted += !started[i];
            });
        }
        std::function<void()> watch = [&]() {
            if (settled + unstarted == flows.size())
            {
                Simulator::Stop();
                return;
            }
            Simulator::Schedule(MicroSeconds(100), watch);
        };
        Simulator::Schedule(MicroSeconds(100), watch);
        Simulator::Stop(Seconds(stopS));
        Simulator::Run();

        /* The switches this rank runs: routes, pauses, XOFF, lossless drops. */
        uint64_t noRoute = 0, pauses = 0, losslessDrops = 0, xoffUs = 0;
        for (uint32_t id = topo.NHosts(); id < topo.NNodes(); id++)
        {
            if (topo.RankOf(id) != WrenRank())
            {
                continue;
            }
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
        std::vector<uint64_t> sums = {noRoute, Simulator::GetEventCount(), pauses,
                                      losslessDrops, xoffUs};
        double simS = Simulator::Now().GetSeconds();
        ended = Gather(std::move(ended), sums);
        if (!quiet)
        {
            std::vector<double> slowdown;
            uint32_t failed = 0;
            for (const Ended& e : ended)
            {
                std::fputs(e.line.c_str(), fct);
                failed += e.failed;
                slowdown.push_back(std::max(1.0, double(e.fctNs) / e.aloneNs));
            }
            std::fclose(fct);
            std::sort(slowdown.begin(), slowdown.end());
            r.Figure("hpcc-run: %s, %s: %u hosts, %zu flows, profile %s, %.3f s simulated",
                     topoFile.c_str(), flowFile.c_str(), topo.NHosts(), flows.size(),
                     profile.c_str(), simS);
            r.Figure("hpcc-run: slowdown median %.2f, 95th %.2f, 99th %.2f; %llu frames dropped "
                     "for want of a route; FCTs in %s",
                     Percentile(slowdown, 50), Percentile(slowdown, 95), Percentile(slowdown, 99),
                     static_cast<unsigned long long>(sums[0]), fctFile.c_str());
            r.Figure("hpcc-run: PFC: %llu pause frames sent by the switches, %.3f ms of XOFF "
                     "summed over ports",
                     static_cast<unsigned long long>(sums[2]), sums[4] / 1000.0);
            r.Criterion(!sums[3], "hpcc-run: no lossless drop (%llu)",
                        static_cast<unsigned long long>(sums[3]));
            r.Criterion(ended.size() == flows.size() && !failed && !unstarted,
                        "hpcc-run: every flow ends without error (%zu of %zu ended, %u failed, "
                        "%u not started)",
                        ended.size(), flows.size(), failed, unstarted);
            r.Speed("hpcc-run", sums[1], simS);
            rc = r.Done();
        }
        Simulator::Destroy();
    }
#ifdef WREN_SIM_MPI
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
    MPI_Finalize();
#endif
    return rc;
}
