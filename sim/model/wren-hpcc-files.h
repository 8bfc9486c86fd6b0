// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * HPCC's simulator's files (Li et al., SIGCOMM 2019), so that its
 * topologies and traffic run on Wren and its FCT analysis reads ours:
 *
 *   topology  "N S L", then the S switch ids, then L lines
 *             "a b rate delay error_rate" (rate as ns-3 writes a DataRate,
 *             "100Gbps"; delay as a Time, "1000ns"; error rate 0)
 *   flows     "F", then F lines "src dst priority dport bytes start_s"
 *   FCT out   a line a flow: "sip dip sport dport bytes start_ns fct_ns
 *             standalone_fct_ns", addresses as 8 hex digits
 *
 * Every number is checked before anything is built: a bad file is an
 * error message naming the file, line and field, never an abort.
 */
#ifndef WREN_HPCC_FILES_H
#define WREN_HPCC_FILES_H

#include "wren-topology.h"

#include <cstdio>
#include <string>
#include <vector>

namespace ns3
{

struct HpccFlow
{
    uint32_t src, dst; /* host indexes in WrenTopology */
    uint8_t prio;
    uint32_t dport;
    uint64_t bytes;
    double startS;
};

class HpccFiles
{
  public:
    /*
     * Builds @topo from the topology file: hosts first (in file order,
     * each with exactly one link, its NIC at that link's rate), then the
     * switches (@cfg), the links and the routes.  False with @err set.
     */
    bool ReadTopology(const std::string& path,
                      const WrenSwitchConfig& cfg,
                      WrenTopology& topo,
                      std::string* err);
    /* Reads the flows (node ids of the topology file); false with @err. */
    bool ReadFlows(const std::string& path, std::vector<HpccFlow>* flows, std::string* err);

    /* The file's node id of host @i, and the host of file node @id (-1). */
    uint32_t FileId(uint32_t host) const;
    int HostOf(uint32_t fileId) const;

    /* One FCT line in HPCC's columns. */
    static void WriteFct(FILE* out,
                         uint32_t sip,
                         uint32_t dip,
                         uint32_t sport,
                         uint32_t dport,
                         uint64_t bytes,
                         uint64_t startNs,
                         uint64_t fctNs,
                         uint64_t standaloneNs);

  private:
    std::vector<uint32_t> m_fileId; /* host -> file node id */
    std::vector<int> m_host;        /* file node id -> host, -1: switch */
};

} // namespace ns3

#endif
