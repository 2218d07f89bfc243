#!/bin/sh
# Writes the Swift source of SoundClass (its cases, `index` and `descriptor`) from
# classes/classes.tsv, the one list of somniq's classes, at OUT. The build runs it
# (Plugins/EmbedData) into its own directory: the source is never checked in.
#
#   scripts/embed-classes.sh OUT
set -eu
out=$1
cd "$(dirname "$0")/.."
awk -v what=swift -f scripts/classes.awk classes/classes.tsv > "$out.tmp"
mv "$out.tmp" "$out"
