#!/bin/sh
# Writes, from classes/classes.tsv (the one list of somniq's sound classes), the files other
# tools read from the repository and so are checked in: the class enums of the three
# schemas, the class words of the fuzz dictionaries, tools/learn/train.py's CANDIDATES and
# the class tables of docs/profiles.md and docs/behaviour.md. Only those lists change in
# them. The Swift SoundClass is made at build time (scripts/embed-classes.sh).
#
#   scripts/classes.sh           rewrite the files that differ, naming each
#   scripts/classes.sh --check   write nothing; exit 1 naming each file that differs
set -eu
cd "$(dirname "$0")/.."
check=0
case ${1-} in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: scripts/classes.sh [--check]" >&2; exit 2 ;;
esac
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
stale=0
# make WHAT FILE [awk assignments]: FILE as classes.awk writes it.
make() {
    what=$1 file=$2
    shift 2
    awk -v what="$what" "$@" -f scripts/classes.awk classes/classes.tsv "$file" > "$tmp"
    if ! cmp -s "$tmp" "$file"; then
        if [ $check = 1 ]; then
            echo "classes.sh: $file is not what classes/classes.tsv makes of it: run scripts/classes.sh" >&2
            diff -u "$file" "$tmp" >&2 || true
            stale=1
        else
            cat "$tmp" > "$file"
            echo "classes.sh: wrote $file"
        fi
    fi
}
for schema in schemas/config.schema.json schemas/profile.schema.json schemas/event-log.schema.json; do
    make schema "$schema"
done
make dict Fuzz/dict/home.dict
make dict Fuzz/dict/labels.dict
make dict Fuzz/dict/index.dict -v quoted=1
make dict Fuzz/dict/json.dict -v quoted=1
make trainer tools/learn/train.py
make docs docs/profiles.md
make docs docs/behaviour.md -v notes=1
exit $stale
