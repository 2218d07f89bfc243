#!/usr/bin/env bash
# Regenerates docs/man/somniq.1, the manual page, from the command definitions with
# swift-argument-parser's generate-manual plugin.
#
#   scripts/man.sh            rewrite docs/man/somniq.1 if the commands' help changed
#   scripts/man.sh --check    only say whether it is current (exit 1 if not)
#
# The plugin builds the package first. It is told to use the debug build, which `make test`
# has just made, so that it builds nothing more and leaves the release binary (linked with
# --static-swift-stdlib by `make build`) alone. The page's date (.Dd) is left out of the
# comparison and changes only with the text, so the page does not go stale with the calendar.
# Blank lines (paragraph breaks in a command's discussion) become .Pp, mdoc's paragraph
# macro, so that man renders the page without warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
page=docs/man/somniq.1
generated=.build/plugins/GenerateManual/outputs/somniq/somniq.1

"$swift" package generate-manual --configuration debug >/dev/null
sed -i 's/^$/.Pp/' "$generated"

# generate-manual drops every character outside ASCII from the text it is given.
if non_ascii=$(.build/debug/somniq --experimental-dump-help | LC_ALL=C grep -o -P '.{0,30}[^\x00-\x7F]+.{0,10}'); then
    echo "scripts/man.sh: help text outside ASCII would be lost from the manual page; write it in ASCII:" >&2
    echo "$non_ascii" >&2
    exit 1
fi

body() { grep -v '^\.Dd ' "$1"; }
if [ -f "$page" ] && cmp -s <(body "$page") <(body "$generated"); then
    [ "${1:-}" = --check ] || echo "$page is current"
    exit 0
fi
if [ "${1:-}" = --check ]; then
    echo "$page is out of date: run \`make man\` and commit it" >&2
    diff -u "$page" "$generated" | grep -v '^[-+]\.Dd ' | head -40 >&2 || true
    exit 1
fi
cp "$generated" "$page"
echo "wrote $page"
