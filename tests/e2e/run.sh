#!/usr/bin/env bash
# End-to-end test under a real systemd: boots systemd as PID 1 in a PID+mount namespace, installs
# the shipped units (with a drop-in pointing ExecStart at the freshly built static binary), and
# proves socket activation, READY=1, journal fields, reload (broken, then fixed), watchdog restart,
# state across restarts, and a clean stop. Cleans up (poweroff) even when a step fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${NOTIFYD_RELEASE_DIR:-$root/.build/release}
for b in notifyd notifyctl; do
    [ -x "$bin/$b" ] || { echo "e2e: $bin/$b missing (make release)"; exit 1; }
done
command -v unshare >/dev/null && command -v nsenter >/dev/null || { echo "e2e: needs unshare and nsenter"; exit 1; }

# The socket's group, as `make install` creates it.
systemd-sysusers "$root/systemd/notifyd.sysusers"

# Staged outside /tmp, /run and /var/tmp (hidden in the namespace) and outside /root (ProtectHome).
stage=$(mktemp -d /opt/notifyd-e2e.XXXXXX)
chmod 755 "$stage"
mkdir -p "$stage/bin" "$stage/units"
cp "$bin/notifyd" "$bin/notifyctl" "$stage/bin/"
cp "$root/config/shop.yaml" "$stage/notifyd.yaml"
cp "$root/examples/payloads/apns-offer.json" "$stage/"
cp "$root/systemd/notifyd.socket" "$root/systemd/notifyd.service" "$stage/units/"
chmod -R a+rX "$stage"
cat > "$stage/units/e2e.conf" <<CONF
[Service]
ExecStart=
ExecStart=$stage/bin/notifyd --config $stage/notifyd.yaml --log-target journal
WatchdogSec=3s
RestartSec=100ms
CONF

pass=0
fail=0
check() { # check NAME COMMAND...: runs the command, counts and prints the result
    local name=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
        echo "  ok    $name"
    else
        fail=$((fail + 1))
        echo "  FAIL  $name"
    fi
}

# setsid: no controlling terminal, so systemd's console set-up cannot stop this script's process group.
setsid --wait unshare --pid --fork --mount --mount-proc --propagation private "$root/tests/e2e/boot-systemd.sh" \
    "$stage" </dev/null >"$stage/boot.log" 2>&1 &
unshare_pid=$!
pid1=""
cleanup() {
    if [ -n "$pid1" ]; then
        nsenter -t "$pid1" -m -p systemctl poweroff >/dev/null 2>&1 || true
        for _ in $(seq 1 100); do kill -0 "$unshare_pid" 2>/dev/null || break; sleep 0.1; done
    fi
    kill -9 "$unshare_pid" 2>/dev/null || true
    wait "$unshare_pid" 2>/dev/null || true
    rm -rf "$stage"
}
trap cleanup EXIT

find_systemd() { # the descendant of $1 that runs systemd (setsid may or may not have forked)
    local child
    for child in $(pgrep -P "$1"); do
        case "$(readlink "/proc/$child/exe")" in
            */systemd/systemd) echo "$child"; return ;;
        esac
        find_systemd "$child"
    done
}
for _ in $(seq 1 100); do
    pid1=$(find_systemd "$unshare_pid" | head -n 1)
    [ -n "$pid1" ] && break
    sleep 0.1
done
[ -n "$pid1" ] || { echo "e2e: systemd did not start"; cat "$stage/boot.log"; exit 1; }
ns() { nsenter -t "$pid1" -m -p "$@"; }
state=""
for _ in $(seq 1 300); do
    state=$(ns systemctl is-system-running 2>/dev/null)
    case "$state" in running | degraded) break ;; esac
    sleep 0.1
done
echo "e2e: systemd is up in its namespace (host pid $pid1, state $state)"

sock=/run/notifyd/notifyd.sock
ctl() { ns "$stage/bin/notifyctl" --socket "$sock" "$@"; }
prop() { ns systemctl show -P "$1" notifyd.service; }
answers() { # answers COMMAND... PATTERN: notifyctl --json COMMAND prints something matching PATTERN
    local pattern=${*: -1}
    ctl --json "${@:1:$#-1}" | grep -q -- "$pattern"
}
journal_has() { # journal_has MESSAGE_ID PYTHON-CONDITION: a notifyd entry with that id satisfies the condition
    # Entries reach journald asynchronously (the daemon's writer thread, then journald): look again for up to 5 s.
    local attempt
    for attempt in $(seq 50); do
        ns journalctl -o json --no-pager "MESSAGE_ID=$1" | python3 -c "
import json, sys
entries = [json.loads(line) for line in sys.stdin if line.strip()]
sys.exit(0 if any($2 for e in entries) else 1)" && return 0
        sleep 0.1
    done
    return 1
}

ns systemctl daemon-reload
check "socket unit starts" ns systemctl start notifyd.socket
check "service waits for its first client" test "$(prop ActiveState)" = inactive

reply=$(ctl --json --device e2e-1 send "$stage/apns-offer.json")
check "first connection starts the service and gets a decision" \
    python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(d['page']['id'] != 'cart.offer')" "$reply"
check "service is active (running) through READY=1" test "$(prop ActiveState)/$(prop SubState)" = active/running
status_text=$(prop StatusText)
check "STATUS= is kept current" test "${status_text#serving}" != "$status_text"
decision_id=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['id'])" "$reply" 2>/dev/null)
decision_made=$(ns "$stage/bin/notifyd" --print-message-id decisionMade 2>/dev/null || true)
check "the decision is in the journal with its fields" journal_has "$decision_made" \
    "e.get('NOTIFYD_DECISION_ID') == '$decision_id' and e.get('NOTIFYD_DEVICE') == 'e2e-1' and e.get('NOTIFYD_OUTCOME') == 'routed' and e.get('NOTIFYD_PAGE', '').startswith('cart.offer') and e.get('NOTIFYD_PATH') == 'app/main/cart' and e.get('NOTIFYD_SOURCE') == 'apns:deeplink' and 'CODE_FILE' in e and 'CODE_LINE' in e"

cp "$stage/notifyd.yaml" "$stage/good.yaml"
sed -i '0,/kind: stack/s//kind: stackk/' "$stage/notifyd.yaml"
ns systemctl reload notifyd.service
check "reload with a broken config keeps serving" answers resolve shop://offers/AFTER cart.offer
config_rejected=$(ns "$stage/bin/notifyd" --print-message-id configRejected 2>/dev/null || true)
check "the rejection is journaled with the finding" journal_has "$config_rejected" "'stackk' in e.get('MESSAGE', '')"
generation() { ctl --json stats | python3 -c "import json,sys; sys.exit(json.load(sys.stdin)['stats']['configGeneration'] != $1)"; }
check "still generation 1" generation 1

sed 's#/offers/{id}#/deals/{id}#' "$stage/good.yaml" > "$stage/notifyd.yaml"
ns systemctl reload notifyd.service
check "a fixed config is picked up" answers resolve shop://deals/NEW cart.offer
check "generation 2" generation 2

ns systemctl restart notifyd.service
check "device state survives a restart" answers state e2e-1 SUMMER

old_pid=$(prop MainPID)
restarts=$(prop NRestarts)
# (kill -STOP 0 would stop this script's own process group)
[ "${old_pid:-0}" -gt 1 ] && ns kill -STOP "$old_pid"
new_pid=$old_pid
for _ in $(seq 1 300); do
    new_pid=$(prop MainPID)
    [ "$new_pid" != "$old_pid" ] && [ "$new_pid" != 0 ] && [ "$(prop ActiveState)" = active ] && break
    sleep 0.1
done
check "a stopped watchdog gets the service restarted" test "$new_pid" != "$old_pid" -a "$(prop NRestarts)" -gt "$restarts"
check "and it serves again" answers state e2e-1 SUMMER

ns systemctl stop notifyd.service notifyd.socket
check "stop is clean" test "$(prop Result)/$(prop ExecMainStatus)" = success/0
stopping=$(ns "$stage/bin/notifyd" --print-message-id stopping 2>/dev/null || true)
check "stopping is journaled" journal_has "$stopping" "True"

if [ "$fail" -gt 0 ]; then
    ns systemctl status --no-pager notifyd.socket notifyd.service
    ns journalctl --no-pager -n 60 -u notifyd.socket -u notifyd.service
fi
echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
