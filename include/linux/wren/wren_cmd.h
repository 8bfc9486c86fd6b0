/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Typed admin commands: what wren.ko offers its auxiliary drivers for
 * running firmware commands.  One function per command takes the
 * command's parameters (the contract's input structure, or plain values
 * for inline ones) and returns its result; buffers, DMA, timeouts and the
 * mapping of completion status to errno stay inside wren.ko (a caller
 * fills a struct wren_cmd_inbuf in place, but never sees its address).
 *
 * Every function sleeps unless it says otherwise, and returns 0, the
 * errno of a failed completion status (-EINVAL, -ENOENT, -ENOMEM, -EBUSY,
 * -EOPNOTSUPP, -EACCES, -EEXIST, -EIO), -ETIMEDOUT when the device did
 * not answer (it then needs a reset; every later command fails with
 * -EIO), or -EIO on a dead device.  After -ETIMEDOUT a create command's
 * object may exist and any memory it names (rings, page lists) may still
 * be used by the device: keep it.  Destroy commands return 0 on a dead
 * device, whose objects died with it.
 */
#ifndef _LINUX_WREN_CMD_H
#define _LINUX_WREN_CMD_H

#include <linux/types.h>
#include <linux/wren/wren_admin.h>

struct wren_core_dev;

/* What CREATE_MR and CREATE_MW return. */
struct wren_cmd_mr_result {
	u32 index;			/* the MR's or window's handle */
	u32 key;			/* lkey = rkey */
};

/**
 * struct wren_cmd_inbuf - an admin command's input buffer, filled in place
 * @data: where the input goes; NULL once a command through it went
 *	  unanswered (wren.ko then keeps the buffer until the reset)
 * @size: its capacity, in bytes
 * @dma: wren.ko's: the bus address
 * @cached: wren.ko's: the device's kept buffer, not one allocated
 *
 * For a caller that sends many large inputs in turn (WRITE_MTT): it
 * writes the input straight into device-readable memory, with no copy
 * and no allocation a command.  wren_cmd_inbuf_get() gives one,
 * wren_cmd_inbuf_put() takes it back.
 */
struct wren_cmd_inbuf {
	void *data;
	size_t size;
	dma_addr_t dma;
	bool cached;
};

int wren_cmd_inbuf_get(struct wren_core_dev *cdev, size_t size,
		       struct wren_cmd_inbuf *buf);
void wren_cmd_inbuf_put(struct wren_core_dev *cdev, struct wren_cmd_inbuf *buf);

int wren_cmd_query_port(struct wren_core_dev *cdev, struct wren_port_attr *out);
int wren_cmd_query_counters(struct wren_core_dev *cdev, u8 set, u32 index,
			    u64 *val, unsigned int n);

int wren_cmd_alloc_uar(struct wren_core_dev *cdev, u32 *uar);
int wren_cmd_dealloc_uar(struct wren_core_dev *cdev, u32 uar);
int wren_cmd_alloc_pd(struct wren_core_dev *cdev, u32 *pdn);
int wren_cmd_dealloc_pd(struct wren_core_dev *cdev, u32 pdn);
int wren_cmd_alloc_xrcd(struct wren_core_dev *cdev, u32 *xrcdn);
int wren_cmd_dealloc_xrcd(struct wren_core_dev *cdev, u32 xrcdn);

int wren_cmd_create_cq(struct wren_core_dev *cdev,
		       const struct wren_create_cq_in *in, u32 *cqn);
int wren_cmd_destroy_cq(struct wren_core_dev *cdev, u32 cqn);
int wren_cmd_resize_cq(struct wren_core_dev *cdev,
		       const struct wren_resize_cq_in *in);

int wren_cmd_create_qp(struct wren_core_dev *cdev,
		       const struct wren_create_qp_in *in, u32 *qpn);
int wren_cmd_modify_qp(struct wren_core_dev *cdev,
		       const struct wren_modify_qp_in *in);
int wren_cmd_query_qp(struct wren_core_dev *cdev, u32 qpn,
		      struct wren_query_qp_out *out);
int wren_cmd_destroy_qp(struct wren_core_dev *cdev, u32 qpn);

int wren_cmd_create_srq(struct wren_core_dev *cdev,
			const struct wren_create_srq_in *in, u32 *srqn);
int wren_cmd_modify_srq_limit(struct wren_core_dev *cdev, u32 srqn, u32 limit);
int wren_cmd_resize_srq(struct wren_core_dev *cdev,
			const struct wren_resize_srq_in *in);
int wren_cmd_query_srq(struct wren_core_dev *cdev, u32 srqn,
		       struct wren_query_srq_out *out);
int wren_cmd_destroy_srq(struct wren_core_dev *cdev, u32 srqn);

int wren_cmd_create_mr(struct wren_core_dev *cdev,
		       const struct wren_create_mr_in *in,
		       struct wren_cmd_mr_result *res);
int wren_cmd_write_mtt(struct wren_core_dev *cdev, u32 mr_index, u32 first,
		       struct wren_cmd_inbuf *mtt, u32 count);
int wren_cmd_activate_mr(struct wren_core_dev *cdev, u32 mr_index);
int wren_cmd_deactivate_mr(struct wren_core_dev *cdev, u32 mr_index);
int wren_cmd_modify_mr(struct wren_core_dev *cdev,
		       const struct wren_modify_mr_in *in);
int wren_cmd_destroy_mr(struct wren_core_dev *cdev, u32 mr_index);
int wren_cmd_create_mw(struct wren_core_dev *cdev, u32 pdn, u8 type,
		       u8 key_tag, struct wren_cmd_mr_result *res);
int wren_cmd_destroy_mw(struct wren_core_dev *cdev, u32 mw_index);
int wren_cmd_attach_mcast(struct wren_core_dev *cdev, u32 qpn, const u8 *gid);
int wren_cmd_detach_mcast(struct wren_core_dev *cdev, u32 qpn, const u8 *gid);

int wren_cmd_create_ah(struct wren_core_dev *cdev,
		       const struct wren_create_ah_in *in, bool sleepable,
		       u32 *ah);
int wren_cmd_destroy_ah(struct wren_core_dev *cdev, u32 ah, bool sleepable);
int wren_cmd_set_gid(struct wren_core_dev *cdev,
		     const struct wren_set_gid_in *in);

#endif /* _LINUX_WREN_CMD_H */
