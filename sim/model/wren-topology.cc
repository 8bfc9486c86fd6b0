// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "wren-topology.h"

#include "wren-port-device.h"

#include "ns3/node.h"

#include <algorithm>
#include <deque>
#include <functional>

namespace ns3
{

bool
WrenTopology::AddHosts(uint32_t n, uint32_t linkMbps)
{
    if (!m_switches.empty())
    {
        return false; /* hosts first: their ids are 0 .. n-1 */
    }
    for (uint32_t i = 0; i < n; i++)
    {
        Ptr<Node> node = CreateObject<Node>(RankOf(m_hosts.size()));
        Ptr<WrenNetDevice> nic = CreateObject<WrenNetDevice>();

        node->AddDevice(nic);
        if (!nic->Setup(m_hosts.size() + 1, linkMbps))
        {
            return false;
        }
        m_nodes.Add(node);
        m_hosts.push_back(nic);
        m_adj.emplace_back();
    }
    return true;
}

uint32_t
WrenTopology::AddSwitch(const WrenSwitchConfig& cfg)
{
    Ptr<WrenSwitch> sw = CreateObject<WrenSwitch>();
    uint32_t id = m_hosts.size() + m_switches.size();

    sw->Configure(cfg);
    sw->SetId(id); /* after the seed: ECMP and RED draw per switch */
    m_switches.push_back(sw);
    m_switchNodes.push_back(CreateObject<Node>(RankOf(id)));
    m_adj.emplace_back();
    return id;
}

Ptr<WrenChannel>
WrenTopology::Link(uint32_t a, uint32_t b, uint64_t rateBps, Time delay)
{
    Ptr<WrenChannel> ch = CreateObject<WrenChannel>();
    WrenPort* end[2];
    Ptr<NetDevice> dev[2];
    int port[2] = {-1, -1};
    uint32_t id[2] = {a, b};
    uint32_t slot[2] = {0, 0};

    ch->SetAttribute("DataRate", DataRateValue(DataRate(rateBps)));
    ch->SetAttribute("Delay", TimeValue(delay));
    for (int i = 0; i < 2; i++)
    {
        if (id[i] < m_hosts.size())
        {
            m_hosts[id[i]]->Attach(ch);
            end[i] = PeekPointer(m_hosts[id[i]]);
            dev[i] = m_hosts[id[i]];
        }
        else
        {
            Ptr<WrenSwitch> sw = Switch(id[i]);
            Ptr<WrenPortDevice> pd = CreateObject<WrenPortDevice>();
            port[i] = sw->AddPort(ch);
            end[i] = sw->GetPort(port[i]);
            slot[i] = port[i];
            m_switchNodes[id[i] - m_hosts.size()]->AddDevice(pd);
            pd->Attach(ch);
            dev[i] = pd;
        }
    }
    ch->Connect(end[0], dev[0], slot[0], end[1], dev[1], slot[1]);
    m_maxDelay = std::max(m_maxDelay, delay);
    if (RankOf(a) != RankOf(b))
    {
        m_lookahead = m_crossing ? std::min(m_lookahead, delay) : delay;
        m_crossing++;
        std::pair<uint32_t, uint32_t> j(std::min(RankOf(a), RankOf(b)),
                                        std::max(RankOf(a), RankOf(b)));
        if (std::find(m_joined.begin(), m_joined.end(), j) == m_joined.end())
        {
            m_joined.push_back(j);
        }
    }
    m_adj[a].push_back({b, port[0], rateBps, delay});
    m_adj[b].push_back({a, port[1], rateBps, delay});
    return ch;
}

void
WrenTopology::ComputeRoutes()
{
    uint32_t n = m_adj.size();

    for (uint32_t h = 0; h < m_hosts.size(); h++)
    {
        /* Distances to host h, breadth first. */
        std::vector<uint32_t> dist(n, UINT32_MAX);
        std::deque<uint32_t> todo{h};

        dist[h] = 0;
        while (!todo.empty())
        {
            uint32_t u = todo.front();
            todo.pop_front();
            /* Hosts do not forward: only the start is one. */
            if (u != h && u < m_hosts.size())
            {
                continue;
            }
            for (const Edge& e : m_adj[u])
            {
                if (dist[e.to] == UINT32_MAX)
                {
                    dist[e.to] = dist[u] + 1;
                    todo.push_back(e.to);
                }
            }
        }
        for (uint32_t s = m_hosts.size(); s < n; s++)
        {
            std::vector<uint32_t> hops;

            for (const Edge& e : m_adj[s])
            {
                if (dist[s] != UINT32_MAX && dist[e.to] + 1 == dist[s])
                {
                    hops.push_back(e.port);
                }
            }
            if (!hops.empty())
            {
                Switch(s)->SetRoute(HostIp(h), hops);
            }
        }
    }
}

void
WrenTopology::SetRanks(std::vector<uint32_t> rankOf)
{
    m_rankOf = std::move(rankOf);
}

uint32_t
WrenTopology::RankOf(uint32_t id) const
{
    return id < m_rankOf.size() ? m_rankOf[id] : 0;
}

uint32_t
WrenTopology::CrossingLinks() const
{
    return m_crossing;
}

Time
WrenTopology::Lookahead() const
{
    return m_lookahead;
}

Time
WrenTopology::MaxDelay() const
{
    return m_maxDelay;
}

bool
WrenTopology::RanksAllJoined(uint32_t ranks) const
{
    return m_joined.size() == std::size_t(ranks) * (ranks - 1) / 2;
}

std::vector<uint32_t>
WrenTopology::Partition(uint32_t hosts,
                        uint32_t nodes,
                        const std::vector<std::pair<uint32_t, uint32_t>>& links,
                        uint32_t ranks)
{
    std::vector<uint32_t> rank(nodes, UINT32_MAX);
    std::vector<std::vector<uint32_t>> adj(nodes);
    std::vector<uint32_t> hostsOf(nodes, 0);

    if (ranks <= 1 || !hosts)
    {
        return std::vector<uint32_t>(nodes, 0);
    }
    for (const auto& l : links)
    {
        adj[l.first].push_back(l.second);
        adj[l.second].push_back(l.first);
        if (l.first < hosts && l.second >= hosts)
        {
            hostsOf[l.second]++;
        }
        if (l.second < hosts && l.first >= hosts)
        {
            hostsOf[l.first]++;
        }
    }
    /* Edge switches in blocks of about hosts / ranks hosts. */
    uint64_t before = 0;
    for (uint32_t s = hosts; s < nodes; s++)
    {
        if (hostsOf[s])
        {
            uint64_t mid = before + hostsOf[s] / 2;
            rank[s] = std::min<uint32_t>(ranks - 1, mid * ranks / hosts);
            before += hostsOf[s];
        }
    }
    for (uint32_t h = 0; h < hosts; h++)
    {
        rank[h] = 0;
        for (uint32_t v : adj[h])
        {
            if (v >= hosts && rank[v] != UINT32_MAX)
            {
                rank[h] = rank[v];
            }
        }
    }
    /* The other switches, layer by layer away from the edge. */
    std::vector<uint32_t> layer;
    for (uint32_t s = hosts; s < nodes; s++)
    {
        if (rank[s] != UINT32_MAX)
        {
            layer.push_back(s);
        }
    }
    while (!layer.empty())
    {
        std::vector<uint32_t> next;
        for (uint32_t u : layer)
        {
            for (uint32_t v : adj[u])
            {
                if (v >= hosts && rank[v] == UINT32_MAX &&
                    std::find(next.begin(), next.end(), v) == next.end())
                {
                    next.push_back(v);
                }
            }
        }
        std::sort(next.begin(), next.end());
        std::vector<uint32_t> ties(ranks, 0);
        for (uint32_t v : next)
        {
            std::vector<uint32_t> votes(ranks, 0);
            for (uint32_t w : adj[v])
            {
                if (rank[w] != UINT32_MAX)
                {
                    votes[rank[w]]++;
                }
            }
            uint32_t top = *std::max_element(votes.begin(), votes.end()), best = UINT32_MAX;
            bool tie = std::count(votes.begin(), votes.end(), top) > 1;
            for (uint32_t r = 0; r < ranks; r++)
            {
                /* A tie goes to the tied rank that has won fewest ties. */
                if (votes[r] == top && (best == UINT32_MAX || ties[r] < ties[best]))
                {
                    best = r;
                }
            }
            rank[v] = best;
            ties[best] += tie;
        }
        layer = next;
    }
    for (uint32_t& r : rank)
    {
        r = r == UINT32_MAX ? 0 : r; /* a switch joined to nothing */
    }
    return rank;
}

uint32_t
WrenTopology::NHosts() const
{
    return m_hosts.size();
}

Ptr<WrenNetDevice>
WrenTopology::Host(uint32_t i) const
{
    return m_hosts.at(i);
}

Ptr<WrenSwitch>
WrenTopology::Switch(uint32_t id) const
{
    return m_switches.at(id - m_hosts.size());
}

uint32_t
WrenTopology::HostIp(uint32_t i)
{
    return (10u << 24) + i + 1;
}

int
WrenTopology::PortTowards(uint32_t sw, uint32_t peer) const
{
    for (const Edge& e : m_adj.at(sw))
    {
        if (e.to == peer)
        {
            return e.port;
        }
    }
    return -1;
}

void
WrenTopology::SetRoute(uint32_t sw, uint32_t host, uint32_t next)
{
    int port = PortTowards(sw, next);
    if (port >= 0)
    {
        Switch(sw)->SetRoute(HostIp(host), {uint32_t(port)});
    }
}

uint32_t
WrenTopology::NNodes() const
{
    return m_adj.size();
}

std::vector<uint32_t>
WrenTopology::PausedCycle(uint8_t prio) const
{
    uint32_t n = m_adj.size(), first = m_hosts.size();
    /* Switch u waits for v: u's egress to v is paused. */
    std::vector<std::vector<uint32_t>> waits(n);
    for (uint32_t u = first; u < n; u++)
    {
        for (const Edge& e : m_adj[u])
        {
            if (e.to >= first && Switch(u)->EgressPaused(e.port, prio))
            {
                waits[u].push_back(e.to);
            }
        }
    }
    /* Depth first: a back edge closes a cycle. */
    std::vector<int> state(n, 0); /* 0 new, 1 on the path, 2 done */
    std::vector<uint32_t> path;
    std::vector<uint32_t> cycle;
    std::function<bool(uint32_t)> dfs = [&](uint32_t u) {
        state[u] = 1;
        path.push_back(u);
        for (uint32_t v : waits[u])
        {
            if (state[v] == 1)
            {
                auto it = std::find(path.begin(), path.end(), v);
                cycle.assign(it, path.end());
                cycle.push_back(v);
                return true;
            }
            if (state[v] == 0 && dfs(v))
            {
                return true;
            }
        }
        path.pop_back();
        state[u] = 2;
        return false;
    };
    for (uint32_t u = first; u < n; u++)
    {
        if (state[u] == 0 && dfs(u))
        {
            break;
        }
    }
    return cycle;
}

bool
WrenTopology::Path(uint32_t src,
                   uint32_t dst,
                   uint32_t frameBytes,
                   Time* delay,
                   uint64_t* minBps,
                   Time* frameTx) const
{
    uint32_t n = m_adj.size();
    std::vector<int64_t> from(n, -1); /* the edge index at the parent */
    std::vector<uint32_t> parent(n, UINT32_MAX);
    std::deque<uint32_t> todo{src};

    parent[src] = src;
    while (!todo.empty())
    {
        uint32_t u = todo.front();
        todo.pop_front();
        if (u != src && u < m_hosts.size())
        {
            continue; /* hosts do not forward */
        }
        for (std::size_t i = 0; i < m_adj[u].size(); i++)
        {
            uint32_t v = m_adj[u][i].to;
            if (parent[v] == UINT32_MAX)
            {
                parent[v] = u;
                from[v] = i;
                todo.push_back(v);
            }
        }
    }
    if (parent[dst] == UINT32_MAX || src == dst)
    {
        return false;
    }
    *delay = Time(0);
    *frameTx = Time(0);
    *minBps = UINT64_MAX;
    for (uint32_t v = dst; v != src; v = parent[v])
    {
        const Edge& e = m_adj[parent[v]][from[v]];
        *delay += e.delay;
        *minBps = std::min(*minBps, e.bps);
        *frameTx += NanoSeconds(WrenTxNs(e.bps, frameBytes));
    }
    return true;
}

std::vector<uint32_t>
WrenTopology::ShortBuffers() const
{
    std::vector<uint32_t> ids;
    for (std::size_t i = 0; i < m_switches.size(); i++)
    {
        if (!m_switches[i]->BufferFits())
        {
            ids.push_back(m_hosts.size() + i);
        }
    }
    return ids;
}

std::string
WrenTopology::ShortBuffersMessage() const
{
    std::vector<uint32_t> ids = ShortBuffers();
    if (ids.empty())
    {
        return "";
    }
    std::string m = ids.size() > 1 ? "the shared buffers of switches" : "the shared buffer of switch";
    for (std::size_t i = 0; i < ids.size(); i++)
    {
        m += (i ? ", " : " ") + std::to_string(ids[i]);
    }
    return m + " cannot hold the ports' reserves and lossless headroom, and would hold "
               "the senders in XOFF for good (make the buffer larger)";
}

} // namespace ns3
