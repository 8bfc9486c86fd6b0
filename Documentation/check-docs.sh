#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Check Documentation/ for reStructuredText errors and print TAP.
# Each .rst file is parsed with docutils (Sphinx's roles and toctree are
# stubbed, so this needs only python3-docutils); when sphinx-build is
# installed, the whole tree is also built with warnings as errors, which
# checks what docutils alone cannot: :doc:/:ref: targets and the toctree.
# Both run under Debian's /usr/bin/python3 (scripts/deps/docs.sh installs
# python3-docutils and python3-sphinx for it): a python3 earlier in PATH,
# such as a pyenv build, does not see Debian's modules.
# check-contract.py then holds the pages against include/linux/wren/, and
# check-layout.py the source tree against the pages' file tables: no
# #include or call cycle among the tree's own C files, calls that follow
# driver.rst's layered tables, and a row for every source file (it reads
# the call graph from Universal Ctags; scripts/deps/docs.sh installs it).
# The layout tests need neither docutils nor Sphinx.
# The last test covers every file git tracks, not only Documentation/:
# no comment, string or page names an issue or a stop (a work session)
# by its number; the text says what the work was instead (refs_check).
# Usage: Documentation/check-docs.sh [output dir for the sphinx build]
set -eu

docs=$(cd "$(dirname "$0")" && pwd)
if [ $# -ge 1 ]; then
	out=$1
else
	# No output wanted: build into a scratch directory and drop it.
	out=$(mktemp -d "${TMPDIR:-/tmp}/wren-docs.XXXXXX")
	trap 'rm -rf "$out"' EXIT
fi
py=/usr/bin/python3
top=$(cd "$docs/.." && pwd)

# refs_check N: TAP test N, "ok" when no file of `git ls-files` names an
# issue or a stop by its number ("issue", "issues", "stop" or "stops",
# blanks or a '#', then digits; also wrapped onto the next line past a
# comment leader). "stop", a number and a unit of time is not one. It
# fails when it scanned no file (not a git checkout) and when its pattern
# misses its own samples, so that it cannot pass by checking nothing.
refs_check() {
	if [ ! -x "$py" ]; then
		echo "not ok $1 - no issue or stop numbers in the tree: $py not found"
		return 1
	fi
	$py - "$top" "$1" <<'PY'
import os, re, subprocess, sys

top, num = sys.argv[1], sys.argv[2]
name = "no issue or stop numbers in the tree"
sep = r"(?:[ \t]+#?|#|[ \t]*\n[ \t]*(?:#+|\*|//|;+|--)?[ \t]*#?)"
ref = re.compile(r"\b(?:issues?|stops?)" + sep + r"[0-9]+(?![0-9])"
                 r"(?![ \t]*(?:s|ms|us|ns|seconds?|minutes?)\b)", re.I)

# The samples are put together here so that this file holds none.
word = {"i": "iss" + "ue", "s": "st" + "op"}
hits_wanted = [word["i"] + " 12", "(" + word["s"].title() + " 44's run)",
               word["i"] + "s #5 and 6", "at " + word["s"] + "\n# 31",
               "the " + word["i"] + "\n * 14 tests"]
misses_wanted = [word["s"] + " 1 s later", word["s"] + "s 30 ms",
                 "t" + word["i"] + " 12", word["s"] + "_12", "non" + word["s"] + " 4"]
bad = [t for t in hits_wanted if not ref.search(t)] + \
      [t for t in misses_wanted if ref.search(t)]
if bad:
    print(f"not ok {num} - {name}: the pattern gets its samples wrong")
    for t in bad:
        print(f"# {t!r}")
    sys.exit(1)

try:
    out = subprocess.run(["git", "-C", top, "ls-files", "-z"],
                         capture_output=True, check=True).stdout
except (OSError, subprocess.CalledProcessError):
    out = b""
scanned = binary = unread = 0
found = []
for f in out.decode("utf-8", "replace").split("\0"):
    if not f:
        continue
    try:
        with open(os.path.join(top, f), "rb") as fh:
            data = fh.read()
    except OSError:
        # removed in the work tree, a submodule, a link to a directory
        unread += 1
        continue
    if b"\0" in data:
        binary += 1
        continue
    scanned += 1
    text = data.decode("utf-8", "replace")
    for m in ref.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        found.append(f"{f}:{line}: {' '.join(m.group(0).split())}")

what = f"{name} ({scanned} files scanned, {binary} binary, {unread} unread)"
if scanned == 0:
    print(f"not ok {num} - {what}: nothing scanned, is {top} a git checkout?")
    sys.exit(1)
if found:
    print(f"not ok {num} - {what}: {len(found)} found")
    print("# say what the work was instead (DEVELOPERS.md, Commits)")
    for h in found:
        print(f"# {h}")
    sys.exit(1)
print(f"ok {num} - {what}")
PY
}

# check-layout.py prints this many TAP lines.
layout_tests=4

if ! $py -c 'import docutils' 2>/dev/null; then
	echo "1..$((layout_tests + 2))"
	echo "ok 1 - docutils # SKIP python3-docutils not installed (scripts/deps/docs.sh)"
	failed=0
	$py "$docs/check-layout.py" "$top" 2 || failed=1
	refs_check $((layout_tests + 2)) || failed=1
	exit $failed
fi

files=$(find "$docs" -name '*.rst' | sort)
n=$(echo "$files" | wc -l)
# Three more tests compare the contract pages with the headers (layouts
# through the C compiler, WREN_* names, and the values of the limits'
# tables); one more is sphinx-build; then check-layout.py's; the last is
# refs_check.
plan=$((n + 3))
if $py -c 'import sphinx' 2>/dev/null; then
	plan=$((plan + 1))
fi
layout_first=$((plan + 1))
plan=$((plan + layout_tests + 1))
echo "1..$plan"

failed=0
# shellcheck disable=SC2086 # one argument per file; paths have no blanks
$py - "$docs" $files <<'PY' || failed=1
import os, sys
from docutils import nodes
from docutils.core import publish_string
from docutils.parsers.rst import roles, directives, Directive

def stub_role(name, rawtext, text, lineno, inliner, options={}, content=[]):
    return [nodes.literal(rawtext, text)], []

for r in ("doc", "ref"):
    roles.register_local_role(r, stub_role)

class Toctree(Directive):
    has_content = True
    option_spec = {"maxdepth": directives.unchanged,
                   "caption": directives.unchanged}

    def run(self):
        return []

directives.register_directive("toctree", Toctree)
top, rc = sys.argv[1], 0
for i, f in enumerate(sys.argv[2:], 1):
    name = os.path.relpath(f, top)
    try:
        publish_string(open(f).read(), source_path=f, writer_name="null",
                       settings_overrides={"halt_level": 2,
                                           "report_level": 2})
        print(f"ok {i} - docutils: {name}")
    except Exception as e:
        print(f"not ok {i} - docutils: {name}")
        print("# " + str(e).replace("\n", "\n# "))
        rc = 1
sys.exit(rc)
PY

$py "$docs/check-contract.py" "$docs" "$docs/../include" $((n + 1)) ||
	failed=1

if $py -c 'import sphinx' 2>/dev/null; then
	if log=$($py -m sphinx -W -q -b html "$docs" "$out" 2>&1); then
		echo "ok $((n + 4)) - sphinx-build -W"
	else
		echo "not ok $((n + 4)) - sphinx-build -W"
		echo "$log" | sed 's/^/# /'
		failed=1
	fi
fi

$py "$docs/check-layout.py" "$top" "$layout_first" || failed=1

refs_check "$plan" || failed=1
exit $failed
