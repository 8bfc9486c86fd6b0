// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A datacenter switch for the simulation, built around a shared buffer:
 *
 * - Ingress: MAC control frames (PFC, 802.3x) pause the port's egress
 *   queues for their quanta; other frames are classified by DSCP (the
 *   fabric's rule, tools/fabric/lib), routed by destination IPv4 address
 *   over equal-cost next hops (a hash of addresses and UDP ports, seeded
 *   per switch), and admitted by the buffer: a reserve per (ingress port,
 *   priority), then the shared pool up to a dynamic threshold (alpha
 *   times what is free), then, for lossless priorities, the port's
 *   headroom.  A lossless queue over its threshold, or into headroom,
 *   makes the port send XOFF upstream (refreshed at half the pause time)
 *   and XON once it drains below the threshold by the resume offset; a
 *   lossy frame over the threshold is dropped.
 * - Egress: eight queues a port; PFC and pause frames first, then strict
 *   priorities highest first, then deficit round robin; paused priorities
 *   skipped.  RED/ECN marks ECT frames by the egress queue's depth as they
 *   are queued.  A frame leaves when the wire is free.
 * - PFC watchdog: a lossless queue with frames that stays paused for the
 *   detect time is in a storm: its frames are dropped (counted) and
 *   pauses on it ignored until pauses have stopped for the restore time.
 */
#ifndef WREN_SWITCH_H
#define WREN_SWITCH_H

#include "wren-channel.h"

#include "ns3/event-id.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

extern "C"
{
#include "ecn.h"
#include "ether.h"
#include "pfc_frame.h"
#include "prng.h"
}

namespace ns3
{

struct WrenSwitchConfig
{
    uint64_t bufferBytes = 32ull << 20;
    uint32_t reserveBytes = 4096;  /* per (ingress port, priority) */
    uint32_t resumeOffset = 3072;  /* XON this far below the threshold */
    uint32_t alphaShift = 3;       /* threshold = free >> shift (1/8) */
    uint8_t losslessMask = 0x08;   /* priorities with PFC */
    uint8_t strictMask = 0xc0;     /* 6 (CNPs) and 7 served first */
    bool ecn = true;               /* RED/ECN on the lossless priorities */
    /* RED at 100 Gb/s; scaled with the port's rate. */
    uint64_t kminAt100g = 400000;
    uint64_t kmaxAt100g = 1600000;
    double pmax = 0.2;
    bool watchdog = true;
    Time wdDetect = MilliSeconds(200);
    Time wdRestore = MilliSeconds(200);
    uint64_t seed = 1;
};

/* Per port and priority: what the experiments read. */
struct WrenQueueStats
{
    uint64_t txFrames = 0, txBytes = 0;
    uint64_t marked = 0;
    uint64_t losslessDrops = 0, lossyDrops = 0, wdDrops = 0;
    uint64_t pfcSent = 0, pfcReceived = 0;
    uint64_t maxDepth = 0;
    uint64_t storms = 0;
};

class WrenSwitch : public Object
{
  public:
    static TypeId GetTypeId();
    WrenSwitch();
    ~WrenSwitch() override;

    void Configure(const WrenSwitchConfig& cfg);
    /* A port on @channel, whose link runs at @rate with @delay. */
    uint32_t AddPort(Ptr<WrenChannel> channel);
    /*
     * Whether the buffer holds every port's reserves and lossless
     * headroom with room to share: a switch short of it would hold its
     * senders in XOFF for good, so a topology refuses to build one.
     */
    bool BufferFits() const;
    WrenPort* GetPort(uint32_t port);
    /* Frames to @dstIp (host order) leave by one of @ports (ECMP). */
    void SetRoute(uint32_t dstIp, const std::vector<uint32_t>& ports);
    void SetId(uint32_t id);

    uint32_t GetNPorts() const;
    const WrenQueueStats& Stats(uint32_t port, uint8_t prio) const;
    /* Bytes queued for @port's @prio now. */
    uint64_t QueueBytes(uint32_t port, uint8_t prio) const;
    /* Whether @port's egress @prio is paused now (a cycle finder's view). */
    bool EgressPaused(uint32_t port, uint8_t prio) const;
    /* How long this switch has held @port's upstream in XOFF on @prio. */
    Time XoffTime(uint32_t port, uint8_t prio) const;
    uint64_t NoRouteDrops() const;
    /* Frames dropped because their TTL ran out (a routing loop). */
    uint64_t TtlDrops() const;
    /* Called with every data frame a port sends (the experiments' meter). */
    using TxTrace = std::function<void(uint32_t port, uint8_t prio, const uint8_t* f, uint32_t len)>;
    void SetTxTrace(TxTrace trace);

  protected:
    void DoDispose() override;

  private:
    struct Frame
    {
        std::vector<uint8_t> data;
        uint32_t inPort;
        uint8_t prio;
        bool headroom; /* charged to headroom, not the shared pool */
    };

    struct Queue
    {
        std::deque<Frame> frames;
        uint64_t bytes = 0;
        Time pausedUntil;       /* egress held by a received pause */
        Time stormSince;        /* paused without a break since */
        bool paused = false;
        bool storm = false;     /* watchdog: dropping, pauses ignored */
        Time lastPause;         /* last pause received (restore) */
        uint32_t deficit = 0;
        WrenQueueStats stats;
    };

    struct Ingress
    {
        uint64_t bytes = 0;     /* reserve + shared charged */
        uint64_t headroom = 0;  /* headroom charged */
        bool xoff = false;
        Time xoffSince;
        Time xoffTime;          /* XOFF periods that ended */
        EventId refresh;
    };

    class Port : public WrenPort
    {
      public:
        void ReceiveFrame(const uint8_t* frame, uint32_t len) override;

        WrenSwitch* sw = nullptr;
        uint32_t index = 0;
        Ptr<WrenChannel> channel;
        DataRate rate;
        uint64_t rateBps = 0;
        struct red_config red; /* Kmin and Kmax scaled to the rate */
        uint64_t headroomBytes = 0;
        Time busyUntil;
        EventId txEvent;
        Queue q[FABRIC_PRIOS];
        Ingress in[FABRIC_PRIOS];
        std::deque<std::vector<uint8_t>> ctrl; /* PFC frames to send */
        uint8_t drrNext = 0;
        uint8_t mac[ETH_ALEN];
    };

    void Ingress_(Port* p, const uint8_t* f, uint32_t len);
    void PauseReceived(Port* p, const struct mac_ctrl& c);
    int Route(const uint8_t* f, uint32_t len);
    uint64_t Threshold() const;
    bool Admit(Port* in, uint8_t prio, uint32_t len, bool* headroom);
    void Release(const Frame& fr);
    void CheckXoff(Port* in, uint8_t prio);
    void SendPfc(Port* p, uint8_t prio, uint16_t quanta);
    void Refresh(uint32_t port, uint8_t prio);
    void Kick(Port* p);
    void Transmit(uint32_t port);
    int Pick(Port* p);
    void Watchdog(Port* p, uint8_t prio);
    Time QuantaTime(const Port* p, uint32_t quanta) const;

    WrenSwitchConfig m_cfg;
    TxTrace m_txTrace;
    std::vector<std::unique_ptr<Port>> m_ports;
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_routes;
    uint64_t m_shared;       /* shared pool in use */
    uint64_t m_headroomTotal;
    uint64_t m_reserveTotal;
    uint64_t m_noRoute;
    uint64_t m_ttlDrops;
    uint32_t m_id;
    uint8_t m_dscpMap[DSCP_COUNT];
    struct prng m_prng;
};

} // namespace ns3

#endif
