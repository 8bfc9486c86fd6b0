#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Turn the verbose output of a python unittest run (rdma-core's
tests/run_tests.py -v) into one result per test, for a TAP writer.

usage: unittest_tap.py --rc RC [--elapsed S] STDERR_FILE

STDERR_FILE holds what unittest wrote (its stream is stderr; the tests'
own prints to stdout are best kept elsewhere, but stray lines in between
are tolerated).  RC is the suite's exit status (124 when timeout(1) killed
it).  Output, one record a line, tab-separated:

  ok<TAB>DESC          a test passed
  fail<TAB>DESC        a test failed, errored, or never reported a result
  skip<TAB>DESC<TAB>R  a test (or a whole class, from setUpClass) skipped
  diag<TAB>TEXT        a comment

A suite that crashed or timed out (no "Ran N tests" line) is a failure,
as is any disagreement between the per-test lines and unittest's own
summary ("FAILED (failures=1, skipped=3)"), so that a parse that went
wrong cannot turn into a pass.
"""
import argparse
import ast
import collections
import re
import sys

# "test_x (tests.test_qp.QPTest.test_x)" (3.11), "setUpClass
# (tests.test_qp.QPTest)" for class-level results; subtests are indented
# and carry their parameters: "  test_x (tests.m.C.test_x) (i=1)".
HEADER = re.compile(r'^(?P<sub>\s*)(?P<name>\w+) \((?P<id>[A-Za-z_][\w.]*)\)'
                    r'(?P<params> \(.*?\))?(?P<rest>.*)$')
STATUS = re.compile(r"^(?P<word>ok|FAIL|ERROR|expected failure|unexpected success"
                    r"|skipped (?P<reason>'.*'|\".*\"))$")
SEP1 = '=' * 70
SEP2 = '-' * 70
RAN = re.compile(r'^Ran (?P<n>\d+) tests? in (?P<s>[\d.]+)s$')
FINAL = re.compile(r'^(?P<verdict>OK|FAILED)(?: \((?P<counts>[^)]*)\))?$')
CLASS_LEVEL = ('setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule')


def short(test_id):
    return test_id[len('tests.'):] if test_id.startswith('tests.') else test_id


class Results:
    def __init__(self):
        self.records = []          # (kind, desc, reason)
        self.by_id = {}            # desc -> index in records
        self.tests = 0             # results of test methods (what Ran counts)
        self.kinds = collections.Counter()
        self.skip_reasons = collections.Counter()

    def add(self, kind, desc, reason='', counts_as_test=True):
        if desc in self.by_id:
            # A second result for the same test (an error in tearDown
            # after a pass): the worse one stands.
            i = self.by_id[desc]
            old = self.records[i][0]
            if old != 'fail' and kind == 'fail':
                self.kinds[old] -= 1
                self.kinds[kind] += 1
                self.records[i] = (kind, desc, reason)
            return
        self.by_id[desc] = len(self.records)
        self.records.append((kind, desc, reason))
        self.kinds[kind] += 1
        if counts_as_test:
            self.tests += 1
        if kind == 'skip':
            self.skip_reasons[reason] += 1


def status_of(text):
    m = STATUS.match(text.strip())
    if not m:
        return None
    word = m.group('word')
    if m.group('reason') is not None:
        try:
            reason = ast.literal_eval(m.group('reason'))
        except (ValueError, SyntaxError):
            reason = m.group('reason')[1:-1]
        return 'skip', ' '.join(str(reason).split()) or 'no reason given'
    if word in ('ok', 'expected failure'):
        return 'ok', ''
    return 'fail', word


def split_sections(lines):
    """Index of the first line after the per-test lines: the first error
    report (=== then ERROR:/FAIL:) or the --- before "Ran N tests"."""
    ran = None
    for i in range(len(lines) - 1, -1, -1):
        if RAN.match(lines[i]):
            ran = i
            break
    end = len(lines)
    for i, line in enumerate(lines[:-1]):
        if line == SEP1 and re.match(r'^(ERROR|FAIL|UNEXPECTED SUCCESS): ', lines[i + 1]):
            end = i
            break
    if ran is not None and ran > 0 and lines[ran - 1] == SEP2:
        end = min(end, ran - 1)
    return end, ran


def parse(text):
    lines = text.splitlines()
    end, ran = split_sections(lines)
    res = Results()
    diags = []
    pending = None

    class Pending:
        """The test whose name was printed and whose status was not yet."""
        def __init__(self, desc, is_test):
            self.desc = desc
            self.is_test = is_test
            self.sep = False    # " ... " seen: the status comes next
            self.subs = 0       # subtest results printed under it

    def close(why):
        # A test that failed only in subtests prints no status of its
        # own: its subtests' results stand for it (unittest counts it
        # once in "Ran").  Any other test without a status failed.
        nonlocal pending
        if pending is None:
            return
        if pending.subs:
            res.tests += 1
        else:
            res.add('fail', pending.desc, why, pending.is_test)
            diags.append(f'{pending.desc}: {why}')
        pending = None

    def status_after_sep(p, text):
        nonlocal pending
        p.sep = True
        st = status_of(text)
        if st:
            kind, reason = st
            if p.subs:
                # The parent's own status after its subtests' (an error
                # in the test body): one test.
                res.add(kind, p.desc, reason, False)
                res.tests += 1
            else:
                res.add(kind, p.desc, reason, p.is_test)
            pending = None

    for line in lines[:end]:
        m = HEADER.match(line)
        if m:
            name, test_id = m.group('name'), m.group('id')
            desc = short(test_id)
            if name in CLASS_LEVEL:
                desc = f'{desc} ({name})'
            rest = m.group('rest')
            if m.group('sub') and m.group('params') and pending is not None and \
                    pending.desc == desc:
                # "  test_x (tests.m.C.test_x) (i=1) ... FAIL": a subtest
                # of the pending test; its status is on the same line.
                st = status_of(rest.split(' ...', 1)[1]) if ' ...' in rest else None
                if st:
                    res.add(st[0], desc + m.group('params'), st[1], False)
                    pending.subs += 1
                    continue
            elif not m.group('sub') and not m.group('params'):
                if pending is not None and pending.subs and pending.desc == desc:
                    # The parent's own status, its name printed again.
                    p = pending
                else:
                    close('no result before the next test started')
                    pending = p = Pending(desc, name not in CLASS_LEVEL)
                if ' ... ' in rest or rest.endswith(' ...'):
                    status_after_sep(p, rest.split(' ...', 1)[1])
                continue
        if pending is None:
            if line.strip():
                diags.append(line)
            continue
        if not pending.sep:
            # The test's docstring line, which ends with " ... STATUS".
            if ' ... ' in line or line.endswith(' ...'):
                status_after_sep(pending, line.rsplit(' ...', 1)[1])
            elif line.strip():
                diags.append(line)
            continue
        st = status_of(line)
        if st:
            status_after_sep(pending, line)
        elif line.strip():
            diags.append(line)
    close('no result: the suite stopped during it')

    # The error reports: every test named there failed, whatever the
    # per-test lines said; its traceback's last line goes with it.
    reported = []
    i = end
    while i < len(lines) - 1:
        if lines[i] == SEP1:
            m = re.match(r'^(ERROR|FAIL|UNEXPECTED SUCCESS): (.*)$', lines[i + 1])
            if m:
                h = HEADER.match(m.group(2))
                desc = m.group(2)
                if h:
                    desc = short(h.group('id'))
                    if h.group('name') in CLASS_LEVEL:
                        desc = f"{desc} ({h.group('name')})"
                    if h.group('params'):
                        desc += h.group('params')
                j = i + 2
                while j < len(lines) and lines[j] != SEP2:
                    j += 1
                k = j + 1
                while k < len(lines) and lines[k] not in (SEP1, SEP2):
                    k += 1
                tb = [ln for ln in lines[j + 1:k] if ln.strip()]
                is_test = bool(h) and h.group('name') not in CLASS_LEVEL and \
                    not h.group('params')
                reported.append((m.group(1), desc, tb[-1] if tb else '', is_test))
                i = k
                continue
        i += 1
    return res, diags, reported, (lines[ran] if ran is not None else None), lines[ran + 1:] if ran is not None else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rc', type=int, required=True)
    ap.add_argument('--elapsed', default='')
    ap.add_argument('stderr_file')
    a = ap.parse_args()
    with open(a.stderr_file, errors='replace') as f:
        text = f.read()
    res, diags, reported, ran_line, tail = parse(text)
    out = []

    for kind, desc, why, is_test in reported:
        # Named in an error report: failed, whatever its line said.
        res.add('fail', desc, why, is_test)
    why_of = {desc: why for _, desc, why, _ in reported}

    for kind, desc, reason in res.records:
        if kind == 'fail':
            out.append(('fail', desc))
            if desc in why_of and why_of[desc]:
                out.append(('diag', f'  {desc}: {why_of[desc]}'))
        elif kind == 'skip':
            out.append(('skip', desc, reason))
        else:
            out.append(('ok', desc))

    # The suite's own summary must agree with what was counted.
    problems = []
    m = RAN.match(ran_line) if ran_line else None
    if a.rc == 124:
        problems.append('the suite timed out (killed by timeout)')
    if not m:
        problems.append(f'the suite ended without its "Ran N tests" line (exit status {a.rc})')
    else:
        final = next((FINAL.match(ln) for ln in tail if FINAL.match(ln)), None)
        if int(m.group('n')) != res.tests:
            problems.append(f"unittest ran {m.group('n')} tests, {res.tests} results were parsed")
        if not final:
            problems.append('no OK/FAILED verdict after the "Ran" line')
        else:
            counts = dict((k, int(v)) for k, v in
                          re.findall(r'(\w+)=(\d+)', final.group('counts') or ''))
            bad = (counts.get('failures', 0) + counts.get('errors', 0) +
                   counts.get('unexpected_successes', 0))
            if bad != res.kinds['fail']:
                problems.append(f'unittest counts {bad} failures and errors, '
                                f"{res.kinds['fail']} were parsed")
            if counts.get('skipped', 0) != res.kinds['skip']:
                problems.append(f"unittest counts {counts.get('skipped', 0)} skips, "
                                f"{res.kinds['skip']} were parsed")
            if (final.group('verdict') == 'OK') != (a.rc == 0):
                problems.append(f"verdict {final.group('verdict')} but exit status {a.rc}")
    if a.rc not in (0, 1) and a.rc != 124:
        problems.append(f'the suite exited with status {a.rc} (a crash?)')
    desc = 'the suite ran to its end and its summary matches the results above'
    out.append(('fail', desc) if problems else ('ok', desc))
    for p in problems:
        out.append(('diag', f'  {p}'))
    for d in diags[-40:]:
        out.append(('diag', f'  unittest: {d}'))

    took = f' in {a.elapsed} s' if a.elapsed else ''
    out.append(('diag', f"suite{took}: {len(res.records)} results, {res.kinds['ok']} passed, "
                        f"{res.kinds['fail']} failed, {res.kinds['skip']} skipped"
                        + (f' ({ran_line})' if ran_line else '')))
    for reason, n in sorted(res.skip_reasons.items(), key=lambda x: (-x[1], x[0])):
        out.append(('diag', f'skip x{n}: {reason}'))
    for rec in out:
        print('\t'.join(x.replace('\t', ' ') for x in rec))
    return 0


if __name__ == '__main__':
    sys.exit(main())
