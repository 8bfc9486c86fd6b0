# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Applying a profile: check everything, change what differs, verify.

1. Read every group the profile touches.  A group or key the device
   lacks fails the apply (EXIT_UNSUPPORTED) only if the profile asks for
   something else than what the device does without it (the NIC's
   power-on value; DCQCN parameters only matter with an enable on).
2. Check the profile against the device (buffer total, link speed).
3. Nothing differs: say so and run no command.
4. Otherwise write group by group, each read back at once (iproute2
   6.1's dcb exits 0 when the driver refuses an ETS, PFC, max rate or
   buffer change, so only the read-back tells).  The first failure
   writes back, group by group, the state read in step 1.

A dcb change that fails with "Protocol error" is read back before it
counts as failed: iproute2 6.1's dcb reads a stale netlink ACK when a
second boundary falls inside one command, after the kernel applied the
set (dcb.rst, "Known issues").  If the port holds it, it is done;
otherwise it runs once more.
"""
import signal
import sys

from . import EXIT_BAD, EXIT_FAILED, EXIT_OK, EXIT_UNSUPPORTED
from .port import Unsupported, group_keys, order, same
from .profile import CC_ENABLES, CC_RATES, KEY, ProfileError
from .tools import ToolError


class ApplyFailed(Exception):
    """A change did not take: the group and why."""


def _needed(prof, key):
    """Does the profile need this key, on a device that lacks it?"""
    if KEY[key].group == "cc" and key not in CC_ENABLES:
        return any(prof.get(e) for e in CC_ENABLES)
    return prof.values[key] != KEY[key].default


def _read_all(port, prof):
    """{group: state} for the groups the profile touches, plus notes and
    the keys the device lacks although the profile needs them."""
    groups = sorted({KEY[k].group for k in prof.values} - {"meta"},
                    key=order(prof.get("pause")).index)
    state, notes, missing = {}, [], []
    for g in groups:
        keys = [k for k in group_keys(g) if k in prof.values]
        try:
            state[g] = port.read(g)
            reason = "the device has no such devlink param"
        except Unsupported as e:
            state[g] = {}
            reason = str(e)
        lacks = [k for k in keys if k not in state[g]]
        need = [k for k in lacks if _needed(prof, k)]
        if need:
            missing.append(f"{', '.join(need)}: not supported by this "
                           f"device ({reason})")
        spare = [k for k in lacks if k not in need]
        if spare:
            notes.append(f"{', '.join(spare)}: not supported by this "
                         "device, not needed (the profile asks for what "
                         "it does without it)")
    return groups, state, notes, missing


def _check_device(port, prof, state):
    """Profile values this device cannot take; raises ProfileError."""
    if "buffer_size" in prof.values and "buffer" in state and \
            state["buffer"]:
        total = getattr(port, "buffer_total", 0)
        want = sum(prof.get("buffer_size"))
        if total and want > total:
            raise prof.err("buffer_size", f"the buffers add up to {want} "
                           f"bytes, the port has {total}")
    speed = port.link_speed()
    if not speed:
        return
    if "tc_maxrate" in prof.values:
        for tc, kbps in enumerate(prof.get("tc_maxrate")):
            if kbps > speed * 1000:
                raise prof.err("tc_maxrate", f"TC {tc}: {kbps} kb/s is "
                               f"above the link's {speed} Mb/s")
    for k in CC_RATES:
        if k in prof.values and prof.get(k) > speed:
            raise prof.err(k, f"{prof.get(k)} Mb/s is above the link's "
                           f"{speed} Mb/s")


def _want(prof, state):
    """{group: desired state}: what is read, with the profile's keys."""
    out = {}
    for g, cur in state.items():
        w = dict(cur)
        for k in group_keys(g):
            if k in prof.values and k in cur:
                w[k] = prof.values[k]
        out[g] = w
    return out


def _differs(want, cur):
    return [k for k in want if not same(k, want[k], cur.get(k))]


# What iproute2 6.1's dcb prints when it reads the previous request's
# ACK as the answer to a set, of a later second (mnl_cb_run2's EPROTO).
STALE_ACK = "Protocol error"


def _change(port, run, g, argv, want):
    """run.change(argv), but a dcb change that fails with STALE_ACK
    counts as done if the port holds it, and runs once more if not."""
    what = " ".join(argv[:3])
    for attempt in (1, 2):
        try:
            run.change(argv)
            return
        except ToolError as e:
            if argv[0] != "dcb" or STALE_ACK not in e.out:
                raise
            err = e
        sys.stdout.flush()      # the notes go after what was printed
        if port.took(g, argv, want):
            print(f"wren-qos: note: {what}: \"{STALE_ACK}\" but the port "
                  "holds the change: iproute2 6.1's dcb read a stale "
                  "netlink ACK (dcb.rst, Known issues)", file=sys.stderr,
                  flush=True)
            return
        if attempt == 2:
            raise err
        print(f"wren-qos: note: {what}: \"{STALE_ACK}\" and the port does "
              "not hold the change: running it once more", file=sys.stderr,
              flush=True)


def _write_group(port, run, g, want, cur):
    """Write one group and read it back; raises ApplyFailed."""
    try:
        for argv in port.write(g, want, cur):
            _change(port, run, g, argv, want)
        if run.dry_run:
            return
        now = port.read(g)
    except (ToolError, Unsupported) as e:
        raise ApplyFailed(f"{g}: {e}") from None
    bad = _differs(want, now)
    if bad:
        raise ApplyFailed(f"{g}: read back {', '.join(f'{k}={now.get(k)}' for k in bad)}"
                          f" instead of {', '.join(f'{k}={want[k]}' for k in bad)}")


def _restore(port, run, groups, before):
    """Write back the state read at the start; True if all of it took."""
    ok = True
    print("wren-qos: restoring the state read before the change")
    for g in groups:
        try:
            now = port.read(g)
        except Unsupported as e:
            print(f"  {g}: cannot read it back ({e}); not restored")
            ok = False
            continue
        if not _differs(before[g], now):
            continue
        try:
            _write_group(port, run, g, before[g], now)
            print(f"  {g}: restored")
        except ApplyFailed as e:
            print(f"  {g}: NOT restored: {e}")
            ok = False
    return ok


def _on_signal(signum, _frame):
    raise ApplyFailed(f"interrupted by signal {signum}")


def apply(port, prof, run):
    """Apply prof to port; returns an exit status."""
    if not port.exists():
        print(f"wren-qos: no network device {port.dev}")
        return EXIT_BAD
    groups, before, notes, missing = _read_all(port, prof)
    for n in notes:
        print("wren-qos: " + n)
    if missing:
        for m in missing:
            print("wren-qos: " + m)
        print(f"wren-qos: {port.dev} cannot take profile {prof.name}; "
              "nothing changed")
        return EXIT_UNSUPPORTED
    try:
        _check_device(port, prof, before)
    except ProfileError as e:
        print(f"wren-qos: {prof.name}: {e}; nothing changed")
        return EXIT_BAD
    want = _want(prof, before)
    todo = [g for g in groups if _differs(want[g], before[g])]
    if not todo:
        print(f"wren-qos: {port.dev} already has profile {prof.name}: "
              "nothing to change")
        return EXIT_OK
    print(f"wren-qos: applying profile {prof.name} to {port.dev} "
          f"({', '.join(todo)})")
    done = []
    old = {s: signal.signal(s, _on_signal)
           for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        for g in todo:
            done.append(g)
            _write_group(port, run, g, want[g], before[g])
    except ApplyFailed as e:
        print(f"wren-qos: failed: {e}")
        for s in old:
            signal.signal(s, signal.SIG_IGN)
        ok = _restore(port, run, done, before)
        print("wren-qos: " + ("restored: the port is as it was" if ok else
                              "the port is NOT fully restored (above)"))
        return EXIT_FAILED
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    verb = "would run" if run.dry_run else "ran"
    print(f"wren-qos: profile {prof.name} applied to {port.dev}: {verb} "
          f"{len(run.changes)} commands, read back as asked")
    return EXIT_OK
