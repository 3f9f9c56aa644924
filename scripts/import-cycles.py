#!/usr/bin/env python3
"""The import graph of src/ (file → file, through `crate::`, `super::` and
`self::` paths, `use` groups expanded) and its circles: the strongly
connected components of more than one file. Prints each circle's size and
files, largest first, then a one-line summary.

    scripts/import-cycles.py [src]
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "src"

# module path (tuple) -> file
modules = {}
for dirpath, _, files in os.walk(root):
    for name in files:
        if not name.endswith(".rs"):
            continue
        path = os.path.join(dirpath, name)
        rel = os.path.relpath(path, root)[:-3].split(os.sep)
        if rel[-1] in ("mod", "lib", "main"):
            rel = rel[:-1]
        if rel and rel[0] == "bin":
            continue
        modules[tuple(rel)] = path

def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    return text

def expand_group(prefix, body):
    """`a::{b, c::{d, e}}` → [a::b, a::c::d, a::c::e]."""
    out, depth, start = [], 0, 0
    parts = []
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    for part in parts:
        part = part.strip()
        if not part:
            continue
        m = re.match(r"^([\w:]*?)::\{(.*)\}$", part, re.S)
        if m:
            out += expand_group(prefix + "::" + m.group(1), m.group(2))
        else:
            out.append(prefix + "::" + part.split(" as ")[0].strip())
    return out

def paths_in(text):
    found = []
    for m in re.finditer(r"\buse\s+((?:crate|super|self)(?:::\w+)*)::\{", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        found += expand_group(m.group(1), text[m.end():i - 1])
    found += re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", text)
    return found

def target(current, path):
    parts = path.split("::")
    if parts[0] == "crate":
        base, parts = (), parts[1:]
    else:
        base = current
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super":
                base = base[:-1]
            parts = parts[1:]
    full = base + tuple(parts)
    for n in range(len(full), 0, -1):
        if full[:n] in modules:
            return full[:n]
    return None

edges = {}
for module, path in modules.items():
    # a file's own module for `super::`: mod.rs stands for its folder
    current = module
    text = strip(open(path, encoding="utf-8").read())
    for p in paths_in(text):
        t = target(current, p)
        if t is not None and t != module and t != ():
            edges.setdefault(module, set()).add(t)
    # a path through a child module, relative (`text::run`, `use io::Redirect`)
    for child in (m for m in modules if len(m) == len(module) + 1 and m[:-1] == module):
        if re.search(r"(?<![\w:])" + child[-1] + r"::", text):
            edges.setdefault(module, set()).add(child)

# Tarjan's strongly connected components
index, low, stack, on, comps = {}, {}, [], set(), []
counter = [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        comps.append(comp)
for v in modules:
    if v not in index:
        visit(v)

circles = sorted((c for c in comps if len(c) > 1), key=len, reverse=True)
for c in circles:
    print(f"{len(c)} files: " + " ".join(sorted(modules[m] for m in c)))
print(f"{len(circles)} circles; largest {len(circles[0]) if circles else 0} files; "
      f"{len(modules)} files, {sum(len(v) for v in edges.values())} imports")
