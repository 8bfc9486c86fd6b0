#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Host test of selftests/rdma/unittest_tap.py: real unittest -v runs of a
made-up suite (docstrings, prints to stderr between a test's name and its
status, skips and errors in setUpClass, subtests, a crash, a hang) must
come out as the right per-test results, and a crash or timeout as a
failure.  TAP on stdout.

usage: unittest-tap-test.py
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TAP = os.path.join(HERE, '..', 'rdma', 'unittest_tap.py')

SUITE = r'''
import os, sys, time, unittest

class Plain(unittest.TestCase):
    def test_pass(self):
        pass

    def test_doc(self):
        """A docstring line.

        More lines.
        """

    def test_prints(self):
        """Prints between its name and its status."""
        sys.stderr.write("noise from the test\nok-looking noise\n")
        sys.stderr.flush()

    def test_fail(self):
        self.assertEqual(1, 2)

    def test_error(self):
        raise RuntimeError("boom")

    def test_skip(self):
        raise unittest.SkipTest("Feature X is not supported")

    def test_subtests(self):
        for i in range(2):
            with self.subTest(i=i):
                self.assertEqual(i, 0)

    def test_subtests_pass(self):
        for i in range(2):
            with self.subTest(i=i):
                pass

    def test_subtests_then_error(self):
        with self.subTest(j=0):
            self.fail("subtest")
        raise RuntimeError("after the subtests")

class SkippedClass(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise unittest.SkipTest("No device for this class")

    def test_never(self):
        pass

class BrokenClass(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise OSError("setup went wrong")

    def test_never(self):
        pass

class Zz(unittest.TestCase):
    def test_zz_end(self):
        mode = os.environ.get("SUITE_MODE", "")
        if mode == "crash":
            os.abort()
        if mode == "hang":
            time.sleep(60)
'''

sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
from tap import Tap  # noqa: E402

tap = Tap()


def check(desc, cond, detail=''):
    tap.ok(cond, desc, str(detail))


def run(mode, tmp):
    env = dict(os.environ, SUITE_MODE=mode)
    cmd = ['timeout', '-k', '2', '5', sys.executable, '-m', 'unittest', '-v', 'suite_mod']
    p = subprocess.run(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    err = os.path.join(tmp, f'{mode or "normal"}.err')
    with open(err, 'w') as f:
        f.write(p.stderr)
    out = subprocess.run([sys.executable, TAP, '--rc', str(p.returncode), err],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    recs = {}
    for line in out.splitlines():
        f = line.split('\t')
        if f[0] != 'diag':
            recs[f[1]] = f[0] if len(f) < 3 else (f[0], f[2])
    return p, recs, out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, 'suite_mod.py'), 'w') as f:
            f.write(SUITE)
        summary = 'the suite ran to its end and its summary matches the results above'

        p, r, out = run('', tmp)
        want = {
            'suite_mod.Plain.test_pass': 'ok',
            'suite_mod.Plain.test_doc': 'ok',
            'suite_mod.Plain.test_prints': 'ok',
            'suite_mod.Plain.test_fail': 'fail',
            'suite_mod.Plain.test_error': 'fail',
            'suite_mod.Plain.test_skip': ('skip', 'Feature X is not supported'),
            'suite_mod.Plain.test_subtests (i=1)': 'fail',
            'suite_mod.Plain.test_subtests_pass': 'ok',
            'suite_mod.Plain.test_subtests_then_error (j=0)': 'fail',
            'suite_mod.Plain.test_subtests_then_error': 'fail',
            'suite_mod.SkippedClass (setUpClass)': ('skip', 'No device for this class'),
            'suite_mod.BrokenClass (setUpClass)': 'fail',
            'suite_mod.Zz.test_zz_end': 'ok',
            summary: 'ok',
        }
        for desc, res in want.items():
            check(f'normal run: {desc} is {res}', r.get(desc) == res, out)
        check('normal run: nothing else reported as a result',
              set(r) == set(want), sorted(set(r) ^ set(want)))

        p, r, out = run('crash', tmp)
        check('crash: the test that was running fails',
              r.get('suite_mod.Zz.test_zz_end') == 'fail', out)
        check('crash: the suite check fails', r.get(summary) == 'fail', out)
        check('crash: earlier results stay', r.get('suite_mod.Plain.test_pass') == 'ok', out)

        p, r, out = run('hang', tmp)
        check('timeout: the test that was running fails',
              r.get('suite_mod.Zz.test_zz_end') == 'fail', out)
        check('timeout: the suite check fails', r.get(summary) == 'fail', out)

        # A verbose stream whose per-test lines do not add up to the
        # summary (a parse gone wrong) must fail the suite check.
        err = os.path.join(tmp, 'mismatch.err')
        with open(err, 'w') as f:
            f.write('test_a (tests.x.C.test_a) ... ok\n\n' + '-' * 70 +
                    '\nRan 2 tests in 0.1s\n\nOK\n')
        out = subprocess.run([sys.executable, TAP, '--rc', '0', err],
                             stdout=subprocess.PIPE, text=True, check=True).stdout
        check('mismatch with unittest\'s summary fails',
              f'fail\t{summary}' in out.splitlines(), out)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
