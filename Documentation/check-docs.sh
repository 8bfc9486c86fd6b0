#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Check Documentation/ for reStructuredText errors and print TAP.
# Each .rst file is parsed with docutils (Sphinx's roles and toctree are
# stubbed, so this needs only python3-docutils); when sphinx-build is
# installed, the whole tree is also built with warnings as errors, which
# checks what docutils alone cannot: :doc:/:ref: targets and the toctree.
# Both run under Debian's /usr/bin/python3 (scripts/deps-docs.sh installs
# python3-docutils and python3-sphinx for it): a python3 earlier in PATH,
# such as a pyenv build, does not see Debian's modules.
# check-contract.py then holds the pages against include/linux/wren/.
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

if ! $py -c 'import docutils' 2>/dev/null; then
	echo "1..0 # SKIP python3-docutils not installed (scripts/deps-docs.sh)"
	exit 0
fi

files=$(find "$docs" -name '*.rst' | sort)
n=$(echo "$files" | wc -l)
# Two more tests compare the contract pages with the headers (layouts
# through the C compiler, and WREN_* names); one more is sphinx-build.
plan=$((n + 2))
if $py -c 'import sphinx' 2>/dev/null; then
	plan=$((plan + 1))
fi
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
		echo "ok $((n + 3)) - sphinx-build -W"
	else
		echo "not ok $((n + 3)) - sphinx-build -W"
		echo "$log" | sed 's/^/# /'
		failed=1
	fi
fi
exit $failed
