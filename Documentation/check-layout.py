#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Hold the source tree's layout to what the pages say of it; print TAP.

1. No #include cycle among the tree's own C files (the folders of
   COMPONENTS below): quoted includes, resolved from the including file's
   folder, form a graph that must have no cycle.
2. No call cycle between two files of one component.  A file's module is
   the file with the header of the same name beside it (fabric.c and
   fabric.h), so a static inline of fabric.h is fabric.c's.  Universal
   Ctags gives every function and macro definition with its first and
   last line; a module uses another when an identifier inside one of its
   function or macro bodies names a function the other module defines,
   that is, calls it or takes its address.  Comments and strings are
   blanked first, and a member after '.' or '->' and a struct, union or
   enum tag are no function.  An initializer outside any body (an ops
   table) is not a call: whoever calls through the table does.
3. The layered tables of driver.rst (an rst comment ".. layered" just
   before the list-table) hold the calls: a file calls only files of its
   own row or of rows under it.
4. Every .c and .h of a component (tests/ folders aside) has a row in the
   file tables of its page, and every file a table names exists.  A file
   table is a table whose header row is "File | Job"; in driver.rst the
   folder it describes is the last ``.../`` path of the paragraph before
   it, in a README every file table describes the component's folder, and
   a bare name means the file of that name anywhere under it.

Nothing in here names a source file: the folders and pages are below,
the files come from the tree and the tables, so renaming a file means
changing its table row only.

Limits of identifier matching, which does not parse C: calls through
function pointers are not seen (they are not a file calling a file);
neither are calls hidden in the body of an inline or macro of a header
that has no .c of its own name, which belong to no module; a local
variable or parameter named like another file's function reads as a
use of it; both sides of an #if count.

Usage: check-layout.py TOP [first TAP number]
Prints TAP lines without a plan (check-docs.sh prints the plan).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "selftests", "lib"))
from tap import Tap  # noqa: E402

DRIVER_RST = "Documentation/networking/device_drivers/wren/driver.rst"
# (name, folder, the page with its file tables or None)
COMPONENTS = [
    ("wren.ko", "drivers/net/ethernet/wren", DRIVER_RST),
    ("wren_ib.ko", "drivers/infiniband/hw/wren", DRIVER_RST),
    ("libwrenhw", "hw/src", "hw/README.md"),
    ("the host stub", "hw/host", "hw/host/README.md"),
    ("libwren", "providers/wren", "providers/wren/README.md"),
    ("wren-fabric", "tools/fabric", None),
]

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"')
# an identifier, and what says it is no function: a member access, or a
# struct, union or enum tag (struct wren_ib_create_cq is no call)
IDENT = re.compile(r"(->|\.|\b(?:struct|union|enum)\s+)?\s*"
                   r"\b([A-Za-z_]\w*)\b")


def sources(top, folder):
    """The component's .c and .h files, relative to top, tests/ aside."""
    found = []
    for root, dirs, names in os.walk(os.path.join(top, folder)):
        dirs[:] = sorted(d for d in dirs if d != "tests")
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                found.append(os.path.relpath(os.path.join(root, n), top))
    return found


def blank(text):
    """@text with comments, strings and character constants blanked out,
    newlines kept so that line numbers still hold."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_of(path, files):
    """fabric.h -> fabric.c when that exists beside it, else the path."""
    if path.endswith(".h") and path[:-2] + ".c" in files:
        return path[:-2] + ".c"
    return path


def find_cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        # iterative, so a long chain cannot overflow Python's stack
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    scc = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        scc.append(w)
                        if w == node:
                            break
                    if len(scc) > 1:
                        out.append(sorted(scc))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def tap(t, ok, what, notes=()):
    """A result with its notes, which are shown whether or not it passed."""
    t.ok(ok, what)
    t.diag(list(notes))
    return ok


# ---- 1. includes ----------------------------------------------------------

def check_includes(top, comps, t):
    files = {f for _, _, fs in comps for f in fs}
    graph, edges = {}, 0
    for f in sorted(files):
        text = blank(open(os.path.join(top, f), errors="replace").read())
        # blanking strings blanks the include's name: read it from the
        # original line, at the lines that still say #include
        raw = open(os.path.join(top, f), errors="replace").read().split("\n")
        for m in re.finditer(r"^[ \t]*#[ \t]*include\b", text, re.M):
            line = text.count("\n", 0, m.start())
            inc = INCLUDE.match(raw[line])
            if not inc:
                continue
            to = os.path.normpath(os.path.join(os.path.dirname(f),
                                               inc.group(1)))
            if to in files:
                graph.setdefault(f, set()).add(to)
                edges += 1
    notes = []
    for cyc in find_cycles(graph):
        notes.append(", ".join(cyc) + " include each other:")
        notes += [f"  {f} includes {to}" for f in cyc
                  for to in sorted(graph[f]) if to in cyc]
    what = (f"no #include cycle among the tree's own C files "
            f"({len(files)} files, {edges} includes between them)")
    if not files or not edges:
        return tap(t, False, what + ": nothing examined")
    return tap(t, not notes, what, notes)


# ---- 2. and 3. calls ------------------------------------------------------

def ctags(top, files):
    """[(path, name, kind, first line, last line, file-local)]"""
    if not files:
        return []
    cmd = ["ctags", "-u", "--output-format=json", "--fields=+ne",
           "--kinds-C=fd", "--language-force=C", "-f", "-"] + files
    out = subprocess.run(cmd, cwd=top, capture_output=True, text=True,
                         check=True).stdout
    tags = []
    for line in out.splitlines():
        t = json.loads(line)
        if t.get("_type") != "tag":
            continue
        tags.append((t["path"], t["name"], t["kind"], t["line"],
                     t.get("end", t["line"]), bool(t.get("file"))))
    return tags


def call_graph(top, files):
    """{module: {module: (file, line, symbol)}} and the symbol count."""
    fset = set(files)
    tags = ctags(top, files)
    owner, defined, bodies = {}, {}, {}
    for path, sym, kind, first, last, local in tags:
        defined.setdefault(path, set()).add(sym)
        bodies.setdefault(path, []).append((first, last))
        if kind != "function" or local:
            continue
        mod = module_of(path, fset)
        # a header's function belongs to a module only through its .c
        if mod.endswith(".h"):
            continue
        owner.setdefault(sym, set()).add(mod)
    graph = {}
    for path in files:
        mod = module_of(path, fset)
        if mod.endswith(".h"):
            continue
        graph.setdefault(mod, {})
        lines = blank(open(os.path.join(top, path),
                           errors="replace").read()).split("\n")
        mine = defined.get(path, set())
        seen = set()
        for first, last in bodies.get(path, []):
            for no in range(first, min(last, len(lines)) + 1):
                if no in seen:
                    continue
                seen.add(no)
                for m in IDENT.finditer(lines[no - 1]):
                    sym = m.group(2)
                    if m.group(1) or sym in mine or sym not in owner:
                        continue
                    for to in owner[sym]:
                        if to != mod and to not in graph[mod]:
                            graph[mod][to] = (path, no, sym)
    return graph, len(owner)


def edge_note(frm, to, why):
    path, line, sym = why
    return f"{frm} -> {to}: {path}:{line} uses {sym}()"


def check_calls(top, comps, graphs, t):
    notes, counts, nfiles, nedges, nsyms = [], [], 0, 0, 0
    for name, _, files in comps:
        graph, syms = graphs[name]
        edges = sum(len(v) for v in graph.values())
        counts.append(f"{name}: {len(graph)} modules, {edges} calls")
        nfiles += len(graph)
        nsyms += syms
        nedges += edges
        for cyc in find_cycles({k: set(v) for k, v in graph.items()}):
            notes.append(f"{name}: " + ", ".join(cyc) + " call each other:")
            members = set(cyc)
            for frm in cyc:
                for to, why in sorted(graph[frm].items()):
                    if to in members:
                        notes.append("  " + edge_note(frm, to, why))
    what = (f"no call cycle between the files of a component "
            f"({nfiles} modules, {nsyms} functions, {nedges} calls "
            f"between files)")
    if not nfiles or not nedges:
        return tap(t, False, what + ": nothing examined")
    return tap(t, not notes, what, notes + ["; ".join(counts)])


# ---- tables ---------------------------------------------------------------

RST_ROW = re.compile(r"^\s*\* - (.*)$")
RST_CELL = re.compile(r"^\s+- (.*)$")
LITERAL = re.compile(r"``([^`]+)``|`([^`]+)`")


def names(cell):
    return [a or b for a, b in LITERAL.findall(cell)]


def read_page(top, page):
    """The page's lines; none when it is missing, which the file table
    test reports as a folder without a table."""
    try:
        return open(os.path.join(top, page)).read().split("\n")
    except OSError:
        return []


def rst_tables(top, page):
    """[(folder, layered, [(line, [names])])] of the page's list-tables:
    folder is None for a table that is no file table."""
    lines = read_page(top, page)
    tables, para, layered = [], [], False
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"^\.\. layered\b", line):
            layered = True
            i += 1
            continue
        if not line.startswith(".. list-table::"):
            if line.strip() and not line.startswith(" "):
                if not re.match(r"^[=\-~^]+$", line):
                    para.append(line)
            elif not line.strip() and para and para[-1] != "":
                para.append("")
            i += 1
            continue
        # rows: "* - first cell" (maybe wrapped), then "  - next cell"
        rows, first, i = [], False, i + 1
        while i < len(lines) and (not lines[i].strip() or
                                  lines[i].startswith(" ")):
            r = RST_ROW.match(lines[i])
            if r:
                rows.append([i + 1, r.group(1)])
                first = True
            elif RST_CELL.match(lines[i]):
                first = False
            elif first and lines[i].strip():
                rows[-1][1] += " " + lines[i].strip()
            i += 1
        # the paragraph just before the table: its last ``.../`` path
        last = "\n".join(para).strip().split("\n\n")[-1]
        folders = [x for x in names(last) if x.endswith("/")]
        if rows and rows[0][1].strip().lower() == "file" and folders:
            tables.append((folders[-1].rstrip("/"), layered,
                           [(no, names(cell)) for no, cell in rows[1:]]))
        else:
            tables.append((None, layered, []))
        para, layered = [], False
    return tables


def md_tables(top, page):
    """[(None, False, [(line, [names])])] of the page's file tables."""
    lines = read_page(top, page)
    tables, i = [], 0
    while i < len(lines):
        cells = [c.strip().lower() for c in lines[i].strip().strip("|")
                 .split("|")]
        if lines[i].startswith("|") and cells[:2] == ["file", "job"]:
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                first = lines[i].strip().strip("|").split("|")[0]
                rows.append((i + 1, names(first)))
                i += 1
            tables.append((None, False, rows))
        else:
            i += 1
    return tables


def page_tables(top, page, folder):
    if page.endswith(".rst"):
        return [t for t in rst_tables(top, page) if t[0] == folder]
    return [(folder,) + t[1:] for t in md_tables(top, page)]


def resolve(name, folder, files):
    """The files of the component a table's name means."""
    full = os.path.normpath(os.path.join(folder, name))
    if full in files:
        return [full]
    return [f for f in files if f.endswith("/" + name)]


def check_tables(top, comps, t):
    notes, nfiles, nrows, ntables = [], 0, 0, 0
    for name, folder, files, page in comps:
        if not page:
            continue
        fset = set(files)
        tables = page_tables(top, page, folder)
        ntables += len(tables)
        listed = set()
        for _, _, rows in tables:
            for no, row in rows:
                nrows += 1
                for x in row:
                    got = resolve(x, folder, fset)
                    if x.endswith((".c", ".h")) and not got:
                        notes.append(f"{page}:{no}: {x} is no file of "
                                     f"{folder}/")
                    elif len(got) > 1:
                        notes.append(f"{page}:{no}: {x} names "
                                     f"{len(got)} files of {folder}/")
                    listed.update(got)
        nfiles += len(files)
        if not tables:
            notes.append(f"{page}: no file table for {folder}/")
        for f in files:
            if f not in listed:
                notes.append(f"{f}: not in the file tables of {page}")
    what = (f"every source file has a line in its page's file table "
            f"({nfiles} files, {ntables} tables, {nrows} rows)")
    if not nfiles or not nrows:
        return tap(t, False, what + ": nothing examined")
    return tap(t, not notes, what + (f": {len(notes)} wrong" if notes
                                     else ""), notes)


def check_layers(top, comps, graphs, t):
    notes, nedges, ntables = [], 0, 0
    for page in sorted({c[3] for c in comps if c[3] and
                        c[3].endswith(".rst")}):
        folders = {c[1] for c in comps if c[3] == page}
        for folder, layered, _ in rst_tables(top, page):
            if layered and folder not in folders:
                notes.append(f"{page}: a '.. layered' table that is no "
                             f"file table of {', '.join(sorted(folders))}")
    for name, folder, files, page in comps:
        if not page or not page.endswith(".rst"):
            continue
        graph = graphs[name][0]
        fset = set(files)
        for _, layered, rows in page_tables(top, page, folder):
            if not layered:
                continue
            ntables += 1
            rank = {}
            for r, (_, row) in enumerate(rows):
                for x in row:
                    for f in resolve(x, folder, fset):
                        rank[module_of(f, fset)] = r
            for frm in sorted(graph):
                for to, why in sorted(graph[frm].items()):
                    if frm not in rank or to not in rank:
                        continue
                    nedges += 1
                    if rank[to] < rank[frm]:
                        notes.append(edge_note(frm, to, why) +
                                     " (listed above it)")
    what = (f"the layered tables of the pages hold the calls "
            f"({ntables} tables, {nedges} calls checked)")
    if not ntables or not nedges:
        return tap(t, False, what + ": nothing examined")
    return tap(t, not notes, what + (f": {len(notes)} wrong" if notes
                                     else ""), notes)


def main():
    top = sys.argv[1]
    t = Tap(start=int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    comps = [(name, folder, sources(top, folder), page)
             for name, folder, page in COMPONENTS]
    ok = check_includes(top, [(a, b, c) for a, b, c, _ in comps], t)
    try:
        graphs = {name: call_graph(top, files)
                  for name, _, files, _ in comps}
    except (OSError, subprocess.CalledProcessError) as e:
        why = f"ctags failed ({e}); scripts/deps/docs.sh installs " \
              "universal-ctags"
        tap(t, False, "no call cycle between the files of a component",
            [why])
        tap(t, False, "the layered tables of the pages hold the calls",
            [why])
        check_tables(top, comps, t)
        sys.exit(1)
    ok &= check_calls(top, [(a, b, c) for a, b, c, _ in comps], graphs,
                      t)
    ok &= check_layers(top, comps, graphs, t)
    ok &= check_tables(top, comps, t)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
