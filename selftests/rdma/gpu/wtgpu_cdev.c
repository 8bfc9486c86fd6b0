// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * wtgpu_cdev.c: /dev/wren_gpu<N>, the misc device of each GPU (uapi in
 * wren_test_gpu.h).  open and release (which frees what the file
 * allocated), mmap of an allocation's BAR pages, and the ioctls:
 * WTGPU_ALLOC, WTGPU_FREE and WTGPU_INFO here, WTGPU_EXPORT in
 * wtgpu_dmabuf.c.  Called by wtgpu_main.c (wtgpu_fops); calls
 * wtgpu_dmabuf.c and wtgpu_alloc.c.
 */
#include "wtgpu.h"

static void wtgpu_vm_set_flags(struct vm_area_struct *vma, unsigned long flags)
{
#ifdef HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static int wtgpu_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct wtgpu_dev *gpu = container_of(misc, struct wtgpu_dev, misc);
	struct wtgpu_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	INIT_LIST_HEAD(&f->allocs);
	mutex_lock(&wtgpu_lock);
	if (gpu->dead) {
		mutex_unlock(&wtgpu_lock);
		kfree(f);
		return -ENODEV;
	}
	kref_get(&gpu->kref);
	mutex_unlock(&wtgpu_lock);
	f->gpu = gpu;
	file->private_data = f;
	return 0;
}

/* Free an owned allocation: @a leaves the owner's list under the lock. */
static void wtgpu_alloc_free(struct wtgpu_dev *gpu, struct wtgpu_mem *a,
			     struct list_head *revoke)
{
	lockdep_assert_held(&wtgpu_lock);
	list_del_init(&a->node);
	a->freed = true;
	wtgpu_revoke_collect(a, revoke);
}

static int wtgpu_release(struct inode *inode, struct file *file)
{
	struct wtgpu_file *f = file->private_data;
	struct wtgpu_dev *gpu = f->gpu;
	struct wtgpu_mem *a, *tmp;
	LIST_HEAD(revoke);
	LIST_HEAD(freed);

	mutex_lock(&wtgpu_lock);
	list_for_each_entry_safe(a, tmp, &f->allocs, node) {
		wtgpu_alloc_free(gpu, a, &revoke);
		list_add_tail(&a->node, &freed);
	}
	mutex_unlock(&wtgpu_lock);
	wtgpu_revoke_run(gpu, &revoke);
	list_for_each_entry_safe(a, tmp, &freed, node) {
		list_del_init(&a->node);
		wtgpu_alloc_put(a);
	}
	wtgpu_dev_put(gpu);
	kfree(f);
	return 0;
}

static int wtgpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct wtgpu_file *f = file->private_data;
	struct wtgpu_dev *gpu = f->gpu;
	u64 len = vma->vm_end - vma->vm_start;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	struct wtgpu_mem *a;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	mutex_lock(&wtgpu_lock);
	a = wtgpu_alloc_find(f, off, len);
	if (!a) {
		mutex_unlock(&wtgpu_lock);
		return -EINVAL;
	}
	kref_get(&a->kref);
	mutex_unlock(&wtgpu_lock);

	wtgpu_vm_set_flags(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
	vma->vm_private_data = a;
	vma->vm_ops = &wtgpu_vm_ops;
	ret = io_remap_pfn_range(vma, vma->vm_start,
				 (gpu->bar_phys + off) >> PAGE_SHIFT, len,
				 vma->vm_page_prot);
	if (ret) {
		/* The VMA is not set up: no close() will drop the reference. */
		vma->vm_private_data = NULL;
		vma->vm_ops = NULL;
		wtgpu_alloc_put(a);
	}
	return ret;
}

static int wtgpu_ioc_alloc(struct wtgpu_file *f, void __user *arg)
{
	struct wtgpu_alloc req;
	struct wtgpu_mem *a;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	a = wtgpu_alloc_new(f, req.size);
	if (IS_ERR(a))
		return PTR_ERR(a);
	req.offset = a->offset;
	req.size = a->size;
	if (copy_to_user(arg, &req, sizeof(req))) {
		LIST_HEAD(revoke);

		mutex_lock(&wtgpu_lock);
		wtgpu_alloc_free(f->gpu, a, &revoke);
		mutex_unlock(&wtgpu_lock);
		wtgpu_alloc_put(a);
		return -EFAULT;
	}
	return 0;
}

static int wtgpu_ioc_free(struct wtgpu_file *f, void __user *arg)
{
	struct wtgpu_free req;
	struct wtgpu_mem *a;
	struct wtgpu_p2p *t;
	LIST_HEAD(revoke);

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	mutex_lock(&wtgpu_lock);
	list_for_each_entry(a, &f->allocs, node)
		if (a->offset == req.offset)
			goto found;
	mutex_unlock(&wtgpu_lock);
	return -EINVAL;
found:
	list_for_each_entry(t, &a->tables, alloc_node) {
		if (t->persistent) {
			mutex_unlock(&wtgpu_lock);
			return -EBUSY;
		}
	}
	wtgpu_alloc_free(f->gpu, a, &revoke);
	mutex_unlock(&wtgpu_lock);
	wtgpu_revoke_run(f->gpu, &revoke);
	wtgpu_alloc_put(a);
	return 0;
}

static long wtgpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct wtgpu_file *f = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct wtgpu_info info;

	switch (cmd) {
	case WTGPU_ALLOC:
		return wtgpu_ioc_alloc(f, uarg);
	case WTGPU_FREE:
		return wtgpu_ioc_free(f, uarg);
	case WTGPU_EXPORT:
		return wtgpu_ioc_export(f, uarg);
	case WTGPU_INFO:
		wtgpu_info_fill(f->gpu, &info);
		return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
	}
	return -ENOTTY;
}

const struct file_operations wtgpu_fops = {
	.owner = THIS_MODULE,
	.open = wtgpu_open,
	.release = wtgpu_release,
	.mmap = wtgpu_mmap,
	.unlocked_ioctl = wtgpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};
