// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * E0: two Wren NICs back to back at 100 Gb/s over a 1 us link.  One RC
 * WRITE flow; its goodput against the payload line rate (what the wire
 * carries of a 4096-byte MTU's frames once headers, ICRC, preamble, FCS
 * and gap are paid).  Target: at least 95 %.
 *
 *   make sim-e0 [E0_MIB=64]
 */
#include "report.h"
#include "wren-net-device.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <cstdio>
#include <cstdlib>
#include <malloc.h>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t mib = 64;
    uint32_t linkMbps = 100000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("mib", "flow size in MiB", mib);
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
    Ptr<WrenNetDevice> nic[2];
    for (int i = 0; i < 2; i++)
    {
        nic[i] = CreateObject<WrenNetDevice>();
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
    r.Speed("e0", Simulator::GetEventCount(), Simulator::Now().GetSeconds());
    Simulator::Destroy();
    return r.Done();
}
