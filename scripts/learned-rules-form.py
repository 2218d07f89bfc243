#!/usr/bin/env python3
"""Writes rules/learned.txt (the trainer's text, the one copy) as the Swift source of its
binary form, LearnedRules.builtinForm: the trees' nodes and the network's weights as the
bits of their Floats, so that somniq reads no text at start (LearnedRules(form:)).

The build runs it (Plugins/EmbedData, with python3: no tool is built for the host, so the
fuzz build's sanitizer flags never reach one) into its own directory; the source is never
checked in. Its numbers are those the text's own reader gives (LearnedRules(text:)): a
split's threshold the largest Float at or below the word's Double (strtod), every other
number the word's Float (strtof), both correctly rounded. Python's float() is strtod's
Double; a Float is that Double rounded once more, which is strtof's own unless the Double
falls exactly on a midpoint between two Floats: there the word itself decides, exactly
(fractions). A test (LearnedRulesTests) holds the form equal to the text's rules, bit for
bit. A file this does not understand fails the build with its line.

    scripts/learned-rules-form.py RULES OUT
"""
import math
import os
import re
import struct
import sys
from fractions import Fraction

NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


def fail(message):
    sys.stderr.write(f"learned-rules-form: {message}\n")
    sys.exit(1)


def bits32(x):
    """The bits of the Float nearest the Double x (ties to even)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def value32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def next_up32(b):
    """The bits of the next Float up from the finite Float of bits b."""
    if b == 0x80000000:
        return 1
    return b - 1 if b & 0x80000000 else b + 1


def next_down32(b):
    if b == 0:
        return 0x80000001
    return b + 1 if b & 0x80000000 else b - 1


def float32(word, bad):
    """strtof(word): the Float nearest the decimal, correctly rounded."""
    if not NUMBER.match(word):
        bad(f"'{word}' is not a number")
    d = float(word)
    b = bits32(d) if math.isfinite(d) and abs(d) < 3.4028235677973366e38 else None
    if b is None or not math.isfinite(value32(b)):
        bad(f"'{word}' is not a number")
    lo, hi = (b, next_up32(b)) if value32(b) <= d else (next_down32(b), b)
    if value32(lo) < d < value32(hi) and Fraction(value32(lo)) + Fraction(value32(hi)) == 2 * Fraction(d):
        # The Double is a midpoint between two Floats: the decimal itself is on one side of it (or on it).
        x, m = Fraction(word), Fraction(d)
        if x != m:
            b = lo if x < m else hi
    return b


def at_or_below32(word, bad):
    """The largest Float at or below strtod(word)."""
    if not NUMBER.match(word):
        bad(f"'{word}' is not a number")
    d = float(word)
    if not math.isfinite(d) or abs(d) >= 3.4028235677973366e38:
        bad(f"'{word}' is not a number")
    b = bits32(d)
    if value32(b) > d:
        b = next_down32(b)
    return b


def literal(s):
    """A Swift string literal of s."""
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def hex32(x):
    return "0x%08X" % (x & 0xFFFFFFFF)


def main():
    if len(sys.argv) != 3:
        fail("usage: learned-rules-form.py RULES OUT")
    path, out_path = sys.argv[1], sys.argv[2]
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    except OSError as e:
        fail(f"cannot open {path}: {e.strerror}")

    inputs = None
    header = []
    classes = []  # [name, ships, cutoff bits, figures, nodes, trees]
    names, name_index = [], {}
    nodes = []  # [feature (-1: a leaf), right (-1: none), threshold bits, value bits]
    roots = []
    class_start = 0
    open_ = []  # [node, right_next]
    network_classes = None
    layers = []
    weights = []

    for k, raw in enumerate(text.split("\n")):
        line = raw[:-1] if raw.endswith("\r") else raw

        def bad(what, k=k):
            fail(f"{path}, line {k + 1}: {what}")

        def pairs(words):
            out = []
            for w in words:
                eq = w.find("=")
                if eq <= 0:
                    bad(f"'{w}' is not key=value")
                out.append((w[:eq], w[eq + 1:]))
            return out

        if not line or line.startswith("#"):
            continue
        words = [w for w in line.split(" ") if w]
        if not words:
            continue
        head = words[0]
        if head == "somniq-learned-rules":
            if len(words) != 2 or words[1] != "1":
                bad("not format 1 of learned rules")
        elif head == "inputs":
            if len(words) != 3:
                bad("'inputs COUNT SHA256'")
            inputs = (words[1], words[2])
        elif head == "meta":
            header += pairs(words[1:])
        elif head == "class":
            if len(words) < 3 or words[2] not in ("ship", "hand"):
                bad("'class NAME ship|hand ...'")
            figures = pairs(words[3:])
            cut = next((v for key, v in figures if key == "cutoff"), None)
            if cut is None:
                bad("no cutoff")
            classes.append([words[1], words[2] == "ship", float32(cut, bad),
                            [(key, v) for key, v in figures if key != "cutoff"], 0, 0])
            class_start = len(nodes)
        elif head == "tree":
            if not classes or open_:
                bad("a tree outside a class, or before the one before it is complete")
            roots.append(len(nodes) - class_start)
            classes[-1][5] += 1
        elif head in ("s", "l"):
            if not classes:
                bad("a node outside a class")
            if open_ and open_[-1][1]:
                nodes[open_[-1][0]][1] = len(nodes) - class_start
                open_[-1][1] = False
            if head == "s":
                if len(words) != 4:
                    bad("a split is 's INPUT THRESHOLD VALUE'")
                f = name_index.get(words[1])
                if f is None:
                    names.append(words[1])
                    f = name_index[words[1]] = len(names) - 1
                nodes.append([f, -1, at_or_below32(words[2], bad), float32(words[3], bad)])
                open_.append([len(nodes) - 1, False])
            else:
                if len(words) != 2:
                    bad("a leaf is 'l VALUE'")
                nodes.append([-1, -1, 0, float32(words[1], bad)])
                # A leaf completes a subtree, and with it every split whose right subtree it was.
                while open_:
                    top = open_[-1]
                    if not top[1] and nodes[top[0]][1] == -1:
                        top[1] = True
                        break
                    open_.pop()
            classes[-1][4] += 1
        elif head == "network":
            listed = next((v for key, v in pairs(words[1:]) if key == "classes"), None)
            if listed is None:
                bad("'network classes=...'")
            network_classes = [c for c in listed.split(",") if c]
        elif head == "conv":
            shape = []
            for w in words[1:6]:
                if not re.fullmatch(r"[+-]?[0-9]+", w):
                    break
                shape.append(int(w))
            if len(shape) != 5 or len(words) != 6 + shape[1] * shape[0] * shape[2] + shape[1]:
                bad("a layer's shape and its numbers differ")
            layers.append(shape)
            weights += [float32(w, bad) for w in words[6:]]
        elif head == "head":
            weights += [float32(w, bad) for w in words[1:]]
        else:
            bad(f"unknown line '{head}'")
    if open_:
        fail(f"{path}: its last tree is incomplete")
    if inputs is None and text.strip():
        fail(f"{path}: no 'inputs' line: not a file of learned rules")

    out = ["// Generated at build time by scripts/learned-rules-form.py (Plugins/EmbedData) from rules/learned.txt. Do not edit.\n",
           "\n", "extension LearnedRules {\n"]
    if inputs is not None:
        def pair_list(ps):
            return "[" + ", ".join(f"({literal(a)}, {literal(b)})" for a, b in ps) + "]"

        out.append("    /// rules/learned.txt as the build read it (`Form`).\n")
        out.append("    static let builtinForm: Form? = Form(\n")
        out.append(f"        inputs: {inputs[0]}, inputsDigest: {literal(inputs[1])},\n")
        out.append(f"        header: {pair_list(header)},\n")
        out.append("        classes: [\n")
        for name, ships, cutoff, figures, n, t in classes:
            out.append(f"            Form.Class(name: {literal(name)}, ships: {'true' if ships else 'false'}, "
                       f"cutoff: {hex32(cutoff)}, nodes: {n}, trees: {t},\n")
            out.append(f"                       figures: {pair_list(figures)}),\n")
        out.append("        ],\n")
        out.append("        names: [" + ", ".join(literal(n) for n in names) + "],\n")
        out.append("        networkClasses: " + ("nil" if network_classes is None else
                                                  "[" + ", ".join(literal(c) for c in network_classes) + "]") + ",\n")
        out.append("        layers: [" + ", ".join("[" + ", ".join(str(x) for x in s) + "]" for s in layers) + "],\n")
        out.append("        nodes: builtinFormNodes, roots: builtinFormRoots, weights: builtinFormWeights)\n\n")

        def words_of(name, values):
            out.append(f"    static let {name}: [UInt32] = [\n")
            for i in range(0, len(values), 8):
                out.append("        " + ", ".join(values[i:i + 8]) + ",\n")
            out.append("    ]\n")

        words_of("builtinFormNodes", [hex32(x) for n in nodes for x in n])
        words_of("builtinFormRoots", [str(r) for r in roots])
        words_of("builtinFormWeights", [hex32(w) for w in weights])
    else:
        out.append("    /// rules/learned.txt is empty: no built-in rules.\n")
        out.append("    static let builtinForm: Form? = nil\n")
    out.append("}\n")

    tmp = out_path + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("".join(out))
        os.replace(tmp, out_path)
    except OSError as e:
        fail(f"cannot write {out_path}: {e.strerror}")


main()
