// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What an experiment prints: its figures as "# " lines and each pass or
 * fail criterion as a TAP result, "met" or "NOT met" in words too, so the
 * same output reads as a report and counts in make check.
 */
#ifndef WREN_SIM_REPORT_H
#define WREN_SIM_REPORT_H

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <vector>

#include "ns3/simulator.h"

class Report
{
  public:
    Report()
        : m_wall0(std::chrono::steady_clock::now())
    {
    }

    /*
     * The speed of the runs so far: ns-3 events executed, simulated time
     * and wall time (call before Simulator::Destroy(), which resets the
     * count; @simS sums the runs' simulated seconds).
     */
    void Speed(const char* name, uint64_t events, double simS)
    {
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wall0)
                          .count();
        Figure("%s: speed: %llu events in %.2f s of wall time (%.2f M events/s), %.4f s "
               "simulated (%.4f simulated s per wall s)",
               name, static_cast<unsigned long long>(events), wall,
               wall > 0 ? events / wall / 1e6 : 0, simS, wall > 0 ? simS / wall : 0);
    }

    /* A figure: one "# " line. */
    __attribute__((format(printf, 2, 3))) void Figure(const char* fmt, ...)
    {
        va_list ap;

        va_start(ap, fmt);
        std::fputs("# ", stdout);
        std::vfprintf(stdout, fmt, ap);
        std::fputc('\n', stdout);
        va_end(ap);
    }

    /* A criterion: "ok N - ... met" or "not ok N - ... NOT met". */
    __attribute__((format(printf, 3, 4))) void Criterion(bool met, const char* fmt, ...)
    {
        va_list ap;

        va_start(ap, fmt);
        std::printf("%s %u - ", met ? "ok" : "not ok", ++m_n);
        std::vfprintf(stdout, fmt, ap);
        std::printf(": %s\n", met ? "met" : "NOT met");
        va_end(ap);
        m_failed += !met;
    }

    /* The plan; the exit status: 0 when every criterion was met. */
    int Done()
    {
        std::printf("1..%u\n", m_n);
        std::fflush(stdout);
        return m_failed ? 1 : 0;
    }

  private:
    std::chrono::steady_clock::time_point m_wall0;
    unsigned int m_n = 0;
    unsigned int m_failed = 0;
};

/* The statistics the experiments report. */
inline double
Mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
    {
        s += x;
    }
    return v.empty() ? 0 : s / v.size();
}

/* Jain's fairness index: 1 when all are equal, 1/n when one has all. */
inline double
Jain(const std::vector<double>& v)
{
    double s = 0, q = 0;
    for (double x : v)
    {
        s += x;
        q += x * x;
    }
    return q > 0 ? s * s / (v.size() * q) : 0;
}

/* The @p-th percentile of @sorted (ascending): the nearest rank; 0 if empty. */
inline double
Percentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
    {
        return 0;
    }
    return sorted[std::min<std::size_t>(sorted.size() - 1,
                                        static_cast<std::size_t>(p / 100 * sorted.size()))];
}

#endif
