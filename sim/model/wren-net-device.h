// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A Wren NIC in ns-3: the product's NIC logic (libwrenhw, the same C
 * that runs inside QEMU) and the host stub that programs it through the
 * hardware contract (hw/host), on ns-3's clock.  The model's one timer
 * and its requests for deferred work become ns-3 events; the frames its
 * port scheduler starts go onto a WrenChannel, and frames from the
 * channel go into the model.  Hosts move data as RC flows (hw/host
 * flow.h), started through StartFlow().
 *
 * It is a WrenPortDevice, the NetDevice every end of a Wren link is, so
 * that ns-3 sees it; ns-3's own stacks do not send through it: the NIC
 * makes its RoCEv2 frames itself.
 */
#ifndef WREN_NET_DEVICE_H
#define WREN_NET_DEVICE_H

#include "wren-channel.h"
#include "wren-port-device.h"

#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"

#include <functional>
#include <memory>
#include <vector>

extern "C"
{
#include "cc.h"
#include "flow.h"
}

namespace ns3
{

class WrenNetDevice : public WrenPortDevice, public WrenPort
{
  public:
    /* The payload of a flow's full frame: its QPs' path MTU. */
    static constexpr uint32_t kFlowMtu = 4096;
    /* What a link of @bps carries of flow payload at most. */
    static double PayloadRate(double bps)
    {
        return bps * kFlowMtu / (kFlowMtu + kRoceV2HeaderBytes + kWireOverheadBytes);
    }

    static TypeId GetTypeId();
    WrenNetDevice();
    ~WrenNetDevice() override;

    /*
     * Makes the NIC: host @index (its MAC and GIDs follow from it), a
     * port of @linkMbps on a discrete clock, flows over RC with path
     * MTU 4096.  False if the model or its host could not be made.
     */
    bool Setup(uint32_t index, uint32_t linkMbps);
    /* DCQCN through SET_CC on @prioMask; 0 or the command's status. */
    int SetCc(enum ro_cc_profile profile, uint8_t prioMask);
    /*
     * Lossless on @pfcEn: PFC there and DSCP trust (priority = DSCP >> 3),
     * as wren-qos's lossless profile sets a port; 0 or the first failed
     * command's status.
     */
    int SetLossless(uint8_t pfcEn);
    /* Traffic class @tc (priority @tc by default) shaped to @kbps. */
    int SetMaxRate(uint8_t tc, uint64_t kbps);

    /* Called when a flow this host sent ends, with its StartFlow() tag. */
    using FlowDone = std::function<void(struct ro_flow*, uint64_t tag)>;
    void SetFlowDone(FlowDone cb);
    /* A flow of @bytes to @dst on @prio; nullptr if it could not start. */
    struct ro_flow* StartFlow(Ptr<WrenNetDevice> dst,
                              enum ro_flow_op op,
                              uint64_t bytes,
                              uint8_t prio,
                              uint64_t tag = 0);

    /*
     * Flows keep their QPs once they end, until ReleaseFlow(): for runs
     * over several processes, where the two ends of a flow release them
     * at a time both know (ro_flow_host.defer_release).
     */
    void SetDeferRelease(bool defer);
    /* @f (started here, ended or not): its QPs destroyed, then freed. */
    void ReleaseFlow(struct ro_flow* f);
    /*
     * Whether this process simulates the NIC (its node's system id is
     * this MPI rank).  Another process's NIC is built all the same and
     * its QPs made and destroyed in step, so that QP numbers agree, but
     * it sends nothing and keeps no timer.
     */
    bool IsLocal() const;

    struct ro_node* GetNic();
    /* A flow of this host ended: the callback, then the flow is freed. */
    void NotifyFlowDone(struct ro_flow* f);
    uint64_t Counter(uint8_t set, uint32_t index, unsigned int n);

    /* WrenPort */
    void ReceiveFrame(const uint8_t* frame, uint32_t len) override;

    /* NetDevice: a host's MTU, not a switch port's */
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;

  protected:
    void DoDispose() override;

  private:
    static void TxHook(void* ctx, const void* frame, size_t len);
    static void TimerHook(void* ctx, uint64_t deadlineNs);
    static void ScheduleHook(void* ctx);
    /* The model's clock is ns-3's: set before every call into it. */
    void Sync();
    void TimerFired();
    void Process();
    /* Flows: refill and end after every call into the model. */
    void PollFlows();

    struct ro_node m_nic;
    struct ro_flow_host m_flows;
    bool m_ready;
    bool m_local;
    uint32_t m_linkMbps;
    EventId m_timer;
    bool m_processPending;
    FlowDone m_flowDone;
    /* A flow this host sent; the flow first, so it leads to its tag. */
    struct Sent
    {
        struct ro_flow f;
        uint64_t tag;
    };
    std::vector<std::unique_ptr<Sent>> m_sent;
};

} // namespace ns3

#endif
