/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Wren NIC PCI core driver: private state shared by the core's files. */
#ifndef _WREN_H
#define _WREN_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/devlink.h>
#include <linux/wren/wren_cmd.h>
#include <linux/wren/wren_core.h>
#include <linux/wren/wren_hw.h>

#ifndef HAVE_KZALLOC_OBJ
/* The typed allocator of newer kernels' <linux/slab.h>, for older ones. */
#define kzalloc_obj(P, GFP)	kzalloc(sizeof(P), (GFP))
#endif

#ifdef HAVE_STR_UP_DOWN
#include <linux/string_choices.h>
#else
/* The helper of newer kernels' <linux/string_choices.h>, for older ones. */
static inline const char *str_up_down(bool v)
{
	return v ? "up" : "down";
}
#endif

#define WREN_DRV_NAME		"wren"

/* Ring sizes the driver asks for (log2 of entries). */
#define WREN_AQ_LOG_DEPTH	5
#define WREN_AEQ_LOG_DEPTH	8

/* Bounds on the waits the device advertises, so that a register reading
 * garbage neither makes us give up at once nor hang the probe for hours.
 */
#define WREN_RESET_TIMEOUT_MIN_MS	100
#define WREN_AQ_TIMEOUT_MIN_MS		1000
#define WREN_TIMEOUT_MAX_MS		60000

/* How often the health poll looks at STATUS and HEARTBEAT. */
#define WREN_HEALTH_INTERVAL_MS		1000

/* The caller of one admin command, on its stack.  The answer is copied here
 * and the ring slot freed as soon as it arrives: a caller that is slow to
 * run again (a single CPU busy issuing more commands) must not keep a slot
 * that the ring wraps around to.
 */
struct wren_aq_waiter {
	struct completion done;
	struct wren_acq_entry comp;	/* copied from the ACQ */
	bool completed;			/* comp is valid */
	bool aborted;			/* the device went fatal meanwhile */
};

/* One admin queue slot: the command in that ring entry and its caller. */
struct wren_aq_slot {
	struct wren_aq_waiter *waiter;	/* NULL once it gave up */
	u16 cmd_id;			/* id the device will echo */
	bool busy;			/* the device owes an answer */
};

struct wren_aq {
	struct wren_aq_cmd *sq;
	dma_addr_t sq_dma;
	struct wren_acq_entry *cq;
	dma_addr_t cq_dma;
	unsigned int log_depth;
	unsigned int depth;
	/* Bounds commands in flight to the ring depth. */
	struct semaphore avail;
	/* Protects the producer and consumer indexes and the slots.  Taken
	 * from the management interrupt, hence the irqsave variants.
	 */
	spinlock_t lock;
	u32 sq_pi;			/* free-running; low 16 bits are cmd_id */
	u32 cq_ci;			/* free-running */
	struct wren_aq_slot *slots;
	unsigned int timeout_ms;
	bool irq_mode;			/* completions come by interrupt */
	bool warned_no_irq;
};

/* An event queue (wren_eq.c): the AEQ, set up through registers, or a
 * completion EQ made by CREATE_EQ (RDMA's and the Ethernet channels').
 * Its user drains it with wren_eq_next() and then calls wren_eq_arm().
 */
struct wren_eq {
	struct wren_dev *wdev;
	struct wren_eqe *ring;
	dma_addr_t dma;
	unsigned int log_size;
	u32 ci;				/* free-running consumer index */
	u32 arm_ci;			/* ci at the last arm */
	u32 eqn;			/* WREN_EQN_AEQ for the AEQ */
	bool live;			/* CREATE_EQ succeeded */
};

struct seq_file;

/* The command layer (wren_cmd.c): buffers the device may still use. */
struct wren_cmd_state {
	spinlock_t orphan_lock;		/* orphans, num_orphans */
	struct list_head orphans;	/* struct wren_cmd_orphan */
	unsigned int num_orphans;
	/* The input buffer of atomic commands and its one user at a time. */
	spinlock_t atomic_lock;
	void *atomic_buf;
	dma_addr_t atomic_dma;
	bool atomic_orphaned;		/* a command through it timed out */
	/* One input buffer of the largest size, kept between commands so
	 * that a run of large inputs (an MR's translation entries) does not
	 * allocate and zero 64 KiB of coherent memory for each command.
	 * Whoever holds in_cache_lock owns it; NULL until first used, and
	 * again after a command through it went unanswered (it is parked).
	 */
	struct mutex in_cache_lock;
	void *in_cache;
	dma_addr_t in_cache_dma;
};

/* The pfc_storm health reporter and what the last storm events said. */
struct wren_pfc_storm {
	struct devlink_health_reporter *reporter;
	struct work_struct work;	/* reports from process context */
	spinlock_t lock;		/* the fields below; taken in hard IRQ */
	u8 rx_prios;			/* RX watchdog's storm priorities */
	u8 tx_prios;			/* TX watchdog's storm priorities */
	u8 last_dir;			/* enum wren_pfc_storm_dir, 0: none yet */
	u8 last_prios;
	u32 events;
};

/* The port settings a reset forgets, in the order they are restored
 * (wren_port_cfg.c).
 */
enum wren_cfg_id {
	WREN_CFG_PAUSE,
	WREN_CFG_ETS,
	WREN_CFG_TRUST,
	WREN_CFG_BUFFER,
	WREN_CFG_MAXRATE,
	WREN_CFG_PFC,
	WREN_CFG_PFC_WD,
	WREN_CFG_NUM
};

/* What the device accepted last, for wren_port_cfg_restore(). */
struct wren_port_cfg {
	u32 valid;			/* bit per enum wren_cfg_id */
	u8 pause;			/* WREN_PAUSE_* */
	u8 cc_valid;			/* bit per priority in cc[] */
	struct wren_ets ets;
	struct wren_trust trust;
	struct wren_buffer buffer;
	struct wren_maxrate maxrate;
	struct wren_pfc pfc;
	struct wren_pfc_wd pfc_wd;
	struct wren_cc_params cc[WREN_NUM_PRIO];
};

/* Bits of wren_dev.flags. */
enum {
	WREN_FLAG_FATAL,		/* device reported a fatal error */
	WREN_FLAG_NEEDS_RESET,		/* an admin command hung */
	WREN_FLAG_GONE,			/* reads return all-ones */
	WREN_FLAG_REPORTED,		/* the breakage has been reported */
	WREN_FLAG_DEVLINK_LIVE,		/* registered: health reports allowed */
	WREN_FLAG_REMOVING,		/* remove began: no recovery any more */
};

struct wren_dev {
	struct wren_core_dev core;
	struct pci_dev *pdev;
	struct devlink *devlink;
	void __iomem *regs;		/* BAR0 */
	void __iomem *db;		/* BAR2: the kernel's doorbell page */
	unsigned long flags;

	struct wren_aq aq;
	struct wren_cmd_state cmd;
	struct wren_eq aeq;
	bool aeq_armed;			/* the mgmt handler may consume the AEQ */

	int num_vectors;
	char mgmt_irq_name[48];
	bool mgmt_irq_requested;

	struct work_struct fatal_work;	/* reports fatal_reason */
	const char *fatal_reason;
	struct devlink_health_reporter *fw_fatal;
	struct wren_pfc_storm pfc_storm;
	/* Serialises the read-modify-write of the DCQCN devlink params. */
	struct mutex cc_lock;
	bool cc_params;			/* the CC params are registered */
	/* Serialises the port settings a reset forgets with their copy. */
	struct mutex port_cfg_lock;
	struct wren_port_cfg port_cfg;
	struct delayed_work health_work;
	u32 last_heartbeat;

	struct wren_aux_dev *rdma_adev;
	struct wren_eth_priv *eth;	/* the netdev, when there is one */
	struct dentry *debugfs;

	u32 contract;			/* WREN_REG_CONTRACT */
	u64 serial;
	char board_id[sizeof_field(struct wren_device_attr, board_id) + 1];
};

static inline struct wren_dev *wren_from_core(struct wren_core_dev *cdev)
{
	return container_of(cdev, struct wren_dev, core);
}

static inline u32 wren_rd(struct wren_dev *wdev, u32 reg)
{
	return readl(wdev->regs + reg);
}

static inline void wren_wr(struct wren_dev *wdev, u32 reg, u32 val)
{
	writel(val, wdev->regs + reg);
}

static inline void wren_wr_addr(struct wren_dev *wdev, u32 reg_lo, dma_addr_t addr)
{
	wren_wr(wdev, reg_lo, lower_32_bits(addr));
	wren_wr(wdev, reg_lo + 4, upper_32_bits(addr));
}

/* True (and remembered) when reads return all-ones and the function is
 * gone from the bus: surprise removal, or a device that fell off the link.
 */
static inline bool wren_check_gone(struct wren_dev *wdev)
{
	if (test_bit(WREN_FLAG_GONE, &wdev->flags))
		return true;
	if (wren_rd(wdev, WREN_REG_MAGIC) != U32_MAX)
		return false;
	if (pci_device_is_present(wdev->pdev))
		return false;
	set_bit(WREN_FLAG_GONE, &wdev->flags);
	return true;
}

static inline bool wren_is_dead(struct wren_dev *wdev)
{
	return test_bit(WREN_FLAG_FATAL, &wdev->flags) ||
	       test_bit(WREN_FLAG_NEEDS_RESET, &wdev->flags) ||
	       test_bit(WREN_FLAG_GONE, &wdev->flags);
}

/* wren_health.c */
int wren_wait_status(struct wren_dev *wdev, u32 mask, u32 want, unsigned int timeout_ms);
void wren_report_broken(struct wren_dev *wdev, const char *reason);
void wren_declare_fatal(struct wren_dev *wdev, const char *reason);
void wren_health_start(struct wren_dev *wdev);
void wren_health_stop(struct wren_dev *wdev);

/* wren_fatal.c */
void wren_fatal_work(struct work_struct *work);

/* wren_aq.c */
void wren_aq_setup(struct wren_dev *wdev);
int wren_aq_init(struct wren_dev *wdev);
void wren_aq_drain(struct wren_dev *wdev);
void wren_aq_undrain(struct wren_dev *wdev);
void wren_aq_enable_irq(struct wren_dev *wdev);
void wren_aq_process(struct wren_dev *wdev);
void wren_aq_abort(struct wren_dev *wdev);
void wren_aq_free(struct wren_dev *wdev);
int wren_aq_exec(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
		 struct wren_acq_entry *comp, bool *unanswered);
int wren_aq_exec_atomic(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
			struct wren_acq_entry *comp, bool *unanswered);

/* wren_cmd.c: the only caller of wren_aq_exec*() */
int wren_cmd_init(struct wren_dev *wdev);
void wren_cmd_fini(struct wren_dev *wdev);
void wren_cmd_release_orphans(struct wren_dev *wdev);
int wren_cmd_exec(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
		  const void *in, size_t in_len, void *out, size_t out_len,
		  struct wren_acq_entry *comp);
int wren_cmd_exec_atomic(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
			 const void *in, size_t in_len,
			 struct wren_acq_entry *comp);
int wren_cmd_exec_inbuf(struct wren_dev *wdev, struct wren_aq_cmd *cmd,
			struct wren_cmd_inbuf *in, size_t in_len);
bool wren_cmd_died_with_device(struct wren_dev *wdev, int err,
			       const struct wren_acq_entry *comp);
int wren_cmd_destroy_quiet(struct wren_dev *wdev, u8 opcode, u32 handle,
			   bool atomic, struct wren_acq_entry *comp);
void wren_cmd_destroy_warn(struct wren_dev *wdev, u8 opcode, u32 handle,
			   int err, const struct wren_acq_entry *comp);
int wren_cmd_destroy(struct wren_dev *wdev, u8 opcode, u32 handle, bool atomic);
void wren_cmd_orphans_show(struct wren_dev *wdev, struct seq_file *m);

/* wren_cmd_dev.c: device, port, EQ, Ethernet, DCB and diagnostic commands */
int wren_cmd_nop(struct wren_dev *wdev);
int wren_cmd_set_clock(struct wren_dev *wdev, u64 ns);
int wren_cmd_query_device(struct wren_dev *wdev, struct wren_device_attr *out);
int wren_cmd_set_port(struct wren_dev *wdev, const struct wren_set_port_in *in);
int wren_cmd_create_eq(struct wren_dev *wdev,
		       const struct wren_aq_create_eq *params, u32 *eqn);
int wren_cmd_destroy_eq(struct wren_dev *wdev, u32 eqn);
int wren_cmd_modify_cq_moderation(struct wren_dev *wdev, u32 cqn, u16 usec,
				  u16 count);
int wren_cmd_create_eth_txq(struct wren_dev *wdev,
			    const struct wren_create_eth_q_in *in, u32 *txqn);
int wren_cmd_create_eth_rxq(struct wren_dev *wdev,
			    const struct wren_create_eth_q_in *in, u32 *rxqn);
int wren_cmd_destroy_eth_txq(struct wren_dev *wdev, u32 txqn);
int wren_cmd_destroy_eth_rxq(struct wren_dev *wdev, u32 rxqn);
int wren_cmd_set_rss(struct wren_dev *wdev, const struct wren_set_rss_in *in);
int wren_cmd_set_rx_mode(struct wren_dev *wdev,
			 const struct wren_set_rx_mode_in *in);
int wren_cmd_set_ets(struct wren_dev *wdev, const struct wren_ets *in);
int wren_cmd_set_pfc(struct wren_dev *wdev, const struct wren_pfc *in);
int wren_cmd_set_trust(struct wren_dev *wdev, const struct wren_trust *in);
int wren_cmd_set_buffer(struct wren_dev *wdev, const struct wren_buffer *in);
int wren_cmd_set_maxrate(struct wren_dev *wdev, const struct wren_maxrate *in);
int wren_cmd_set_pfc_wd(struct wren_dev *wdev, const struct wren_pfc_wd *in);
int wren_cmd_set_cc(struct wren_dev *wdev, const struct wren_cc_params *in);
int wren_cmd_query_cc(struct wren_dev *wdev, u8 prio,
		      struct wren_cc_params *out);
int wren_cmd_query_dcb(struct wren_dev *wdev, struct wren_dcb_state *out);
int wren_cmd_diag_fault(struct wren_dev *wdev, u32 fault, u32 arg);

/* wren_eq.c */
int wren_eq_alloc(struct wren_dev *wdev, struct wren_eq *eq,
		  unsigned int log_size);
void wren_eq_free(struct wren_eq *eq);
int wren_eq_create(struct wren_eq *eq, unsigned int vector);
int wren_eq_destroy(struct wren_eq *eq);
struct wren_eqe *wren_eq_next(struct wren_eq *eq);
void wren_eq_arm(struct wren_eq *eq);

/* wren_aeq.c */
int wren_aeq_init(struct wren_dev *wdev);
void wren_aeq_process(struct wren_dev *wdev);
void wren_aeq_free(struct wren_dev *wdev);

/* wren_irq.c */
int wren_irq_alloc_vectors(struct wren_dev *wdev);
void wren_irq_free_vectors(struct wren_dev *wdev);
int wren_irq_request_mgmt(struct wren_dev *wdev);
void wren_irq_free_mgmt(struct wren_dev *wdev);

/* wren_dev.c: the device half of probe and remove, and of a recovery */
int wren_dev_start(struct wren_dev *wdev);
void wren_dev_stop(struct wren_dev *wdev);
void wren_quiesce(struct wren_dev *wdev);

/* wren_port_cfg.c: port settings kept across a reset */
int wren_port_cfg_set(struct wren_dev *wdev, enum wren_cfg_id id, const void *in);
int wren_port_cfg_set_cc(struct wren_dev *wdev, const struct wren_cc_params *in);
int wren_port_cfg_restore(struct wren_dev *wdev);

/* wren_recover.c */
void wren_recover_prepare(struct wren_dev *wdev);
int wren_recover_done(struct wren_dev *wdev, struct netlink_ext_ack *extack);
int wren_recover(struct wren_dev *wdev, struct netlink_ext_ack *extack);

/* wren_devlink.c */
struct wren_dev *wren_devlink_alloc(struct pci_dev *pdev);
void wren_devlink_register(struct wren_dev *wdev);
void wren_devlink_unregister(struct wren_dev *wdev);
void wren_devlink_free(struct wren_dev *wdev);
void wren_devlink_health_create(struct wren_dev *wdev);
void wren_devlink_health_destroy(struct wren_dev *wdev);
void wren_devlink_health_report(struct wren_dev *wdev, const char *msg);

/* devlink_fmsg_*_put() stopped returning errors in Linux 6.7. */
static inline int wren_fmsg_u32(struct devlink_fmsg *fmsg, const char *name,
				u32 val)
{
#ifdef HAVE_DEVLINK_FMSG_PUT_VOID
	devlink_fmsg_u32_pair_put(fmsg, name, val);
	return 0;
#else
	return devlink_fmsg_u32_pair_put(fmsg, name, val);
#endif
}

static inline int wren_fmsg_u64(struct devlink_fmsg *fmsg, const char *name,
				u64 val)
{
#ifdef HAVE_DEVLINK_FMSG_PUT_VOID
	devlink_fmsg_u64_pair_put(fmsg, name, val);
	return 0;
#else
	return devlink_fmsg_u64_pair_put(fmsg, name, val);
#endif
}

static inline int wren_fmsg_str(struct devlink_fmsg *fmsg, const char *name,
				const char *val)
{
#ifdef HAVE_DEVLINK_FMSG_PUT_VOID
	devlink_fmsg_string_pair_put(fmsg, name, val);
	return 0;
#else
	return devlink_fmsg_string_pair_put(fmsg, name, val);
#endif
}

/* A health reporter whose devlink runs its recover by itself unless the
 * last recovery was less than @grace_ms ago (0: no grace period).  Where
 * the period is the ops' default_graceful_period, the ops carry it (the
 * same value) and @grace_ms goes unused.
 */
static inline struct devlink_health_reporter *
wren_health_reporter_create(struct devlink *devlink,
			    const struct devlink_health_reporter_ops *ops,
			    u64 grace_ms, void *priv)
{
#ifdef HAVE_DEVLINK_HEALTH_OPS_GRACE
	return devlink_health_reporter_create(devlink, ops, priv);
#else
	return devlink_health_reporter_create(devlink, ops, grace_ms, priv);
#endif
}

/* wren_pfc_storm.c */
void wren_pfc_storm_init(struct wren_dev *wdev);
void wren_pfc_storm_create(struct wren_dev *wdev);
void wren_pfc_storm_destroy(struct wren_dev *wdev);
void wren_pfc_storm_event(struct wren_dev *wdev, u8 dir, u32 prios);

/* wren_cc_params.c */
void wren_cc_params_register(struct wren_dev *wdev);
void wren_cc_params_unregister(struct wren_dev *wdev);

/* wren_debugfs.c */
void wren_debugfs_add(struct wren_dev *wdev);
void wren_debugfs_del(struct wren_dev *wdev);
void wren_debugfs_init(void);
void wren_debugfs_exit(void);

/* wren_en_main.c */
int wren_eth_probe(struct wren_dev *wdev);
void wren_eth_remove(struct wren_dev *wdev);
void wren_eth_detach(struct wren_dev *wdev);
int wren_eth_attach(struct wren_dev *wdev);
void wren_eth_port_event(struct wren_dev *wdev, u8 state, u32 speed);

/* wren_aux.c */
int wren_aux_add(struct wren_dev *wdev);
void wren_aux_del(struct wren_dev *wdev);

/* wren_aux_eq.c */
void wren_aux_event(struct wren_dev *wdev, const struct wren_eqe *eqe);
void wren_aux_fatal(struct wren_dev *wdev);
void wren_aux_poll_mgmt_eqs(struct wren_dev *wdev);

#endif /* _WREN_H */
