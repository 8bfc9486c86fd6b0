// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * E1, convergence: N senders to one receiver through one switch, all at
 * 100 Gb/s over 1 us links, one RC WRITE flow a sender on priority 3
 * (PFC and ECN on it), the flows joining @join-ms apart.  After the last
 * one joined and @settle-ms passed, over the next @measure-ms:
 *   - each flow's rate in 1 ms bins within 10 % of its fair share, and
 *     Jain's index of the flows' rates >= 0.99;
 *   - the receiver's queue below Kmax in >= 95 % of 10 us samples;
 *   - no PFC pause from the switch;
 *   - the receiver's link >= 95 % busy with payload.
 *
 *   make sim-e1 [E1_ARGS="--senders=8 --profile=hpcc"]
 */
#include "report.h"
#include "wren-topology.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t senders = 2;
    double joinMs = 10, settleMs = 20, measureMs = 20;
    std::string profile = "paper";
    std::string traceFile;
    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "senders to the one receiver", senders);
    cmd.AddValue("join-ms", "ms between flows joining", joinMs);
    cmd.AddValue("settle-ms", "ms after the last join before measuring", settleMs);
    cmd.AddValue("measure-ms", "ms measured", measureMs);
    cmd.AddValue("profile", "DCQCN profile: mlx5, paper or hpcc", profile);
    cmd.AddValue("trace", "write per-ms rates and queue samples here (CSV)", traceFile);
    cmd.Parse(argc, argv);
    Report r;

    enum ro_cc_profile cc = profile == "hpcc"   ? RO_CC_HPCC
                            : profile == "mlx5" ? RO_CC_MLX5
                                                : RO_CC_PAPER;
    const uint64_t rate = 100000000000ull;
    WrenTopology topo;
    WrenSwitchConfig scfg;
    if (!topo.AddHosts(senders + 1, rate / 1000000))
    {
        std::fprintf(stderr, "e1: hosts could not be made\n");
        return 1;
    }
    uint32_t sw = topo.AddSwitch(scfg);
    for (uint32_t h = 0; h <= senders; h++)
    {
        topo.Link(h, sw, rate, MicroSeconds(1));
    }
    topo.ComputeRoutes();
    if (!topo.ShortBuffersMessage().empty())
    {
        std::fprintf(stderr, "e1: %s\n", topo.ShortBuffersMessage().c_str());
        return 2;
    }
    for (uint32_t h = 0; h <= senders; h++)
    {
        if (topo.Host(h)->SetLossless(0x08) || topo.Host(h)->SetCc(cc, 0x08))
        {
            std::fprintf(stderr, "e1: SET_PFC, SET_TRUST or SET_CC refused\n");
            return 1;
        }
    }
    uint32_t rx = senders; /* the last host receives */
    int rxPort = topo.PortTowards(sw, rx);
    Ptr<WrenSwitch> s = topo.Switch(sw);

    /* Per flow (its sender's address) and 1 ms bin: payload bytes. */
    double startMs = (senders - 1) * joinMs + settleMs;
    double endMs = startMs + measureMs;
    uint32_t bins = static_cast<uint32_t>(std::ceil(endMs));
    std::vector<std::vector<uint64_t>> bytes(senders, std::vector<uint64_t>(bins + 1));
    s->SetTxTrace([&](uint32_t port, uint8_t prio, const uint8_t* f, uint32_t len) {
        if (int(port) != rxPort || prio != 3 || len < 34)
        {
            return;
        }
        uint32_t sip = (uint32_t(f[26]) << 24) | (f[27] << 16) | (f[28] << 8) | f[29];
        uint32_t i = sip - WrenTopology::HostIp(0);
        uint32_t bin = static_cast<uint32_t>(Simulator::Now().GetSeconds() * 1000);
        if (i < senders && bin <= bins && len > kRoceV2HeaderBytes)
        {
            bytes[i][bin] += len - kRoceV2HeaderBytes;
        }
    });
    /* The receiver's queue, every 10 us. */
    std::vector<std::pair<double, uint64_t>> qs;
    std::function<void()> sample = [&]() {
        qs.emplace_back(Simulator::Now().GetSeconds() * 1000, s->QueueBytes(rxPort, 3));
        Simulator::Schedule(MicroSeconds(10), sample);
    };
    Simulator::Schedule(Seconds(0), sample);
    std::vector<struct ro_flow*> flows(senders);
    for (uint32_t i = 0; i < senders; i++)
    {
        Simulator::Schedule(MilliSeconds(1) * (joinMs * i), [&, i]() {
            flows[i] = topo.Host(i)->StartFlow(topo.Host(rx), RO_FLOW_WRITE, 64ull << 30, 3);
        });
    }
    uint64_t pfcAtStart = 0;
    Simulator::Schedule(MilliSeconds(1) * startMs, [&]() {
        for (uint32_t p = 0; p < s->GetNPorts(); p++)
        {
            pfcAtStart += s->Stats(p, 3).pfcSent;
        }
    });
    Simulator::Stop(MilliSeconds(1) * endMs);
    Simulator::Run();

    uint64_t pfcAll = 0;
    for (uint32_t p = 0; p < s->GetNPorts(); p++)
    {
        pfcAll += s->Stats(p, 3).pfcSent;
    }
    /* The measured window's whole bins. */
    uint32_t b0 = static_cast<uint32_t>(std::ceil(startMs));
    uint32_t b1 = static_cast<uint32_t>(std::floor(endMs));
    double payload = WrenNetDevice::PayloadRate(rate);
    double fair = payload / senders;
    uint32_t within = 0, total = 0;
    double jainMin = 1, util = 0;
    std::vector<double> mean(senders);
    for (uint32_t b = b0; b < b1; b++)
    {
        std::vector<double> rates(senders);
        for (uint32_t i = 0; i < senders; i++)
        {
            rates[i] = bytes[i][b] * 8 * 1000.0;
            mean[i] += rates[i] / (b1 - b0);
            within += std::fabs(rates[i] - fair) <= 0.1 * fair;
            total++;
        }
        jainMin = std::min(jainMin, Jain(rates));
        util += Mean(rates) * senders / payload / (b1 - b0);
    }
    uint64_t kmax = scfg.kmaxAt100g, below = 0, nq = 0;
    uint64_t qmax = 0;
    for (auto& q : qs)
    {
        if (q.first >= startMs && q.first < endMs)
        {
            below += q.second < kmax;
            nq++;
            qmax = std::max(qmax, q.second);
        }
    }
    if (!traceFile.empty())
    {
        FILE* t = std::fopen(traceFile.c_str(), "w");
        if (t)
        {
            std::fprintf(t, "ms");
            for (uint32_t i = 0; i < senders; i++)
            {
                std::fprintf(t, ",flow%u_gbps", i);
            }
            std::fprintf(t, "\n");
            for (uint32_t b = 0; b < bins; b++)
            {
                std::fprintf(t, "%u", b);
                for (uint32_t i = 0; i < senders; i++)
                {
                    std::fprintf(t, ",%.3f", bytes[i][b] * 8e3 / 1e9);
                }
                std::fprintf(t, "\n");
            }
            /*
             * What the DCQCN fluid model (sim/plots/dcqcn_fluid.py) needs:
             * the profile as SET_CC takes it, the switch's RED, the links.
             */
            struct wren_cc_params cp;
            ro_cc_profile(&cp, cc, 0x08, rate / 1000000);
            std::fprintf(t, "# parameters: p,name,value\n");
            std::fprintf(t, "p,senders,%u\np,join_ms,%g\np,start_ms,%g\np,end_ms,%g\n", senders,
                         joinMs, startMs, endMs);
            std::fprintf(t, "p,link_bps,%llu\np,link_delay_ns,1000\np,frame_bytes,%u\n",
                         static_cast<unsigned long long>(rate),
                         WrenNetDevice::kFlowMtu + kRoceV2HeaderBytes);
            std::fprintf(t, "p,payload_bytes,%u\np,wire_overhead_bytes,%u\n",
                         WrenNetDevice::kFlowMtu, kWireOverheadBytes);
            std::fprintf(t, "p,kmin,%llu\np,kmax,%llu\np,pmax,%g\n",
                         static_cast<unsigned long long>(scfg.kminAt100g),
                         static_cast<unsigned long long>(scfg.kmaxAt100g), scfg.pmax);
            std::fprintf(t,
                         "p,cnp_interval_us,%u\np,reduce_period_us,%u\np,alpha_update_us,%u\n"
                         "p,time_reset_us,%u\np,byte_reset,%u\np,ai_mbps,%u\np,g_1024,%u\n"
                         "p,min_rate_mbps,%u\np,initial_alpha,%u\n",
                         cp.np_min_time_between_cnps_us, cp.rp_rate_reduce_period_us,
                         cp.rp_alpha_update_us, cp.rp_time_reset_us, cp.rp_byte_reset,
                         cp.rp_ai_rate_mbps, cp.rp_g, cp.rp_min_rate_mbps, cp.rp_initial_alpha);
            std::fprintf(t, "# queue: ms,bytes\n");
            for (auto& q : qs)
            {
                std::fprintf(t, "q,%.3f,%llu\n", q.first, static_cast<unsigned long long>(q.second));
            }
            std::fclose(t);
        }
    }

    uint64_t npMarked = topo.Host(rx)->Counter(WREN_COUNTERS_CC, 0, WREN_CC_CNT_NP_ECN_MARKED_ROCE_PACKETS);
    uint64_t cnps = topo.Host(rx)->Counter(WREN_COUNTERS_CC, 0, WREN_CC_CNT_NP_CNP_SENT);
    uint64_t handled = 0, cuts = 0;
    for (uint32_t i = 0; i < senders; i++)
    {
        handled += topo.Host(i)->Counter(WREN_COUNTERS_CC, 0, WREN_CC_CNT_RP_CNP_HANDLED);
        cuts += topo.Host(i)->Counter(WREN_COUNTERS_CC, 0, WREN_CC_CNT_RP_RATE_REDUCTIONS);
    }
    r.Figure("e1: ECN: %llu marked at the switch, %llu seen marked by the receiver, %llu CNPs "
             "sent, %llu handled by the senders, %llu rate cuts",
             static_cast<unsigned long long>(s->Stats(rxPort, 3).marked),
             static_cast<unsigned long long>(npMarked), static_cast<unsigned long long>(cnps),
             static_cast<unsigned long long>(handled), static_cast<unsigned long long>(cuts));
    r.Figure("e1: %u senders -> 1 receiver, one switch, 100 Gb/s, 1 us links, profile %s, "
             "joins %.0f ms apart, measured %.0f-%.0f ms",
             senders, profile.c_str(), joinMs, startMs, endMs);
    for (uint32_t i = 0; i < senders; i++)
    {
        r.Figure("e1: flow %u: %.2f Gb/s mean (fair share %.2f)", i, mean[i] / 1e9, fair / 1e9);
    }
    r.Figure("e1: receiver queue max %llu bytes, Kmax %llu; PFC frames from the switch: "
             "%llu in all, %llu after convergence",
             static_cast<unsigned long long>(qmax), static_cast<unsigned long long>(kmax),
             static_cast<unsigned long long>(pfcAll),
             static_cast<unsigned long long>(pfcAll - pfcAtStart));
    r.Criterion(total && within * 100 >= total * 100 && jainMin >= 0.99,
                "e1: every flow's 1 ms rate within 10 %% of fair (%u of %u bins), "
                "Jain's index >= 0.99 (least %.4f)",
                within, total, jainMin);
    r.Criterion(nq && below * 100 >= nq * 95,
                "e1: receiver queue below Kmax in %.1f %% of samples, target >= 95 %%",
                nq ? 100.0 * below / nq : 0);
    r.Criterion(pfcAll == pfcAtStart, "e1: no PFC after convergence (%llu)",
                static_cast<unsigned long long>(pfcAll - pfcAtStart));
    r.Criterion(util >= 0.95, "e1: receiver link %.1f %% busy with payload, target >= 95 %%",
                util * 100);
    r.Speed("e1", Simulator::GetEventCount(), Simulator::Now().GetSeconds());
    Simulator::Destroy();
    return r.Done();
}
