#!/bin/sh
# Writes the Swift source that carries rules/learned.txt (written by tools/learn/train.py)
# into the binary byte for byte, at OUT. The build runs it (Plugins/EmbedData) into its own
# directory: the source is never checked in, rules/learned.txt is the one copy.
#
#   scripts/embed-learned-rules.sh OUT
set -eu
out=$1
cd "$(dirname "$0")/.."
{
    echo "// Generated at build time by scripts/embed-learned-rules.sh from rules/learned.txt. Do not edit."
    echo
    echo "extension LearnedRules {"
    echo "    /// The text of rules/learned.txt. Internal: somniq starts from its binary form"
    echo "    /// (BuiltinLearnedRulesForm.swift), so a release build, which nothing else in it reads,"
    echo "    /// leaves its 644 kB out; the tests read it."
    printf '    static let builtinText = #"""\n'
    cat rules/learned.txt
    printf '"""#\n'
    echo "}"
} > "$out.tmp"
mv "$out.tmp" "$out"
