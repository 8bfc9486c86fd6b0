/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Tracepoints of wren.ko, under /sys/kernel/tracing/events/wren/.
 *
 * wren_cc_rate: the NIC's DCQCN reaction point changed a QP's rate
 * (WREN_EVENT_CC_RATE): a cut on a CNP, or the QP back at full rate.  No
 * driver of an anchor NIC shows this per QP; `rdma res show qp -dd` gives
 * the current state, this gives its history.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM wren

#if !defined(_WREN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _WREN_TRACE_H

#include <linux/tracepoint.h>
#include <linux/wren/wren_queues.h>

TRACE_EVENT(wren_cc_rate,
	    TP_PROTO(const char *dev, u32 qpn, u8 reason, u32 rate_kbps,
		     u32 alpha),
	    TP_ARGS(dev, qpn, reason, rate_kbps, alpha),
	    /* A fixed array: __string()'s helpers changed in 6.10. */
	    TP_STRUCT__entry(__array(char, dev, 32)
			     __field(u32, qpn)
			     __field(u8, reason)
			     __field(u32, rate_kbps)
			     __field(u32, alpha)),
	    TP_fast_assign(strscpy(__entry->dev, dev, sizeof(__entry->dev));
			   __entry->qpn = qpn;
			   __entry->reason = reason;
			   __entry->rate_kbps = rate_kbps;
			   __entry->alpha = alpha;),
	    TP_printk("%s qpn %u %s rate %u kb/s alpha %u/1024",
		      __entry->dev, __entry->qpn,
		      __print_symbolic(__entry->reason,
				       { WREN_CC_RATE_CUT, "cut" },
				       { WREN_CC_RATE_RECOVERED, "recovered" }),
		      __entry->rate_kbps, __entry->alpha)
);

#endif /* _WREN_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE wren_trace
#include <trace/define_trace.h>
