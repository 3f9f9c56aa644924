#!/usr/bin/env bash
# Records (or checks) the expectations of the shell corpus from real bash.
#
#   scripts/shell-corpus-record.sh [--check] [-j N] [NAME...]
#
# For each script tests/shell_corpus/scripts/NAME.sh (all of them when no
# NAME is given; NAME may be given with or without .sh, or as a number such
# as 042), it copies tests/shell_corpus/seed/ into a fresh temporary
# directory and runs the script there as
#
#   env -i LC_ALL=C HOME=<tmp> bash -c "$(cat script)" </dev/null
#
# (argv[0] is "bash", so bash's own messages read "bash: line N: ..."), then
# writes tests/shell_corpus/expected/NAME.out: exit code, stdout, final tree.
# With --check it compares instead of writing and exits 1 on any drift.
# A script whose stdout or final files contain the temporary directory's
# path, or whose two runs differ, is rejected. Expectation files marked
# "hand-written:" are skipped and listed. Format: tests/shell_corpus/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, shutil, signal, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

# A run started in the background or under nohup inherits ignored signals,
# which bash would keep and `trap -p` list: bash starts from the defaults.
for number in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
    signal.signal(number, signal.SIG_DFL)

CORPUS = "tests/shell_corpus"
SCRIPTS, EXPECTED, SEED = CORPUS + "/scripts", CORPUS + "/expected", CORPUS + "/seed"
TIMEOUT = 20


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def tree(root):
    """The manifest lines of every path under root (root itself left out), sorted by path bytes."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if "\n" in rel or " -> " in rel:
                raise ValueError("path not representable in the manifest: %r" % rel)
            if os.path.islink(full):
                entries.append((rel, "l %s -> %s" % (rel, os.readlink(full)), b""))
            elif os.path.isdir(full):
                entries.append((rel, "d " + rel, b""))
            else:
                with open(full, "rb") as f:
                    data = f.read()
                entries.append((rel, "f %s %d %s" % (rel, len(data), fnv1a64(data)), data))
    entries.sort(key=lambda e: e[0].encode())
    return [e[1] for e in entries], [e[2] for e in entries]


def render(code, stdout, lines):
    out = b"exit: %d\nstdout: %d bytes\n--- stdout\n" % (code, len(stdout)) + stdout
    if stdout and not stdout.endswith(b"\n"):
        out += b"\n"
    return out + b"--- tree\n" + "".join(l + "\n" for l in lines).encode()


def run_once(script):
    tmp = tempfile.mkdtemp(prefix="shell-corpus-")
    try:
        root = os.path.join(tmp, "root")
        shutil.copytree(SEED, root, symlinks=True)
        p = subprocess.run(["bash", "-c", script], executable="/bin/bash", cwd=root,
                           env={"LC_ALL": "C", "HOME": root}, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        lines, contents = tree(root)
        leak = root.encode()
        if leak in p.stdout or tmp.encode() in p.stdout:
            raise ValueError("stdout contains the temporary directory's path")
        if any(leak in c for c in contents):
            raise ValueError("a file of the final tree contains the temporary directory's path")
        return render(p.returncode, p.stdout, lines), p.stderr
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def process(name, check):
    path = os.path.join(EXPECTED, name + ".out")
    old = None
    if os.path.exists(path):
        with open(path, "rb") as f:
            old = f.read()
        if old.startswith(b"hand-written:"):
            return "skipped", "hand-written expectation"
    with open(os.path.join(SCRIPTS, name + ".sh"), encoding="utf-8") as f:
        script = f.read()
    try:
        first, _ = run_once(script)
        # Recording runs twice to catch output that changes between runs;
        # a check compares with the recording, which catches that anyway.
        second = first if check else run_once(script)[0]
    except Exception as e:  # a rejected script: report it, keep going
        return "error", str(e)
    if first != second:
        return "error", "two runs of bash differ (time, PID or random output?)"
    if check:
        if old is None:
            return "drift", "no expectation recorded"
        if old != first:
            return "drift", first_difference(old, first)
        return "ok", ""
    if old != first:
        with open(path, "wb") as f:
            f.write(first)
        return "written", ""
    return "ok", ""


def first_difference(old, new):
    a, b = old.decode(errors="replace").split("\n"), new.decode(errors="replace").split("\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "line %d: recorded %r, bash now %r" % (i + 1, x, y)
    return "recorded %d lines, bash now %d" % (len(a), len(b))


def main(argv):
    check, jobs, names = False, os.cpu_count() or 2, []
    while argv:
        a = argv.pop(0)
        if a == "--check":
            check = True
        elif a == "-j":
            jobs = int(argv.pop(0))
        elif a in ("-h", "--help"):
            print("usage: scripts/shell-corpus-record.sh [--check] [-j N] [NAME...]")
            return 0
        else:
            names.append(a)
    all_names = sorted(n[:-3] for n in os.listdir(SCRIPTS) if n.endswith(".sh"))
    if names:
        chosen = []
        for n in names:
            n = os.path.basename(n)
            n = n[:-3] if n.endswith(".sh") else n[:-4] if n.endswith(".out") else n
            hits = [x for x in all_names if x == n or x.startswith(n + "-")]
            if not hits:
                print("no such script: %s" % n, file=sys.stderr)
                return 2
            chosen += hits
    else:
        chosen = all_names
        os.makedirs(EXPECTED, exist_ok=True)
        if not check:  # expectations of deleted scripts go too
            for f in os.listdir(EXPECTED):
                if f.endswith(".out") and f[:-4] not in all_names:
                    os.remove(os.path.join(EXPECTED, f))
                    print("removed %s (no script)" % f)
    os.makedirs(EXPECTED, exist_ok=True)
    start = time.time()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda n: (n, process(n, check)), chosen))
    counts = {}
    for name, (status, detail) in results:
        counts[status] = counts.get(status, 0) + 1
        if status != "ok":
            print("%-8s %s%s" % (status, name, ": " + detail if detail else ""))
    summary = ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items()))
    print("%s: %d scripts (%s) in %.1fs" % ("check" if check else "record", len(chosen), summary,
                                            time.time() - start))
    return 1 if counts.get("error") or counts.get("drift") else 0


sys.exit(main(sys.argv[1:]))
PY
