/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * wren_verbs_test: a two-node verbs test that works against any RoCE
 * device (Wren, rxe).  One side is the target (it owns the memory that is
 * written, read and attacked, and judges it byte for byte), the other the
 * initiator (it posts the work and judges completions).  They talk over a
 * TCP control connection in one-line commands (target.c lists them).
 */
#ifndef WVT_H
#define WVT_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <infiniband/verbs.h>

#define WVT_MAX_SGE	4	/* SGEs a case spreads its data over, at most */
#define WVT_GAP		13	/* odd-sized untouched gap between SGE pieces */
#define WVT_GRH		40	/* UD receive buffers start with the GRH area */
#define WVT_QKEY	0x11111111u
#define WVT_MAX_SLOTS	16
#define WVT_MAX_QPS	8

/* pattern.c: a byte stream indexed by (seed, position) */
uint8_t pat_byte(uint32_t seed, uint64_t pos);
void pat_fill(uint8_t *p, size_t len, uint32_t seed, uint64_t pos0);
/* Index of the first byte that differs, or -1. */
long pat_diff(const uint8_t *p, size_t len, uint32_t seed, uint64_t pos0);
uint64_t pat_u64(uint32_t seed, uint64_t pos);

/* Where a message's bytes lie: piece i holds stream bytes
 * [start[i], start[i] + len[i]) at buffer[mr[i]] + off[i]. */
struct layout {
	int n;
	size_t off[WVT_MAX_SGE], len[WVT_MAX_SGE], start[WVT_MAX_SGE];
	int mr[WVT_MAX_SGE];
};
/* @total bytes in @nsge uneven pieces from @base on, WVT_GAP apart, in
 * one buffer or alternating between two. */
void layout_make(struct layout *l, size_t total, int nsge, size_t base,
		 int nbufs);
/* Last byte a layout touches in buffer @b, plus one. */
size_t layout_end(const struct layout *l, int b);

/* ctl.c: line-based control connection */
struct ctl {
	int fd;
	size_t len;
	char buf[4096];
};
int ctl_listen(int port);
int ctl_accept(struct ctl *c, int lfd);
int ctl_connect(struct ctl *c, const char *host, int port, int timeout_s);
int ctl_send(struct ctl *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Next line without its newline; 0, or -1 on EOF/error. */
int ctl_recv(struct ctl *c, char *line, size_t n);
/* Send a command, wait for its one-line answer. */
int ctl_call(struct ctl *c, char *reply, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* mem.c: where buffers live (--mem host|gpu-dmabuf|gpu-peer) */
enum mem_kind { MEM_HOST, MEM_GPU_DMABUF, MEM_GPU_PEER };
struct mem {
	uint8_t *ptr;
	size_t len, map_len;
	uint64_t gpu_off;	/* GPU: the allocation's BAR offset */
	int dmabuf_fd;		/* gpu-dmabuf: the allocation as a dma-buf */
	bool freed;		/* GPU: freed under its MRs (mem_gpu_free) */
};
int mem_select(const char *name);
enum mem_kind mem_kind(void);
const char *mem_name(void);
/* GPU: hold @bytes of GPU memory below the first buffer (--gpu-pad-mib). */
void mem_set_gpu_pad(size_t bytes);
int mem_alloc(struct mem *m, size_t len);
/* Register [off, off + len) of @m the way --mem says. */
struct ibv_mr *mem_reg(struct mem *m, struct ibv_pd *pd, size_t off, size_t len,
		       int access);
/* Free GPU memory under its live MRs (the free callback path); the
 * mapping stays until mem_free(). */
int mem_gpu_free(struct mem *m);
void mem_free(struct mem *m);
/* GPU: print "gpu_expect BAR_OFFSET LEN SEED POS0" - bytes [off, off+len)
 * of @m hold stream SEED from POS0, for a check of the GPU's memory from
 * outside the guest. */
void mem_manifest(const struct mem *m, size_t off, size_t len, uint32_t seed,
		  uint64_t pos0);

/* ib.c: device, QPs, posting, polling */
/*
 * ibv_device_attr_ex.device_cap_flags_ex bits of IBA 1.5's verbs, as the
 * kernel names them (IB_UVERBS_DEVICE_*, from 6.2); rdma-core names none.
 */
#define WVT_DEV_FLUSH_GLOBAL	(1ULL << 38)
#define WVT_DEV_ATOMIC_WRITE	(1ULL << 40)

struct dev {
	struct ibv_context *ctx;
	struct ibv_pd *pd[2];	/* pd[1]: "another PD" of the same process */
	struct ibv_device_attr attr;
	uint64_t cap_ex;	/* device_cap_flags_ex, 0 if not asked */
	struct ibv_port_attr port;
	union ibv_gid gid;
	int gidx;
	uint32_t mtu;		/* path MTU in bytes */
};
struct conn {
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;	/* conn_create_ops() with send ops only */
	struct ibv_cq *scq, *rcq;
	struct ibv_ah *ah;	/* UD: to the peer */
	uint32_t psn, peer_qpn, max_inline;
	enum ibv_qp_type type;
};
int dev_open(struct dev *d, const char *name, int gidx);
void dev_close(struct dev *d);
bool dev_fatal(struct dev *d);
void gid_to_str(const union ibv_gid *g, char *s);
int gid_from_str(union ibv_gid *g, const char *s);
/* Create a QP (RESET -> INIT); conn_connect() takes it to RTS. */
int conn_create(struct dev *d, struct conn *c, enum ibv_qp_type t, int pd,
		int depth);
/* The same with ibv_create_qp_ex() and @send_ops (IBV_QP_EX_WITH_*). */
int conn_create_ops(struct dev *d, struct conn *c, enum ibv_qp_type t,
		    int pd, int depth, uint64_t send_ops);
/*
 * conn_create_ops() on the CQs the caller put in @c (zeroed but for scq
 * and rcq), e.g. extended ones; conn_destroy() destroys them too.
 */
int conn_create_on(struct dev *d, struct conn *c, enum ibv_qp_type t,
		   int pd, int depth, uint64_t send_ops);
int conn_connect(struct dev *d, struct conn *c, uint32_t peer_qpn,
		 uint32_t peer_psn, const union ibv_gid *peer_gid);
void conn_destroy(struct conn *c);
/* One completion from @cq within @timeout_ms: 0, or -1 on timeout. */
int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, int timeout_ms);
double now_s(void);

/*
 * why.c: a failing case's reason (WVT_WHY bytes), set by the case
 * (why_set() returns false, for "return why_set(...)") and printed under
 * its TAP line by the runner, which clears it for the next case.
 */
#define WVT_WHY		512
bool why_set(char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void why_report(char *why, bool ok, const char *what);

/* target.c / initiator side */
int target_run(struct dev *d, struct ctl *c);
int cases_count(void);
int cases_run(struct dev *d, struct ctl *parent, struct ctl *child);

/* bw.c */
struct bw_opts {
	const char *op;		/* "write", "read", "send" or "atomic" */
	bool active, verify, cpu;
	bool hold;		/* on failure, keep everything until killed */
	bool until_error;	/* active: stop at the first failed completion,
				 * succeed only if it is REM_ACCESS_ERR */
	bool free_under_traffic; /* passive, GPU memory: free it mid-stream */
	size_t size, mr_bytes;
	long iters;		/* 0: run for @seconds */
	double seconds;
	int depth, timeout;
	const char *ready_file;
	const char *stop_file;	/* active, @seconds: end early once it exists */
};
int bw_run(struct dev *d, struct ctl *c, const struct bw_opts *o);

/* limits.c: one node; TAP on stdout, the exit status of tap_done() */
int limits_run(struct dev *d, size_t big_mib);

/* abuse.c: one node, raw uverbs; TAP on stdout, tap_done()'s status */
int abuse_run(struct dev *d);

/* faults.c: one node, @rounds under the caller's allocation failures;
 * TAP on stdout, tap_done()'s status */
int faults_run(struct dev *d, int rounds);

/* mw.c: one node, memory windows over a loopback RC pair; TAP on stdout,
 * tap_done()'s status */
int mw_run(struct dev *d);
int clock_run(struct dev *d);
/* mcast.c: UD multicast over the NIC's loopback; TAP, tap_done()'s status. */
int mcast_run(struct dev *d);
/* import.c: contexts, PDs and MRs imported from a cmd_fd; TAP, tap_done(). */
int import_run(struct dev *d);
/* xrc.c: XRC domains, SRQs and QPs, across processes; TAP, tap_done(). */
int xrc_run(struct dev *d);

/* ctlpath.c: one node; "ctlpath: NAME VALUE ms" lines on stdout */
int ctlpath_run(struct dev *d, size_t mr_mib, int qps);

#endif
