#!/bin/sh
# Writes the Swift source that carries the built-in profiles (profiles/*.json) into the
# binary byte for byte, at OUT. The build runs it (Plugins/EmbedData) into its own
# directory: the source is never checked in, profiles/*.json are the one copy.
#
#   scripts/embed-profiles.sh OUT
set -eu
out=$1
cd "$(dirname "$0")/.."
{
    echo "// Generated at build time by scripts/embed-profiles.sh from profiles/*.json. Do not edit."
    echo
    echo "extension Profile {"
    echo "    /// The JSON text of each built-in profile, mildest to most eager."
    echo "    public static let builtinTexts: [(name: String, text: String)] = ["
    for name in very_conservative conservative balanced sensitive very_sensitive; do
        printf '        ("%s", #"""\n' "$name"
        cat "profiles/$name.json"
        echo
        printf '"""#),\n'
    done
    echo "    ]"
    echo "}"
} > "$out.tmp"
mv "$out.tmp" "$out"
