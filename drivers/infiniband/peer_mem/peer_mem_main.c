// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wren_peer_mem.ko: the peer-memory client registry of MLNX_OFED's ib_core
 * (<rdma/peer_mem.h>) for kernels whose ib_core has none, so that an
 * unmodified nvidia-peermem registers with it, and the driver side
 * (<rdma/wren_peer_mem.h>) that wren_ib.ko registers such memory through.
 */
#include <linux/module.h>

#include "peer_mem_priv.h"

static int __init wren_peer_init(void)
{
	return wren_peer_sysfs_init();
}

/* Clients import this module's symbols: all of them are gone by now. */
static void __exit wren_peer_exit(void)
{
	wren_peer_sysfs_exit();
}

module_init(wren_peer_init);
module_exit(wren_peer_exit);

MODULE_DESCRIPTION("Peer-memory client registry (MLNX_OFED peer_mem ABI) for Wren");
MODULE_LICENSE("Dual BSD/GPL");
