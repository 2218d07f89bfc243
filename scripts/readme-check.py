#!/usr/bin/env python3
"""make readme-check: re-runs the commands the README and the guides show and fails on a difference.

Every fenced block with `$ ` lines is a terminal session: each command runs in bash, in
order, and what it prints (standard output and error, as a terminal shows them) must be
the lines under it. An HTML comment on the line before a block says more:

    <!-- check: setup CMD -->   run CMD first, unseen (make the files the block uses)
    <!-- check: run CMD -->     the block, which shows no prompt, is the output of CMD
    <!-- check: skip REASON --> not run here; the reason is printed
    <!-- check: prefix CMD -->  each command runs as `CMD command` (setpriv, to run as
                                another user), unseen
    <!-- check: needs corpus --> the block uses the sound corpus (../shared/corpus): run
                                when the corpus is there, else not run, with a note

In expected output, a line `…` stands for any number of lines, and a line ending in `…`
for any line that starts with what comes before it. Wall-clock times and live session ids
and episode ids are compared as placeholders. `$?` is the exit status of the block's previous command.
A command that runs longer than five minutes is a difference: it hung (the longest, nine
debug-build replays of check/ scenes, takes about 30 s on an idle machine and took over a
minute under a CI run's load). Blocks run in a scratch directory (with `fixtures`,
`profiles` and `config` linked in and `../shared/corpus` beside it: the corpus given by
`--corpus`, by default the one beside the clone, when it is there), with the `somniq` being
checked first on PATH and an ALSA `pcm.fixture` in ~/.asoundrc (docs/behaviour.md#testing-without-a-sound-card).

Given no file, it checks README.md and then every docs/*.md, in the order the README's
sections had before they became guides (GUIDES; any other guide after them, by name). All
the files share one scratch directory, in that order, as the sections did in one README: a
guide's block may use a file an earlier guide's block made. Given files, it checks those,
in the order given, in one scratch directory.

    scripts/readme-check.py [--somniq PATH] [--corpus DIR] [--update] [FILE.md ...]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

DIRECTIVE = re.compile(r"<!--\s*check:\s*(setup|run|skip|prefix|needs)\s+(.*?)\s*-->")
# What a `needs` directive may name.
NEEDS = {"corpus"}
PLACEHOLDERS = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?"), "<time>"),
    (re.compile(r"\bs\d{6,}-e"), "s<session>-e"),
    (re.compile(r"\bep-\d+-[0-9a-f]{8}\b"), "ep-<id>"),
]
# Seconds a command may run before it counts as hung (the module docstring says why five minutes).
TIMEOUT = 300
# The guides in the order their sections stood in the README.
GUIDES = ["replay-and-tuning.md", "service.md", "alerts.md", "event-log.md", "reports.md", "web.md",
          "profiles.md", "evaluation.md", "ARCHITECTURE.md", "benchmarks.md", "testing.md"]
ASOUNDRC = """pcm.fixture {
    @args [ FILE ]
    @args.FILE { type string }
    type file
    slave.pcm "null"
    file "/dev/null"
    infile $FILE
    format "raw"
}
"""


def blocks(lines):
    """(line number of the fence, directives, body lines) of every fenced block."""
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            directives = []
            j = i - 1
            while j >= 0 and DIRECTIVE.search(lines[j]):
                directives.insert(0, DIRECTIVE.search(lines[j]).groups())
                j -= 1
            end = i + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            yield i + 1, directives, lines[i + 1:end]
            i = end + 1
        else:
            i += 1


def normalise(line):
    for pattern, placeholder in PLACEHOLDERS:
        line = pattern.sub(placeholder, line)
    return line.rstrip()


def matches(expected, actual):
    """Whether the actual lines fit the expected ones, with `…` wildcards."""
    expected = [normalise(l) for l in expected]
    actual = [normalise(l) for l in actual]

    def fit(e, a):
        if e == len(expected):
            return a == len(actual)
        line = expected[e]
        if line == "…":
            return any(fit(e + 1, k) for k in range(a, len(actual) + 1))
        if a == len(actual):
            return False
        if line.endswith("…") and actual[a].startswith(line[:-1].rstrip()):
            return fit(e + 1, a + 1)
        return line == actual[a] and fit(e + 1, a + 1)

    return fit(0, 0)


def session(body, first):
    """The commands of a block (whose first line is README line index `first`), and for
    each the output shown under it and where that output starts."""
    steps = []
    for k, line in enumerate(body):
        if line.startswith("$ "):
            steps.append([line[2:], [], first + k + 1])
        elif steps and line.startswith("> ") and not steps[-1][1]:
            steps[-1][0] += "\n" + line[2:]              # a multi-line command, as bash prompts it
            steps[-1][2] = first + k + 1
        elif steps:
            steps[-1][1].append(line)
    return steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--somniq", default=os.path.join(here, ".build/release/somniq"))
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(here), "shared", "corpus"),
                        help="the sound corpus the blocks marked `needs corpus` use (default: "
                             "../shared/corpus beside the clone); where there is none, they are not run")
    parser.add_argument("--update", action="store_true",
                        help="write today's output into the README where it differs (not under a `…`)")
    parser.add_argument("files", nargs="*", metavar="FILE.md",
                        help="the files to check (default: README.md and every docs/*.md)")
    args = parser.parse_args()
    files = args.files
    if not files:
        docs = [os.path.basename(f) for f in glob.glob(os.path.join(here, "docs", "*.md"))]
        docs = [g for g in GUIDES if g in docs] + sorted(g for g in docs if g not in GUIDES)
        files = [os.path.join(here, "README.md")] + [os.path.join(here, "docs", g) for g in docs]
    somniq = os.path.abspath(args.somniq)
    if not os.access(somniq, os.X_OK):
        sys.exit(f"readme-check: no somniq at {somniq}; build it first (make build)")

    scratch = tempfile.mkdtemp(prefix="somniq-readme-")
    work = os.path.join(scratch, "main")
    home = os.path.join(scratch, "home")
    bindir = os.path.join(scratch, "bin")
    for d in (work, home, bindir):
        os.makedirs(d)
    # Readable by the user a `prefix` may run a block as.
    for d in (scratch, work, home, bindir):
        os.chmod(d, 0o755)
    for name in ("fixtures", "profiles", "config", "schemas"):
        if os.path.exists(os.path.join(here, name)):
            os.symlink(os.path.join(here, name), os.path.join(work, name))
    # ../shared/corpus, as the guides name it, is the corpus given.
    corpus = os.path.abspath(args.corpus)
    have = set()
    os.makedirs(os.path.join(scratch, "shared"))
    os.chmod(os.path.join(scratch, "shared"), 0o755)
    if os.path.isdir(corpus):
        os.symlink(corpus, os.path.join(scratch, "shared", "corpus"))
        have.add("corpus")
    else:
        print(f"readme-check: no corpus at {corpus}: the blocks that need it are not run")
    os.symlink(somniq, os.path.join(bindir, "somniq"))
    with open(os.path.join(home, ".asoundrc"), "w") as f:
        f.write(ASOUNDRC)
    env = dict(os.environ, HOME=home, PATH=bindir + ":" + os.environ.get("PATH", ""), LC_ALL="C.UTF-8",
               TZ="UTC", COLUMNS="200")
    env.pop("CI", None)

    def bash(command, setup=False, status=0):
        try:
            r = subprocess.run(["bash", "-c", f"(exit {status}); {command}"], cwd=work, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired as e:
            out = (e.output or b"").decode("utf-8", "replace")
            return out.split("\n")[:-1] + [f"(still running after {TIMEOUT} s: stopped)"], -1
        out = r.stdout.decode("utf-8", "replace")
        if setup and r.returncode != 0:
            sys.exit(f"readme-check: a setup failed (exit {r.returncode}): {command}\n{out}")
        return (out.split("\n")[:-1] if out else []), r.returncode

    checked = failed = 0
    skipped = []
    written = []
    for path in files:
        c, f, s, w = check(path, bash, args.update, have, corpus)
        checked, failed = checked + c, failed + f
        skipped += s
        written += w
    shutil.rmtree(scratch, ignore_errors=True)
    for name, count in written:
        print(f"readme-check: wrote today's output for {count} commands into {name}")
    for name, number, reason in skipped:
        print(f"{name}:{number}: not run here: {reason}")
    print(f"readme-check: {checked} commands, {failed} differ, {len(skipped)} blocks not run")
    sys.exit(1 if failed else 0)


def check(path, bash, update, have, corpus):
    """Runs the blocks of one file; (commands checked, commands that differ, blocks not run,
    files written)."""
    name = os.path.relpath(os.path.abspath(path), os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    lines = open(path, encoding="utf-8").read().split("\n")
    checked = failed = 0
    skipped = []
    updates = []
    for number, directives, body in blocks(lines):
        kinds = {k for k, _ in directives}
        if "skip" in kinds:
            skipped.append((name, number, next(v for k, v in directives if k == "skip")))
            continue
        needs = {v for k, v in directives if k == "needs"}
        if needs - NEEDS:
            sys.exit(f"readme-check: {name}:{number}: `needs` names {', '.join(sorted(needs - NEEDS))}; "
                     f"it knows {', '.join(sorted(NEEDS))}")
        if needs - have:
            skipped.append((name, number, f"needs the corpus, and there is none at {corpus}"))
            continue
        for kind, value in directives:
            if kind == "setup":
                bash("set -e\n" + value, setup=True)
        prefix = " ".join(v for k, v in directives if k == "prefix")
        steps = [[v, body, number] for k, v in directives if k == "run"] or session(body, number)
        status = 0
        for command, expected, at in steps:
            actual, status = bash(f"{prefix} {command}" if prefix and not command.startswith("echo ") else command,
                                  status=status)
            checked += 1
            if not matches(expected, actual):
                failed += 1
                print(f"{name}:{number}: `{command.splitlines()[0]}` printed something else:")
                print(f"  --- {name}")
                for l in expected:
                    print("  " + l)
                print("  --- now")
                for l in actual:
                    print("  " + l)
                if update and "…" not in expected:
                    updates.append((at, at + len(expected), actual))
    written = []
    if updates:
        for start, end, actual in sorted(updates, reverse=True):
            lines[start:end] = actual
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        written.append((name, len(updates)))
    return checked, failed, skipped, written


if __name__ == "__main__":
    main()
