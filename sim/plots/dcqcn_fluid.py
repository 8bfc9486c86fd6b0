# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The DCQCN fluid model of Zhu et al., "Congestion Control for Large-Scale
RDMA Deployments" (SIGCOMM 2015), section 5: an independent reference for
E1, from the paper's equations, not from the NIC's code.

Per flow, rates in packets per second, the feedback delayed by tau*:

  p(q)    = 0 below Kmin, Pmax (q - Kmin) / (Kmax - Kmin) up to Kmax, 1 above
  dq/dt   = sum of Rc - C
  dalpha  = g / tau' ((1 - (1 - p')^(tau' Rc')) - alpha)
  dRt     = -(Rt - Rc) / tau (1 - (1 - p')^(tau Rc'))
            + R_AI Rc' p' / ((1 - p')^-B - 1)
            + R_AI Rc' p' / ((1 - p')^(-T Rc') - 1)
  dRc     = -Rc alpha / (2 tau) (1 - (1 - p')^(tau Rc'))
            + (Rt - Rc) / 2 Rc' p' / ((1 - p')^-B - 1)
            + (Rt - Rc) / 2 Rc' p' / ((1 - p')^(-T Rc') - 1)

where p' and Rc' are p and Rc at t - tau*, tau the time between cuts at
most (the CNP interval, or the rate-reduce period if longer), tau' the
alpha update period, T the rate-increase timer, B the byte counter in
packets.  The last two terms are the rates of byte-counter and timer
events: the chance that B packets (or T seconds of them) pass unmarked.

integrate() steps them with Euler's method from the flows' joins (each
flow starts at line rate, alpha at its initial value); fixed_point()
solves them at rest for N equal flows.
"""
import math

import numpy as np


class Params:
    """A profile and its setting, in the units of E1's trace ("p," rows)."""

    def __init__(self, p):
        frame = p["frame_bytes"]
        self.senders = int(p["senders"])
        self.join_s = p["join_ms"] / 1e3
        self.frame = frame
        self.payload = p["payload_bytes"]
        # The bottleneck in frames per second: wire overhead included.
        self.c = p["link_bps"] / 8 / (frame + p["wire_overhead_bytes"])
        self.kmin, self.kmax, self.pmax = p["kmin"], p["kmax"], p["pmax"]
        self.tau = max(p["cnp_interval_us"], p["reduce_period_us"], 1) * 1e-6
        self.tau_a = max(p["alpha_update_us"], 1) * 1e-6
        self.timer = p["time_reset_us"] * 1e-6
        self.b = p["byte_reset"] / frame if p["byte_reset"] else math.inf
        self.r_ai = p["ai_mbps"] * 1e6 / 8 / frame
        self.g = p["g_1024"] / 1024
        self.r_min = p["min_rate_mbps"] * 1e6 / 8 / frame
        self.alpha0 = min(p["initial_alpha"], 1023) / 1024
        # Out and back: four 1 us hops, a frame's and a CNP's serialisation.
        self.rtt = 4 * p["link_delay_ns"] * 1e-9 + 2 / self.c

    def to_gbps(self, frames_per_s):
        """A rate of full frames as payload Gb/s, as E1 measures flows."""
        return frames_per_s * self.payload * 8 / 1e9


def marking(q, prm):
    """RED's marking probability at a queue of q bytes."""
    if q <= prm.kmin:
        return 0.0
    if q <= prm.kmax:
        return prm.pmax * (q - prm.kmin) / (prm.kmax - prm.kmin)
    return 1.0


def _unmarked_runs(rc, p, n):
    """Events a second of "n packets pass unmarked" at rc packets/s (n may
    be an array); rc / n when nothing is marked, 0 when everything is."""
    n = np.broadcast_to(np.asarray(n, dtype=float), np.shape(rc))
    if p <= 0:
        ok = np.isfinite(n) & (n > 0)
        return np.divide(rc, n, out=np.zeros(np.shape(rc)), where=ok)
    if p >= 1:
        return np.zeros_like(n * rc)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        d = np.expm1(-n * math.log1p(-p))
        r = np.where(np.isfinite(d) & (d > 0), rc * p / d, 0.0)
    return r


def _rates(prm, p, rcd):
    """Cut, alpha and increase terms for delayed rates rcd at marking p."""
    lq = math.log1p(-min(p, 1 - 1e-12))
    cut = -np.expm1(prm.tau * rcd * lq)
    mark_a = -np.expm1(prm.tau_a * rcd * lq)
    inc = _unmarked_runs(rcd, p, prm.b) + _unmarked_runs(rcd, p, prm.timer * rcd)
    return cut, mark_a, inc


def integrate(prm, end_s, dt=1e-6, sample_s=1e-5):
    """The flows joining join_s apart, to end_s.  Returns (t, rc, q): sample
    times (s), each flow's Rc (frames/s, rows per sample) and the queue
    (bytes) every sample_s."""
    n = prm.senders
    steps = int(round(end_s / dt))
    every = max(1, int(round(sample_s / dt)))
    start = np.array([i * prm.join_s for i in range(n)])
    rc = np.full(n, prm.c)
    rt = np.full(n, prm.c)
    alpha = np.full(n, prm.alpha0)
    q = 0.0
    # What the senders hear at t was marked when the frame joined the
    # queue, at the time te whose frame leaves at te + q(te) / C and whose
    # CNP is back a round trip later: history in ring buffers, te found by
    # a pointer that only moves on (a queue drains no faster than C).
    hist = int(20e-3 / dt)
    p_hist = np.zeros(hist)
    rc_hist = np.zeros((hist, n))
    leave = np.zeros(hist)
    j = -1
    out_t, out_rc, out_q = [], [], []
    for k in range(steps):
        t = k * dt
        on = start <= t
        p_hist[k % hist] = marking(q, prm)
        rc_hist[k % hist] = np.where(on, rc, 0.0)
        leave[k % hist] = t + q / prm.frame / prm.c
        while j + 1 <= k and leave[(j + 1) % hist] + prm.rtt <= t:
            j += 1
        j = max(j, k - hist + 1)
        p = p_hist[j % hist] if j >= 0 else 0.0
        rcd = rc_hist[j % hist] if j >= 0 else np.zeros(n)
        cut, mark_a, inc = _rates(prm, p, rcd)
        d_alpha = prm.g / prm.tau_a * (mark_a - alpha)
        d_rt = -(rt - rc) / prm.tau * cut + prm.r_ai * inc
        d_rc = -rc * alpha / (2 * prm.tau) * cut + (rt - rc) / 2 * inc
        alpha = np.where(on, np.clip(alpha + d_alpha * dt, 0, 1), alpha)
        rt = np.where(on, np.clip(rt + d_rt * dt, prm.r_min, prm.c), rt)
        rc = np.where(on, np.clip(rc + d_rc * dt, prm.r_min, prm.c), rc)
        total = float(np.sum(np.where(on, rc, 0.0)))
        q = max(0.0, q + (total - prm.c) * prm.frame * dt)
        if k % every == 0:
            out_t.append(t)
            out_rc.append(np.where(on, rc, 0.0))
            out_q.append(q)
    return np.array(out_t), np.array(out_rc), np.array(out_q)


def fixed_point(prm, n=None):
    """The model at rest with n equal flows: each at C / n, and the marking
    probability where cuts and increases balance.  Returns a dict: rate
    (frames/s a flow), p, alpha, rt_minus_rc, q (bytes; None where RED
    cannot mark that much below Kmax)."""
    n = n or prm.senders
    r = prm.c / n

    def parts(p):
        cut, mark_a, inc = _rates(prm, p, np.array([r]))
        return float(cut[0]), float(mark_a[0]), float(inc[0])

    def f(p):
        # dRt = 0: (Rt - Rc) cut / tau = R_AI inc; dRc = 0 with it:
        # r alpha cut^2 = tau^2 R_AI inc^2, alpha = mark_a.
        cut, mark_a, inc = parts(p)
        return r * mark_a * cut * cut - prm.tau ** 2 * prm.r_ai * inc * inc

    lo, hi = 1e-12, 1 - 1e-9
    if f(hi) < 0:
        return None
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    p = hi
    cut, mark_a, inc = parts(p)
    q = None
    if p <= prm.pmax:
        q = prm.kmin + p / prm.pmax * (prm.kmax - prm.kmin)
    return {"rate": r, "p": p, "alpha": mark_a,
            "rt_minus_rc": prm.tau * prm.r_ai * inc / cut if cut else 0.0,
            "q": q}
