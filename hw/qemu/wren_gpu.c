// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An emulated "GPU" for GPUDirect RDMA tests: `-device wren-gpu,memdev=<id>`.
 *
 * Not a GPU at all: a PCI Express endpoint with class 0x030200 (3D
 * controller, as data-centre GPUs report) whose BAR2 is a 64-bit
 * prefetchable window onto a host memory backend - the "device memory".
 * With a memory-backend-file,share=on the host side of a test reads and
 * writes that memory through the file while the guest, or a peer device's
 * DMA, reaches it through the BAR.  There are no registers and no
 * interrupts; a test exporter module in the guest hands the BAR out.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qom/object.h"
#include "sysemu/hostmem.h"

#define TYPE_WREN_GPU "wren-gpu"
OBJECT_DECLARE_SIMPLE_TYPE(WrenGpuState, WREN_GPU)

/* Our own PCI ID range, next to the NIC's 1f57:0001 (wren_regs.h). */
#define WREN_GPU_VENDOR_ID	0x1f57
#define WREN_GPU_DEVICE_ID	0x0002
#define WREN_GPU_REVISION	0x01
#define WREN_GPU_CLASS		0x030200	/* 3D controller */
#define WREN_GPU_BAR_MEM	2
#define WREN_GPU_MIN_SIZE	(256 * MiB)
#define WREN_GPU_PCIE_CAP	0x80

struct WrenGpuState {
	PCIDevice parent_obj;

	HostMemoryBackend *hostmem;
};

static void wren_gpu_realize(PCIDevice *pdev, Error **errp)
{
	WrenGpuState *s = WREN_GPU(pdev);
	MemoryRegion *mr;
	uint64_t size;

	if (!s->hostmem) {
		error_setg(errp, "wren-gpu needs memdev=<memory backend id>");
		return;
	}
	if (host_memory_backend_is_mapped(s->hostmem)) {
		error_setg(errp, "memdev %s is already in use",
			   object_get_canonical_path_component(OBJECT(s->hostmem)));
		return;
	}
	mr = host_memory_backend_get_memory(s->hostmem);
	size = memory_region_size(mr);
	if (size < WREN_GPU_MIN_SIZE || !is_power_of_2(size)) {
		error_setg(errp, "memdev size 0x%" PRIx64 " must be a power of two"
			   " of at least 256 MiB (a BAR's size)", size);
		return;
	}

	pci_config_set_prog_interface(pdev->config, WREN_GPU_CLASS & 0xff);
	pdev->config[PCI_INTERRUPT_PIN] = 0;
	if (pcie_endpoint_cap_init(pdev, WREN_GPU_PCIE_CAP) < 0) {
		error_setg(errp, "cannot add the PCIe capability");
		return;
	}
	host_memory_backend_set_mapped(s->hostmem, true);
	pci_register_bar(pdev, WREN_GPU_BAR_MEM, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64 |
			 PCI_BASE_ADDRESS_MEM_PREFETCH, mr);
}

static void wren_gpu_exit(PCIDevice *pdev)
{
	WrenGpuState *s = WREN_GPU(pdev);

	pcie_cap_exit(pdev);
	host_memory_backend_set_mapped(s->hostmem, false);
}

static Property wren_gpu_properties[] = {
	DEFINE_PROP_LINK("memdev", WrenGpuState, hostmem, TYPE_MEMORY_BACKEND,
			 HostMemoryBackend *),
	DEFINE_PROP_END_OF_LIST(),
};

/* The memory is the backend's; a test bench device is not migrated. */
static const VMStateDescription wren_gpu_vmstate = {
	.name = TYPE_WREN_GPU,
	.unmigratable = 1,
};

static void wren_gpu_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);
	PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

	k->realize = wren_gpu_realize;
	k->exit = wren_gpu_exit;
	k->vendor_id = WREN_GPU_VENDOR_ID;
	k->device_id = WREN_GPU_DEVICE_ID;
	k->revision = WREN_GPU_REVISION;
	k->class_id = WREN_GPU_CLASS >> 8;
	k->subsystem_vendor_id = WREN_GPU_VENDOR_ID;
	k->subsystem_id = WREN_GPU_DEVICE_ID;

	dc->desc = "Wren test GPU (BAR2 = host memory backend)";
	dc->vmsd = &wren_gpu_vmstate;
	device_class_set_props(dc, wren_gpu_properties);
	set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo wren_gpu_info = {
	.name = TYPE_WREN_GPU,
	.parent = TYPE_PCI_DEVICE,
	.instance_size = sizeof(WrenGpuState),
	.class_init = wren_gpu_class_init,
	.interfaces = (InterfaceInfo[]) {
		{ INTERFACE_PCIE_DEVICE },
		{ }
	},
};

static void wren_gpu_register_types(void)
{
	type_register_static(&wren_gpu_info);
}

type_init(wren_gpu_register_types)
