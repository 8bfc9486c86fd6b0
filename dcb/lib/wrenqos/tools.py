# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Running the standard tools: reads quietly, changes loudly.

Every command that changes the device goes through change(): it is
printed (or only listed, with --dry-run) and counted, so that "nothing to
change" can be proved by a count of zero.

Reads are cached until the next change: one run asks the tools for each
object once between changes (without apptrust the trust group reads
the same `dcb app` table as the app group; under TCG each exec of a
tool costs a good part of a second), while a change, failed or not,
drops every cached read, so a read-back after it always asks the
device again.  The whole cache goes, not only the
changed object's: the driver ties objects together (DSCP app entries
switch the trust, PFC and 802.3x pause exclude each other).
"""
import json
import subprocess


class ToolError(Exception):
    """A command failed: argv, exit status and what it printed."""

    def __init__(self, argv, rc, out):
        super().__init__(f"{' '.join(argv)}: exit {rc}: {out.strip()}")
        self.argv, self.rc, self.out = argv, rc, out


class Runner:
    """Runs commands; verbose prints each change before it is made."""

    def __init__(self, verbose=True, dry_run=False):
        self.verbose, self.dry_run = verbose, dry_run
        self.changes = []
        self._cache = {}     # argv tuple -> stdout or the ToolError

    @staticmethod
    def _run(argv):
        try:
            r = subprocess.run(argv, capture_output=True, text=True,
                               check=False, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ToolError(argv, 127, str(e)) from None
        if r.returncode:
            raise ToolError(argv, r.returncode, r.stderr or r.stdout)
        return r.stdout

    def read(self, argv):
        """Run a read-only command; its stdout, or ToolError.  The same
        read since the last change answers from the cache (a failure
        too: a group the device lacks stays lacking)."""
        key = tuple(argv)
        if key not in self._cache:
            try:
                self._cache[key] = self._run(argv)
            except ToolError as e:
                self._cache[key] = e
        got = self._cache[key]
        if isinstance(got, ToolError):
            raise got
        return got

    def json(self, argv):
        """Run a read-only command that prints JSON; the parsed value."""
        out = self.read(argv)
        try:
            return json.loads(out) if out.strip() else {}
        except ValueError:
            raise ToolError(argv, 0, "output is not JSON: " + out) from None

    def change(self, argv):
        """Run a command that changes the device; ToolError on failure."""
        self.changes.append(argv)
        if self.verbose:
            print("  " + " ".join(argv), flush=True)
        if self.dry_run:
            return ""
        self._cache.clear()
        return self._run(argv)
