# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# gdb commands for a running QEMU 7.2 (vmrun.sh's HANG_DUMP): where a
# frame between a `-netdev stream` socket and virtio-net's rings can wait.
# For every net client: whether it refuses frames (receive_disabled) and
# the frames queued for it; for a stream netdev its socket and the main
# loop watches that read and write it (a read tag of 0 means nobody reads
# the socket); for virtio-net's first queue pair the device's indices
# beside the rings' own, from guest memory (avail_event and used_event are
# what the two sides ask to be told at).  Then the file descriptors the
# main loop polls.  Reads only; needs QEMU's debug information.
set pagination off
set print pretty off
# vq_state NAME VQ: a split virtqueue, QEMU's indices, then the ring's own
# in guest memory (avail ring: flags, idx, ring[num], used_event; used
# ring: flags, idx, ring[num] of 8 bytes, avail_event).
define vq_state
  set $q = $arg1
  set $c = $q->vring.caches
  printf "  %s_vq notification=%d num=%u shadow_avail=%u last_avail=%u used=%u signalled=%u inuse=%u\n", "$arg0", $q->notification, $q->vring.num, $q->shadow_avail_idx, $q->last_avail_idx, $q->used_idx, $q->signalled_used, $q->inuse
  printf "  %s ring: avail.idx=%u avail.flags=%u used_event=%u used.idx=%u avail_event=%u\n", "$arg0", *(unsigned short *)((char *)$c->avail.ptr + 2), *(unsigned short *)$c->avail.ptr, *(unsigned short *)((char *)$c->avail.ptr + 4 + 2 * $q->vring.num), *(unsigned short *)((char *)$c->used.ptr + 2), *(unsigned short *)((char *)$c->used.ptr + 4 + 8 * $q->vring.num)
end
set $nc = net_clients.tqh_first
while $nc
  printf "nc %s type=%d queue_index=%d receive_disabled=%d link_down=%d peer=%s\n", $nc->name, $nc->info->type, $nc->queue_index, $nc->receive_disabled, $nc->link_down, $nc->peer ? $nc->peer->name : "-"
  printf "  incoming nq_count=%d nq_maxlen=%d delivering=%d first=%p\n", $nc->incoming_queue->nq_count, $nc->incoming_queue->nq_maxlen, $nc->incoming_queue->delivering, $nc->incoming_queue->packets.tqh_first
  if $nc->info->type == NET_CLIENT_DRIVER_STREAM
    set $s = (NetStreamState *)$nc
    printf "  stream fd=%d read_tag=%u write_tag=%u send_index=%u rs.state=%d rs.index=%u rs.packet_len=%u\n", $s->ioc ? ((QIOChannelSocket *)$s->ioc)->fd : -1, $s->ioc_read_tag, $s->ioc_write_tag, $s->send_index, $s->rs.state, $s->rs.index, $s->rs.packet_len
  end
  if $nc->info->type == NET_CLIENT_DRIVER_NIC && $nc->queue_index == 0
    set $nic = (NICState *)((char *)$nc - $nc->info->size)
    set $n = (VirtIONet *)$nic->opaque
    vq_state rx $n->vqs[0].rx_vq
    vq_state tx $n->vqs[0].tx_vq
    printf "  tx_waiting=%d async_elem=%p\n", $n->vqs[0].tx_waiting, $n->vqs[0].async_tx.elem
  end
  set $nc = $nc->next.tqe_next
end
printf "gpollfds len=%d\n", gpollfds->len
set $i = 0
while $i < gpollfds->len
  set $p = ((GPollFD *)gpollfds->data) + $i
  printf "  pollfd fd=%d events=0x%x revents=0x%x\n", $p->fd, $p->events, $p->revents
  set $i = $i + 1
end
