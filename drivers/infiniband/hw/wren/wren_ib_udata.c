// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * udata: the driver-private part of every verb's request and response.
 * (Admin commands go through wren.ko's typed command layer, wren_cmd.h.)
 */
#include <rdma/uverbs_ioctl.h>

#include "wren_ib.h"

/*
 * Copy a request of @len bytes (the ABI version 1 size, which is also the
 * minimum).  Shorter requests are refused; longer ones only if every byte
 * this driver does not know is zero.
 */
int wren_ib_udata_in(struct ib_udata *udata, void *req, size_t len)
{
	if (udata->inlen < len)
		return -EINVAL;
	if (udata->inlen > len &&
	    !ib_is_udata_cleared(udata, len, udata->inlen - len))
		return -EOPNOTSUPP;
	return ib_copy_from_udata(req, udata, len);
}

/* The response, cut to what the caller has room for, which must hold at
 * least the version 1 fields (@len).
 */
int wren_ib_udata_out(struct ib_udata *udata, void *resp, size_t len)
{
	if (udata->outlen < len)
		return -EINVAL;
	return ib_copy_to_udata(udata, resp, len);
}

/* A verb with no driver-private request: anything sent must be zero. */
int wren_ib_udata_none(struct ib_udata *udata)
{
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	return 0;
}
