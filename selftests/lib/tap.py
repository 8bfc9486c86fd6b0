# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""TAP for the tree's Python tests, host or guest: the Python twin of
tap.sh and tap.h, after kselftest's net/lib/py/ksft.py.

    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", "lib"))   # relative to the test
    from tap import Tap

    t = Tap()                    # Tap(plan=3) prints "1..3" up front
    t.ok(cond, "eth0 is up", diag=out)   # diag shown only on failure
    t.skip("thing", "why")
    t.diag("free text")
    sys.exit(t.done())           # plan if none was given, 0 only if all ok

    t.unittest(suite)            # a unittest suite, one result a test

Results are "ok N - DESC" and "not ok N - DESC" (numbered from start=),
skips "ok N - DESC # SKIP WHY", diagnostics "# ..." one per line, the
lines that scripts/lib/tap-count.sh counts.  numbered=False writes "ok -
DESC" for a stream that some other script renumbers (tap_relay).  Every
line is flushed, so that a test killed half way leaves its results.

Guests see the host's / over 9p, so a test finds this file relative to
its own __file__ wherever it runs; nothing is installed.
"""
import sys

__all__ = ["Tap"]


class Tap:
    def __init__(self, plan=None, start=1, numbered=True, prefix="",
                 out=None):
        self.out = out or sys.stdout
        self.count = 0
        self.failed = 0
        self.skipped = 0
        self.start = start
        self.numbered = numbered
        self.prefix = prefix
        self.planned = None
        self.results = []  # the result lines, for a copy in a file
        if plan is not None:
            self.plan(plan)

    def _line(self, text):
        print(text, file=self.out, flush=True)

    def plan(self, n):
        """Print the plan "1..N" (up front, or at the end of a run)."""
        self.planned = n
        self._line(f"1..{n}")

    def diag(self, text):
        """Each line of @text (a string, or lines) as a "# " line."""
        if text is None:
            return
        lines = text if isinstance(text, (list, tuple)) else \
            str(text).splitlines()
        for line in lines:
            self._line(f"# {line}")

    def _result(self, good, desc, directive=""):
        n = self.start + self.count
        self.count += 1
        num = f" {n}" if self.numbered else ""
        self.results.append(f"{'ok' if good else 'not ok'}{num} - "
                            f"{self.prefix}{desc}{directive}")
        self._line(self.results[-1])
        return n

    def ok(self, good, desc, diag=None):
        """A result: ok when @good is true; @diag (text or lines) is
        printed as diagnostics after a failure only.  Returns @good."""
        good = bool(good)
        self._result(good, desc)
        if not good:
            self.failed += 1
            self.diag(diag)
        return good

    def not_ok(self, desc, diag=None):
        return self.ok(False, desc, diag)

    def skip(self, desc, why):
        """A result that did not run: "ok N - DESC # SKIP WHY"."""
        self._result(True, desc, f" # SKIP {why}")
        self.skipped += 1

    @property
    def passed(self):
        return self.count - self.failed - self.skipped

    def summary(self):
        """kselftest's totals line, as a diagnostic."""
        self.diag(f"Totals: pass:{self.passed} fail:{self.failed} "
                  f"xfail:0 xpass:0 skip:{self.skipped} error:0")

    def unittest(self, suite):
        """Run a unittest suite: one result per test (per failing subtest),
        its first docstring line or name the description, the traceback
        of a failure as diagnostics, a SkipTest a skip."""
        import unittest  # only the tests that have suites pay for it

        tap = self

        class Result(unittest.TestResult):
            @staticmethod
            def _desc(test):
                return test.shortDescription() or test.id().split(".")[-1]

            def addSuccess(self, test):
                super().addSuccess(test)
                if not getattr(test, "_tap_failed_sub", False):
                    tap.ok(True, self._desc(test))

            def addFailure(self, test, err):
                super().addFailure(test, err)
                tap.ok(False, self._desc(test),
                       self._exc_info_to_string(err, test))

            addError = addFailure

            def addSkip(self, test, reason):
                super().addSkip(test, reason)
                tap.skip(self._desc(test), reason)

            def addSubTest(self, test, subtest, err):
                super().addSubTest(test, subtest, err)
                if err is not None:
                    test._tap_failed_sub = True
                    tap.ok(False, f"{self._desc(test)} {subtest._subDescription()}",
                           self._exc_info_to_string(err, test))

        result = Result()
        suite.run(result)
        return result.wasSuccessful()

    def exit_code(self):
        return 1 if self.failed else 0

    def done(self):
        """Print the plan if none was given up front, flag a plan that does
        not match what ran; the exit code: 0 only if nothing failed."""
        if self.planned is None:
            self.plan(self.count)
        elif self.planned != self.count:
            self.diag(f"planned {self.planned} tests but ran {self.count}")
            return 1
        return self.exit_code()
