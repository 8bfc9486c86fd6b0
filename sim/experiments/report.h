// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What an experiment prints: its figures as "# " lines and each pass or
 * fail criterion as a TAP result, "met" or "NOT met" in words too, so the
 * same output reads as a report and counts in make check.
 */
#ifndef WREN_SIM_REPORT_H
#define WREN_SIM_REPORT_H

#include <cstdarg>
#include <cstdio>

class Report
{
  public:
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
    unsigned int m_n = 0;
    unsigned int m_failed = 0;
};

#endif
