// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MSI-X vectors.  Vector 0 is the management vector: admin completions
 * and the asynchronous event queue.  The others are reserved for the
 * completion event queues the Ethernet and RDMA halves create later, one
 * per CPU as far as the device has vectors.
 */
#include <linux/interrupt.h>

#include "wren.h"

int wren_irq_alloc_vectors(struct wren_dev *wdev)
{
	struct pci_dev *pdev = wdev->pdev;
	u32 hw = wren_rd(wdev, WREN_REG_NUM_MSIX);
	/* Management, one per CPU for the Ethernet channels, and one per
	 * CPU for the RDMA completion EQs (wren_aux_eq.c).
	 */
	unsigned int want = min_t(u32, hw, 1 + 2 * num_online_cpus());
	int n;

	if (!want) {
		dev_err(&pdev->dev, "device reports no MSI-X vectors\n");
		return -ENODEV;
	}
	n = pci_alloc_irq_vectors(pdev, 1, want, PCI_IRQ_MSIX);
	if (n < 0) {
		dev_err(&pdev->dev, "cannot allocate MSI-X vectors: %d\n", n);
		return n;
	}
	wdev->num_vectors = n;
	return 0;
}

void wren_irq_free_vectors(struct wren_dev *wdev)
{
	if (wdev->num_vectors)
		pci_free_irq_vectors(wdev->pdev);
	wdev->num_vectors = 0;
}

static irqreturn_t wren_mgmt_irq(int irq, void *data)
{
	struct wren_dev *wdev = data;

	wren_aq_process(wdev);
	wren_aeq_process(wdev);
	wren_aux_poll_mgmt_eqs(wdev);
	return IRQ_HANDLED;
}

int wren_irq_request_mgmt(struct wren_dev *wdev)
{
	struct pci_dev *pdev = wdev->pdev;
	int err;

	snprintf(wdev->mgmt_irq_name, sizeof(wdev->mgmt_irq_name),
		 "wren-mgmt@pci:%s", pci_name(pdev));
	err = request_irq(pci_irq_vector(pdev, 0), wren_mgmt_irq, 0,
			  wdev->mgmt_irq_name, wdev);
	if (err) {
		dev_err(&pdev->dev, "cannot request the management interrupt: %d\n", err);
		return err;
	}
	wdev->mgmt_irq_requested = true;
	return 0;
}

void wren_irq_free_mgmt(struct wren_dev *wdev)
{
	if (!wdev->mgmt_irq_requested)
		return;
	free_irq(pci_irq_vector(wdev->pdev, 0), wdev);
	wdev->mgmt_irq_requested = false;
}
