#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check the contract pages against include/linux/wren/ and print TAP.

1. Every structure of the headers has a table, and every table (".. list-table:: struct NAME (N bytes)") must
   give the offsets and sizes that the C compiler computes for the header:
   a small C program prints offsetof()/sizeof() for every row.
2. Every WREN_* name the contract headers define must appear on some page,
   either whole (``WREN_CAP_FLR``) or, in a table whose header names the
   prefix (``WREN_CAP_``...), as its suffix (``FLR``).
3. Every table whose header row starts "Name", "Value" (limits and
   defaults) must give for each ``WREN_*`` name the number the header
   defines, so that the pages cannot keep a value the headers dropped.

Usage: check-contract.py DOCS_DIR INCLUDE_DIR [first TAP number]
Prints TAP lines without a plan (check-docs.sh prints the plan).
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "selftests", "lib"))
from tap import Tap  # noqa: E402

# Headers of the hardware contract; wren_core.h is kernel-internal and is
# described (not tabulated) by driver.rst.
HEADERS = ["wren_regs.h", "wren_admin.h", "wren_queues.h", "wren_hw.h"]

TABLE = re.compile(r"^\.\. list-table:: struct (\w+) \((\d+) bytes\)")
ROW = re.compile(r"^\s*\* - (.*)$")
CELL = re.compile(r"^\s{5,}- (.*)$")
FIELD = re.compile(r"``(?:const )?(?:struct |union )?[\w ]+?\s+(\w+)(\[\w+\])*``")


def list_table_rows(lines, i):
    """The rows of the list-table whose body starts at lines[i]: each
    [line number, first cell, more cells...]; and the index past it."""
    rows, cur = [], None
    while i < len(lines) and (not lines[i].strip() or
                              lines[i].startswith(" ")):
        r, c = ROW.match(lines[i]), CELL.match(lines[i])
        if r:
            cur = [i + 1, r.group(1)]
            rows.append(cur)
        elif c and cur is not None:
            cur.append(c.group(1))
        i += 1
    return rows, i


def tables(docs):
    """Yield (file, line, struct, size, [(line, offset, size, field)])."""
    for root, _, names in os.walk(docs):
        for name in sorted(names):
            if not name.endswith(".rst"):
                continue
            path = os.path.join(root, name)
            lines = open(path).read().splitlines()
            i = 0
            while i < len(lines):
                m = TABLE.match(lines[i])
                if not m:
                    i += 1
                    continue
                start = i + 1
                rows, i = list_table_rows(lines, i + 1)
                fields = []
                for row in rows[1:]:  # rows[0] is the header row
                    if len(row) < 4:
                        fields.append((row[0], None, None, None))
                        continue
                    f = FIELD.match(row[3])
                    fields.append((row[0], row[1], row[2],
                                   f.group(1) if f else None))
                yield (os.path.relpath(path, docs), start, m.group(1),
                       int(m.group(2)), fields)


def inline_union(inc):
    """Members of wren_aq_cmd's union u: {member name: struct name}."""
    text = open(os.path.join(inc, "linux", "wren", "wren_admin.h")).read()
    body = re.search(r"struct wren_aq_cmd \{.*?union \{(.*?)\} u;", text,
                     re.S).group(1)
    members = {}
    for m in re.finditer(r"(?:struct (\w+)|__u8)\s+(\w+)(?:\[\d+\])?;", body):
        members[m.group(2)] = m.group(1)
    return members


def compile_layouts(inc, tabs):
    """Ask the compiler for every offset and size the tables claim.

    The inline structures of wren_aq_cmd.u are tabulated at their offsets
    within the 64-byte command, so their offsets count from u.
    """
    union = inline_union(inc)
    inline = set(union.values())
    prog = ["#include <stddef.h>", "#include <stdio.h>",
            "#include <linux/wren/wren_hw.h>", "int main(void) {"]
    for _, _, st, _, fields in tabs:
        base = "offsetof(struct wren_aq_cmd, u)" if st in inline else "0"
        prog.append(f'printf("{st} %zu\\n", sizeof(struct {st}));')
        for _, _, _, fld in fields:
            if not fld:
                continue
            path = fld
            if st == "wren_aq_cmd" and fld in union:
                path = "u." + fld
            prog.append(f'printf("{st}.{fld} %zu %zu\\n", '
                        f"{base} + offsetof(struct {st}, {path}), "
                        f"sizeof(((struct {st} *)0)->{path}));")
    prog.append("return 0; }")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "l.c"), os.path.join(tmp, "l")
        open(src, "w").write("\n".join(prog) + "\n")
        cc = subprocess.run(["cc", "-std=gnu11", "-I", inc, "-o", exe, src],
                            capture_output=True, text=True)
        if cc.returncode:
            return None, cc.stderr
        out = subprocess.run([exe], capture_output=True, text=True).stdout
    got = {}
    for line in out.splitlines():
        key, *vals = line.split()
        got[key] = [int(v) for v in vals]
    return got, ""


def check_tables(docs, inc, t):
    tabs = list(tables(docs))
    got, err = compile_layouts(inc, tabs)
    if got is None:
        return t.ok(False, "structure tables: layout program did not build",
                    err.split("\n"))
    bad = []
    defined = set()
    for h in HEADERS:
        text = open(os.path.join(inc, "linux", "wren", h)).read()
        defined |= set(re.findall(r"^struct (wren_\w+) \{", text, re.M))
    for st in sorted(defined - {t[2] for t in tabs}):
        bad.append(f"struct {st} has no table")
    for f, line, st, size, fields in tabs:
        if got[st][0] != size:
            bad.append(f"{f}:{line}: struct {st} is {got[st][0]} bytes, "
                       f"table says {size}")
        for ln, off, sz, fld in fields:
            if fld is None:
                bad.append(f"{f}:{ln}: row of struct {st} names no field")
                continue
            o, s = got[f"{st}.{fld}"]
            if str(o) != off or str(s) != sz:
                bad.append(f"{f}:{ln}: {st}.{fld} is offset {o} size {s}, "
                           f"table says {off} {sz}")
    return t.ok(not bad, "structure tables match the headers "
                f"({len(tabs)} structures)", bad)


def check_names(docs, inc, t):
    names = set()
    for h in HEADERS:
        text = open(os.path.join(inc, "linux", "wren", h)).read()
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        names |= set(re.findall(r"\bWREN_\w+", text))
    names = {x for x in names if not x.startswith("_")
             and not re.match(r"_?LINUX_WREN_\w+_H$", x)}
    pages = ""
    for root, _, files in os.walk(docs):
        for name in files:
            if name.endswith(".rst"):
                pages += open(os.path.join(root, name)).read()
    literals = set(re.findall(r"``([^`]+)``", pages))
    words = set()
    for lit in literals:
        words |= set(re.findall(r"\w+", lit))
    # ``WREN_CAP_`` or ``WREN_ACCESS_*`` name a prefix for the suffixes
    # of a table or list; ``_ADMIN`` after ``WREN_SET_PORT_MTU`` is short
    # for WREN_SET_PORT_ADMIN.
    prefixes = [p.rstrip("*") for p in literals
                if re.fullmatch(r"WREN_\w*_\*?", p)]
    tails = {lit for lit in literals if re.fullmatch(r"_[A-Z0-9_]+", lit)}
    missing = []
    for x in sorted(names):
        if x in words:
            continue
        if any(x.startswith(p) and x[len(p):] in words for p in prefixes):
            continue
        if any(x.endswith(t) and any(w.startswith(x[:-len(t)] + "_")
                                     for w in words if w.startswith("WREN_"))
               for t in tails):
            continue
        missing.append(x)
    return t.ok(not missing, "every WREN_* name of the contract headers is "
                f"documented ({len(names)} names)",
                [f"undocumented: {x}" for x in missing])


def header_values(inc):
    """Plain-number #defines and enum members of the contract headers,
    read as dcb/wren-qos and hw/qemu/tests/qemu-check.py read them."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "dcb", "lib"))
    from wrenqos import contract  # pylint: disable=import-outside-toplevel
    return contract.load(os.path.join(inc, "linux", "wren"), HEADERS)


def value_rows(docs):
    """Yield (file, line, name cell, value cell) of every table whose
    header row starts with Name and Value."""
    for root, _, names in os.walk(docs):
        for name in sorted(names):
            if not name.endswith(".rst"):
                continue
            path = os.path.join(root, name)
            lines = open(path).read().splitlines()
            i = 0
            while i < len(lines):
                if not lines[i].startswith(".. list-table::"):
                    i += 1
                    continue
                rows, i = list_table_rows(lines, i + 1)
                if not rows or rows[0][1:3] != ["Name", "Value"]:
                    continue
                for row in rows[1:]:
                    yield (os.path.relpath(path, docs), row[0], row[1],
                           row[2] if len(row) > 2 else "")


def check_values(docs, inc, t):
    defs = header_values(inc)
    bad, count = [], 0
    for f, line, name, value in value_rows(docs):
        m = re.fullmatch(r"``(WREN_\w+)``", name)
        if not m:
            continue
        count += 1
        if m.group(1) not in defs:
            bad.append(f"{f}:{line}: {m.group(1)} is no number of the "
                       "headers")
        elif not re.fullmatch(r"0x[0-9a-fA-F]+|\d+", value) or \
                int(value, 0) != defs[m.group(1)]:
            bad.append(f"{f}:{line}: {m.group(1)} is "
                       f"{defs[m.group(1)]}, the page says {value!r}")
    return t.ok(not bad, f"value tables match the headers ({count} names)",
                bad)


def main():
    docs, inc = sys.argv[1], sys.argv[2]
    t = Tap(start=int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    check_tables(docs, inc, t)
    check_names(docs, inc, t)
    check_values(docs, inc, t)
    sys.exit(t.exit_code())


if __name__ == "__main__":
    main()
