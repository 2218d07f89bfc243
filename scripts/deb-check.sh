#!/bin/bash
# Installs the Debian package on this machine and checks it from the installed files only,
# then removes and purges it (`make deb-check`, which builds it first; CI runs it):
#
#   scripts/deb-check.sh somniq_VERSION_ARCH.deb
#
# lintian finds no error or warning in it; apt-get installs it with its dependencies; the
# binary needs nothing under /opt/swift; `systemd-analyze verify` is silent on the unit,
# which is installed disabled; config.json is a conffile; the man page and completions are
# where man and the shells look; `somniq replay` of the demo night in /usr/share/somniq
# prints its 9 events (8 alerts), run with a PATH of /usr/bin and /bin only; the shipped config and
# profile are valid; `apt-get remove` leaves /etc/somniq and /var/lib/somniq, and
# `apt-get purge` leaves nothing.
#
# It changes the system: it refuses to run where somniq is installed already, except in CI
# (CI=true), where that is what an earlier run left when it was stopped.
set -uo pipefail
deb=${1:?usage: scripts/deb-check.sh somniq_VERSION_ARCH.deb}
[[ -f $deb ]] || { echo "deb-check: no $deb (make deb)" >&2; exit 2; }
if dpkg-query -W -f '${Status}' somniq 2>/dev/null | grep -q installed && [[ -z ${CI:-} ]]; then
    echo "deb-check: the somniq package is installed here; remove it first (apt-get purge somniq)" >&2
    exit 2
fi
SUDO=$([[ $(id -u) -eq 0 ]] || echo sudo)
apt() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get "$@" -y -qq -o Dpkg::Use-Pty=0 >/dev/null; }
unit=/usr/lib/systemd/system/somniq.service
passed=0 failed=0
check() {   # check NAME COMMAND...: runs the command; its output is shown when it fails
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        passed=$((passed + 1)); echo "ok    $name"
    else
        failed=$((failed + 1)); echo "FAIL  $name"; [[ -n $out ]] && sed 's/^/      /' <<<"$out"
    fi
}
# The state systemd would leave while the service ran (DynamicUser=yes, StateDirectory=):
# the log in /var/lib/private/somniq (/var/lib/private is systemd's, mode 0700), and a link
# to it. A /var/lib/private made here is removed at the end if it is empty.
made_private=
state() {
    [[ -d /var/lib/private ]] || { $SUDO install -d -m 0700 /var/lib/private && made_private=1; }
    $SUDO install -d /var/lib/private/somniq && echo '{}' | $SUDO tee /var/lib/private/somniq/events.jsonl >/dev/null &&
        $SUDO ln -sfn private/somniq /var/lib/somniq
}
trap 'apt purge somniq 2>/dev/null; [[ -n $made_private ]] && $SUDO rmdir /var/lib/private 2>/dev/null; true' EXIT

start=$SECONDS
check "lintian: no error or warning" lintian --fail-on error,warning "$deb"
check "apt-get install ./$(basename "$deb")" apt install "$(realpath "$deb")"
check "nothing needs the Swift toolchain" bash -c '! ldd /usr/bin/somniq | grep -E "/opt/swift|not found"'
check "systemd-analyze verify is silent" bash -c \
    "out=\$(systemd-analyze verify $unit 2>&1) && [[ -z \$out ]] || { echo \"\$out\"; false; }"
check "the unit runs /usr/bin/somniq" grep -qx 'ExecStart=/usr/bin/somniq run --config /etc/somniq/config.json' $unit
check "the unit is installed disabled" bash -c '[[ $(systemctl is-enabled somniq.service 2>&1) == disabled ]]'
check "/etc/somniq/config.json is a conffile" bash -c \
    "dpkg-query -W -f '\${Conffiles}' somniq | grep -q '^ /etc/somniq/config.json '"
check "man finds the page" bash -c '[[ $(man -w somniq) == /usr/share/man/man1/somniq.1.gz ]]'
check "completions for bash, zsh and fish" test -s /usr/share/bash-completion/completions/somniq \
    -a -s /usr/share/zsh/vendor-completions/_somniq -a -s /usr/share/fish/vendor_completions.d/somniq.fish
replay=$(cd / && env -i PATH=/usr/bin:/bin somniq replay /usr/share/somniq/demo-night.flac 2>&1)
echo "$replay" | sed 's/^/      /'
check "the demo night's 9 events, 8 alerts" bash -c '
    head -1 <<<"$1" | grep -q "9 events, 8 alerts" &&
    [[ $(awk "NR > 2 { print \$3 }" <<<"$1" | tr "\n" " ") == "snoring door speech cough speech dog_bark baby_cry smoke_alarm snoring " ]]' _ "$replay"
check "the shipped config and profile are valid" \
    somniq run --config /etc/somniq/config.json --device null --check-config
state
check "apt-get remove keeps the configuration and the log" bash -c \
    "$(declare -f apt); SUDO=$SUDO; apt remove somniq && [[ ! -e /usr/bin/somniq && ! -e $unit && -f /etc/somniq/config.json && -f /var/lib/somniq/events.jsonl ]]"
check "apt-get purge leaves nothing" bash -c \
    "$(declare -f apt); SUDO=$SUDO; apt purge somniq && ! dpkg-query -W somniq 2>/dev/null && [[ ! -e /etc/somniq && ! -e /var/lib/somniq && ! -e /var/lib/private/somniq ]]"
echo "deb-check: $passed passed, $failed failed ($((SECONDS - start)) s)"
[[ $failed -eq 0 ]]
