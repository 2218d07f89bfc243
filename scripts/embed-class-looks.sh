#!/bin/sh
# Writes the Swift source of a class's colour and words (`Palette.swatch`, `EventWords.name`,
# `one` and `sensor`) from classes/classes.tsv, the one list of somniq's classes, at OUT. The build
# runs it (Plugins/EmbedData, for SomniqReports) into its own directory: the source is never
# checked in.
#
#   scripts/embed-class-looks.sh OUT
set -eu
out=$1
cd "$(dirname "$0")/.."
awk -v what=looks -f scripts/classes.awk classes/classes.tsv > "$out.tmp"
mv "$out.tmp" "$out"
