// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "wren-hpcc-files.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/* Bounds that keep a typo from asking for millions of NICs. */
const uint32_t kMaxNodes = 100000;
const uint32_t kMaxLinks = 1000000;
const uint32_t kMaxFlows = 100000000;

/* A line reader that knows where it is, for the messages. */
class Lines
{
  public:
    explicit Lines(const std::string& path)
        : m_path(path),
          m_in(path)
    {
    }

    bool Open() const
    {
        return m_in.good();
    }

    /* The next line with something on it; false at the end. */
    bool Next(std::istringstream* is)
    {
        std::string line;
        while (std::getline(m_in, line))
        {
            m_line++;
            if (line.find_first_not_of(" \t\r") != std::string::npos)
            {
                is->clear();
                is->str(line);
                return true;
            }
        }
        return false;
    }

    std::string Where() const
    {
        return m_path + ":" + std::to_string(m_line);
    }

  private:
    std::string m_path;
    std::ifstream m_in;
    unsigned int m_line = 0;
};

bool
Fail(std::string* err, const std::string& msg)
{
    *err = msg;
    return false;
}

/* Nothing but blanks left on the line. */
bool
Done(std::istringstream& is)
{
    std::string rest;
    return !(is >> rest);
}

/* ns-3's Time parser aborts on what it cannot read: look first. */
bool
ParseTime(const std::string& s, Time* t)
{
    static const std::regex re("^[0-9]+(\\.[0-9]*)?(e[-+]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d)$");
    if (!std::regex_match(s, re))
    {
        return false;
    }
    *t = Time(s);
    return true;
}

} // namespace

bool
HpccFiles::ReadTopology(const std::string& path,
                        const WrenSwitchConfig& cfg,
                        WrenTopology& topo,
                        std::string* err)
{
    struct Link
    {
        uint32_t a, b;
        DataRate rate;
        Time delay;
    };

    Lines in(path);
    std::istringstream is;
    uint32_t n = 0, s = 0, l = 0;

    if (!in.Open())
    {
        return Fail(err, path + ": cannot be read");
    }
    if (!in.Next(&is) || !(is >> n >> s >> l) || !Done(is) || !n || n > kMaxNodes ||
        s >= n || l > kMaxLinks)
    {
        return Fail(err, in.Where() + ": expected \"nodes switches links\" (nodes 1.." +
                             std::to_string(kMaxNodes) + ", fewer switches than nodes)");
    }
    std::vector<bool> isSwitch(n, false);
    if (s && !in.Next(&is))
    {
        return Fail(err, in.Where() + ": the switch ids are missing");
    }
    for (uint32_t i = 0; i < s; i++)
    {
        uint32_t id;
        if (!(is >> id) || id >= n || isSwitch[id])
        {
            return Fail(err, in.Where() + ": switch id " + std::to_string(i + 1) +
                                 " is not a new node id below " + std::to_string(n));
        }
        isSwitch[id] = true;
    }
    if (s && !Done(is))
    {
        return Fail(err, in.Where() + ": more switch ids than " + std::to_string(s));
    }
    std::vector<Link> links;
    std::vector<uint32_t> hostLinks(n, 0);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t i = 0; i < l; i++)
    {
        std::string rate, delay;
        double errorRate = -1;
        Link k;

        if (!in.Next(&is))
        {
            return Fail(err, path + ": " + std::to_string(l) + " links announced, " +
                                 std::to_string(i) + " found");
        }
        if (!(is >> k.a >> k.b >> rate >> delay >> errorRate) || !Done(is))
        {
            return Fail(err, in.Where() + ": expected \"a b rate delay error_rate\"");
        }
        std::istringstream rs(rate);
        if (k.a >= n || k.b >= n || k.a == k.b)
        {
            return Fail(err, in.Where() + ": a link joins two different node ids below " +
                                 std::to_string(n));
        }
        if (!(rs >> k.rate) || !k.rate.GetBitRate())
        {
            return Fail(err, in.Where() + ": rate \"" + rate + "\" is not a DataRate (\"100Gbps\")");
        }
        if (!ParseTime(delay, &k.delay))
        {
            return Fail(err, in.Where() + ": delay \"" + delay + "\" is not a time (\"1000ns\")");
        }
        if (errorRate != 0)
        {
            return Fail(err, in.Where() + ": link error rates are not supported (0 only)");
        }
        if (!isSwitch[k.a] && !isSwitch[k.b])
        {
            return Fail(err, in.Where() + ": hosts link to switches only");
        }
        if (!seen.insert({std::min(k.a, k.b), std::max(k.a, k.b)}).second)
        {
            return Fail(err, in.Where() + ": a second link between the same two nodes");
        }
        for (uint32_t x : {k.a, k.b})
        {
            hostLinks[x] += !isSwitch[x];
        }
        links.push_back(k);
    }
    m_fileId.clear();
    m_host.assign(n, -1);
    std::vector<uint32_t> hostRate;
    for (uint32_t id = 0; id < n; id++)
    {
        if (isSwitch[id])
        {
            continue;
        }
        if (hostLinks[id] != 1)
        {
            return Fail(err, path + ": host " + std::to_string(id) + " has " +
                                 std::to_string(hostLinks[id]) + " links; a NIC has one port");
        }
        m_host[id] = m_fileId.size();
        m_fileId.push_back(id);
    }
    /* Each host's NIC runs at its link's rate. */
    hostRate.assign(m_fileId.size(), 0);
    for (const Link& k : links)
    {
        for (uint32_t x : {k.a, k.b})
        {
            if (m_host[x] >= 0)
            {
                hostRate[m_host[x]] = static_cast<uint32_t>(k.rate.GetBitRate() / 1000000);
            }
        }
    }
    /* Topology ids: the hosts in file order, then the switches. */
    std::vector<uint32_t> topoId(n);
    uint32_t nextSwitch = m_fileId.size();
    for (uint32_t id = 0; id < n; id++)
    {
        topoId[id] = isSwitch[id] ? nextSwitch++ : m_host[id];
    }
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (const Link& k : links)
    {
        edges.emplace_back(topoId[k.a], topoId[k.b]);
    }
    topo.SetRanks(WrenTopology::Partition(m_fileId.size(), n, edges, WrenRanks()));
    for (uint32_t h = 0; h < m_fileId.size(); h++)
    {
        if (!topo.AddHosts(1, hostRate[h]))
        {
            return Fail(err, path + ": host " + std::to_string(m_fileId[h]) +
                                 ": its NIC could not be made at " +
                                 std::to_string(hostRate[h]) + " Mb/s");
        }
    }
    for (uint32_t id = 0; id < n; id++)
    {
        if (isSwitch[id])
        {
            topo.AddSwitch(cfg);
        }
    }
    for (const Link& k : links)
    {
        topo.Link(topoId[k.a], topoId[k.b], k.rate.GetBitRate(), k.delay);
    }
    topo.ComputeRoutes();
    if (!topo.ShortBuffersMessage().empty())
    {
        return Fail(err, path + ": " + topo.ShortBuffersMessage());
    }
    return true;
}

bool
HpccFiles::ReadFlows(const std::string& path, std::vector<HpccFlow>* flows, std::string* err)
{
    Lines in(path);
    std::istringstream is;
    uint32_t count = 0;

    if (!in.Open())
    {
        return Fail(err, path + ": cannot be read");
    }
    if (!in.Next(&is) || !(is >> count) || !Done(is) || count > kMaxFlows)
    {
        return Fail(err, in.Where() + ": expected the number of flows (at most " +
                             std::to_string(kMaxFlows) + ")");
    }
    flows->clear();
    for (uint32_t i = 0; i < count; i++)
    {
        uint32_t src, dst, pg, dport;
        uint64_t bytes;
        double start;

        if (!in.Next(&is))
        {
            return Fail(err, path + ": " + std::to_string(count) + " flows announced, " +
                                 std::to_string(i) + " found");
        }
        if (!(is >> src >> dst >> pg >> dport >> bytes >> start) || !Done(is))
        {
            return Fail(err, in.Where() + ": expected \"src dst priority dport bytes start_s\"");
        }
        if (src >= m_host.size() || dst >= m_host.size() || m_host[src] < 0 || m_host[dst] < 0 ||
            src == dst)
        {
            return Fail(err, in.Where() + ": src and dst must be two different hosts");
        }
        if (pg > 7 || !bytes || !(start >= 0 && start < 1e6) || dport > 65535)
        {
            return Fail(err, in.Where() + ": priority 0..7, bytes > 0, start 0..1e6 s, "
                                          "dport 0..65535");
        }
        flows->push_back({uint32_t(m_host[src]), uint32_t(m_host[dst]), uint8_t(pg), dport,
                          bytes, start});
    }
    if (in.Next(&is))
    {
        return Fail(err, in.Where() + ": more flows than the " + std::to_string(count) +
                             " announced");
    }
    return true;
}

uint32_t
HpccFiles::FileId(uint32_t host) const
{
    return m_fileId.at(host);
}

int
HpccFiles::HostOf(uint32_t fileId) const
{
    return fileId < m_host.size() ? m_host[fileId] : -1;
}

void
HpccFiles::WriteFct(FILE* out,
                    uint32_t sip,
                    uint32_t dip,
                    uint32_t sport,
                    uint32_t dport,
                    uint64_t bytes,
                    uint64_t startNs,
                    uint64_t fctNs,
                    uint64_t standaloneNs)
{
    std::fprintf(out,
                 "%08x %08x %u %u %llu %llu %llu %llu\n",
                 sip,
                 dip,
                 sport,
                 dport,
                 static_cast<unsigned long long>(bytes),
                 static_cast<unsigned long long>(startNs),
                 static_cast<unsigned long long>(fctNs),
                 static_cast<unsigned long long>(standaloneNs));
}

} // namespace ns3
