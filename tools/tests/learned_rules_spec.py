"""docs/learned-rules.md, the learned rules' file format, as a checker: what the page's
table and its digest section say, statement by statement. The tests read the page's
example, the trainer's writer's output and rules/learned.txt with it; somniq's reader
(LearnedRulesText.swift) is tested on the page's example and on the writer's output
(fixtures/learned-rules/, LearnedRulesTrainerTests.swift)."""
import hashlib
import math
import re

BANDS = 32          # the first layer takes the mel bands
MAX_DEPTH = 8


class FormatError(Exception):
    def __init__(self, line, problem):
        super().__init__(f"line {line}: {problem}")


def number(word, line, what):
    try:
        x = float(word)
    except ValueError:
        raise FormatError(line, f"{what}: {word!r} is not a number")
    if not math.isfinite(x):
        raise FormatError(line, f"{what}: {word!r} is not finite")
    return x


def check(text, candidates):
    """The file's classes ({class: (ships, cutoff, figures, trees)}), header ([(key, value)]),
    inputs (count, digest) and network ((classes, [(in, out, kernel, dilation, pool)])) or
    None; raises FormatError naming the line where the text leaves the format."""
    raw = text.split("\n")
    lines = [(i + 1, l[:-1] if l.endswith("\r") else l) for i, l in enumerate(raw)]
    statements = [(n, l) for n, l in lines if l.strip() and not l.startswith("#")]
    if not statements or statements[0][1] != "somniq-learned-rules 1":
        raise FormatError(statements[0][0] if statements else 0, "the first statement is not `somniq-learned-rules 1`")
    inputs, header, classes, network = None, [], {}, None
    current, stack, layers, head = None, [], [], False
    for n, l in statements[1:]:
        w = l.split(" ")
        if w[0] == "inputs":
            if inputs or classes or header or len(w) != 3 or not w[1].isdigit() or not re.fullmatch("[0-9a-f]{64}", w[2]):
                raise FormatError(n, "`inputs COUNT SHA256`, once, before the meta and class lines")
            inputs = (int(w[1]), w[2])
        elif w[0] == "meta":
            if inputs is None or classes or len(w) < 2 or "=" not in w[1]:
                raise FormatError(n, "`meta KEY=VALUE`, after inputs, before the classes")
            key, _, value = l[len("meta "):].partition("=")
            header.append((key, value))
        elif w[0] == "class":
            if inputs is None or network is not None or stack:
                raise FormatError(n, "a class after the inputs, before the network, after a complete tree")
            if len(w) < 4 or w[1] not in candidates or w[1] in classes or w[2] not in ("ship", "hand") \
                    or not w[3].startswith("cutoff="):
                raise FormatError(n, "`class CLASS ship|hand cutoff=NUMBER KEY=VALUE …`, a candidate class, once")
            figures = [tuple(x.split("=", 1)) for x in w[4:]]
            if any(len(f) != 2 for f in figures):
                raise FormatError(n, "a class's figures are KEY=VALUE")
            current = w[1]
            classes[current] = (w[2] == "ship", number(w[3][len("cutoff="):], n, "cutoff"), figures, 0)
        elif w[0] == "tree":
            if current is None or network is not None or stack or len(w) != 1:
                raise FormatError(n, "`tree` inside a class, after the tree before it is complete")
            ships, cutoff, figures, trees = classes[current]
            classes[current] = (ships, cutoff, figures, trees + 1)
            stack = [0]                                  # the depth of the node expected next
        elif w[0] in ("s", "l"):
            if not stack:
                raise FormatError(n, f"`{w[0]}` outside a tree")
            depth = stack.pop()
            if w[0] == "s":
                if len(w) != 4 or not w[1]:
                    raise FormatError(n, "`s INPUT THRESHOLD VALUE`")
                number(w[2], n, "threshold")
                number(w[3], n, "value")
                if depth + 1 > MAX_DEPTH:
                    raise FormatError(n, f"a tree deeper than {MAX_DEPTH} splits")
                stack += [depth + 1, depth + 1]          # preorder: the left child comes next
            else:
                if len(w) != 2:
                    raise FormatError(n, "`l VALUE`")
                number(w[1], n, "leaf")
        elif w[0] == "network":
            if network is not None or stack or not classes or len(w) != 2 or not w[1].startswith("classes="):
                raise FormatError(n, "`network classes=CLASS,…`, once, after the last class")
            named = w[1][len("classes="):].split(",")
            if not all(c in candidates for c in named):
                raise FormatError(n, "a network class that is not a candidate")
            network = (named, layers)
        elif w[0] == "conv":
            if network is None or head or len(w) < 6:
                raise FormatError(n, "`conv IN OUT KERNEL DILATION POOL W… B…` after the network line, before the head")
            i, o, k, d, pool = (int(x) for x in w[1:6])
            if i != (layers[-1][1] if layers else BANDS) or len(w) - 6 != o * i * k + o:
                raise FormatError(n, "a layer takes the one before's outputs (the first: 32 bands), with OUT·IN·KERNEL"
                                     " weights and OUT biases")
            [number(x, n, "weight") for x in w[6:]]
            layers.append((i, o, k, d, pool))
        elif w[0] == "head":
            if network is None or not layers or head:
                raise FormatError(n, "`head W… B…` once, after the layers")
            count = len(network[0])
            if len(w) - 1 != count * 2 * layers[-1][1] + count:
                raise FormatError(n, "the head has classes·2·channels weights and a bias per class")
            [number(x, n, "weight") for x in w[1:]]
            head = True
        else:
            raise FormatError(n, f"unknown statement {w[0]!r}")
    if stack:
        raise FormatError(len(raw), "the last tree is not complete")
    if inputs is None:
        raise FormatError(len(raw), "no inputs line")
    if network is not None and not head:
        raise FormatError(len(raw), "a network without its head")
    digest = dict(header).get("body_sha256")
    if digest is not None and digest != body_sha256(text):
        raise FormatError(0, "body_sha256 is not the digest of the lines from the first class line")
    return classes, header, inputs, network


def body_sha256(text):
    """The digest section: the lines from the first `class` line to the end, each ended by
    `\\n`, a `\\r` before it and blank lines at the end left out."""
    lines = [l[:-1] if l.endswith("\r") else l for l in text.split("\n")]
    first = next(i for i, l in enumerate(lines) if l.startswith("class "))
    body = lines[first:]
    while body and not body[-1].strip():
        body.pop()
    return hashlib.sha256("".join(l + "\n" for l in body).encode()).hexdigest()
