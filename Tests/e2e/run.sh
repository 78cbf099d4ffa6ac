#!/usr/bin/env bash
# End-to-end test under a real systemd: boots systemd as PID 1 in a PID+mount namespace, installs the
# freshly built static binaries, the shipped units, manuals and documents as `make install` would (the shipped
# ExecStart runs unchanged; a drop-in only shortens the watchdog and the restart delay), and proves the units verify
# clean, socket activation, READY=1, journal fields (and the README's journal example), reload (broken, then
# fixed), watchdog restart, state across restarts, every decision of a burst above journald's default rate limit in
# the journal, a clean stop, a start refused for a broken config, and two apps served side by side by the template
# units notifyd@.socket/notifyd@.service. The namespace starts with an empty state directory and journal, and the
# journal checks are scoped to the service invocation they are about. Cleans up (poweroff) even when a step fails;
# the host keeps nothing of the run.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${NOTIFYD_RELEASE_DIR:-$root/.build/release}
for b in notifyd notifyctl notifyd-bench; do
    [ -x "$bin/$b" ] || { echo "e2e: $bin/$b missing (make release)"; exit 1; }
done
command -v unshare >/dev/null && command -v nsenter >/dev/null || { echo "e2e: needs unshare and nsenter"; exit 1; }

# Staged outside /tmp, /run and /var/tmp (hidden in the namespace) and outside /root (ProtectHome).
stage=$(mktemp -d /opt/notifyd-e2e.XXXXXX)
chmod 755 "$stage"
# Mounted in the namespace as /usr/local/bin and /etc/notifyd (see boot-systemd.sh).
mkdir -p "$stage/bin" "$stage/etc" "$stage/units"
cp "$bin/notifyd" "$bin/notifyctl" "$bin/notifyd-bench" "$stage/bin/"
config=$stage/etc/notifyd.yaml
cp "$root/config/shop.yaml" "$config"
cp "$root/examples/payloads/apns-offer.json" "$stage/"
cp "$root/systemd/notifyd.socket" "$root/systemd/notifyd.service" "$root/systemd/notifyd.sysusers" "$stage/units/"
# The manuals and documents, staged by the Makefile's own rule (boot-systemd.sh puts them in /usr/local/share).
make -s -C "$root" install-docs DESTDIR="$stage/root" >/dev/null || { echo "e2e: make install-docs failed"; exit 1; }
cp "$root/systemd/notifyd@.socket" "$root/systemd/notifyd@.service" "$stage/units/"
# The template units' two apps: /etc/notifyd/NAME.yaml each.
cp "$root/config/shop.yaml" "$stage/etc/shop.yaml"
cp "$root/examples/configs/news.yaml" "$stage/etc/news.yaml"
chmod -R a+rX "$stage"
# Only what the test must change: a watchdog and a restart delay short enough to wait for.
cat > "$stage/units/e2e.conf" <<CONF
[Service]
WatchdogSec=3s
RestartSec=100ms
CONF
# A device no earlier run has used.
device="e2e-$$-$(date +%s%N)"

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
setsid --wait unshare --pid --fork --mount --mount-proc --propagation private "$root/Tests/e2e/boot-systemd.sh" \
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
message_id() { ns /usr/local/bin/notifyd --print-message-id "$1" 2>/dev/null || true; }
journal_has() { # journal_has INVOCATION EVENT PYTHON-CONDITION: an entry of that event logged by that invocation
    # of notifyd.service satisfies the condition (`e` is the entry as `journalctl -o json` gives it).
    # Entries reach journald asynchronously (the daemon's writer thread, then journald): look again for up to 5 s.
    local attempt id
    id=$(message_id "$2")
    [ -n "$1" ] && [ -n "$id" ] || return 1
    for attempt in $(seq 50); do
        ns journalctl -o json --no-pager "MESSAGE_ID=$id" "_SYSTEMD_INVOCATION_ID=$1" | python3 -c "
import json, sys
entries = [json.loads(line) for line in sys.stdin if line.strip()]
sys.exit(0 if any($3 for e in entries) else 1)" && return 0
        sleep 0.1
    done
    return 1
}
status_has() { # status_has TEXT...: the service's STATUS= (StatusText) contains every TEXT; waits up to 5 s
    local attempt text missing
    for attempt in $(seq 50); do
        missing=0
        for text in "$@"; do [[ "$(prop StatusText)" == *"$text"* ]] || missing=1; done
        [ "$missing" = 0 ] && return 0
        sleep 0.1
    done
    return 1
}
status_lacks() { # status_lacks TEXT: the service's STATUS= does not contain TEXT (after status_has settled it)
    [[ "$(prop StatusText)" != *"$1"* ]]
}

ns systemctl daemon-reload
units_verify() { # systemd-analyze verify prints nothing for the shipped units (it also runs man on their manuals)
    local out
    out=$(ns systemd-analyze verify /run/systemd/system/notifyd.socket /run/systemd/system/notifyd.service 2>&1) \
        && [ -z "$out" ] || { echo "$out"; return 1; }
}
check "the shipped units verify clean, their manuals installed" units_verify
documents_installed() { # every file:// document the units name is installed
    local unit uri found=0
    for unit in notifyd.socket notifyd.service; do
        for uri in $(ns systemctl show -P Documentation "$unit"); do
            case "$uri" in
                file://*)
                    found=$((found + 1))
                    ns test -s "${uri#file://}" || { echo "missing: $uri"; return 1; }
                    ;;
            esac
        done
    done
    [ "$found" -gt 0 ]
}
check "the documents the units name are installed" documents_installed
check "socket unit starts" ns systemctl start notifyd.socket
check "service waits for its first client" test "$(prop ActiveState)" = inactive

reply=$(ctl --json --device "$device" send "$stage/apns-offer.json")
check "first connection starts the service and gets a decision" \
    python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(d['page']['id'] != 'cart.offer')" "$reply"
check "service is active (running) through READY=1" test "$(prop ActiveState)/$(prop SubState)" = active/running
check "STATUS= is kept current" status_has "serving generation 1"
first_run=$(prop InvocationID)
main_pid=$(prop MainPID)
check "the shipped ExecStart runs, with the state directory systemd made" \
    ns grep -qz -- '^/var/lib/notifyd$' "/proc/$main_pid/cmdline"
store_decisions() {
    ctl --json stats | python3 -c "import json,sys; print(json.load(sys.stdin)['stats']['store']['decisions'])"
}
check "the state store starts empty: it holds this run's decision only" test "$(store_decisions)" = 1
event_loops() {
    ctl --json stats | python3 -c "import json,sys; print(json.load(sys.stdin)['stats']['eventLoops'])"
}
check "the shipped unit serves on two event loops" test "$(event_loops)" = 2
mimalloc_serves() { # the running service mapped mimalloc, and its binary loads it ahead of the C library
    ns grep -q libmimalloc "/proc/$main_pid/maps" || return 1
    LD_TRACE_LOADED_OBJECTS=1 "$stage/bin/notifyd" | python3 -c '
import os, sys
names = [os.path.basename(line.split()[0]) for line in sys.stdin if ".so" in line]
first = lambda prefix: next((i for i, n in enumerate(names) if n.startswith(prefix)), None)
m, c = first("libmimalloc.so"), first("libc.so")
sys.exit(not (m is not None and c is not None and m < c))'
}
check "the release build allocates with mimalloc, linked ahead of the C library" mimalloc_serves
decision_id=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['id'])" "$reply" 2>/dev/null)
fields="e.get('NOTIFYD_DECISION_ID') == '$decision_id' and e.get('NOTIFYD_DEVICE') == '$device'"
fields+=" and e.get('NOTIFYD_OUTCOME') == 'routed' and e.get('NOTIFYD_PAGE', '').startswith('cart.offer')"
fields+=" and e.get('NOTIFYD_PATH') == 'app/main/cart' and e.get('NOTIFYD_SOURCE') == 'apns:deeplink'"
fields+=" and e.get('NOTIFYD_LINK') == 'shop://offers/SUMMER' and e.get('NOTIFYD_PEER_UID') == '0'"
fields+=" and e.get('CODE_FILE') == 'NotifyDaemon/RouterService+Recording.swift' and e.get('CODE_LINE', '').isdigit()"
fields+=" and e.get('CODE_FUNC', '').startswith('countAndJournal')"
check "the decision is in the journal with its fields" journal_has "$first_run" decisionMade "$fields"
ctl --device ipad-7 send "$stage/apns-offer.json" >/dev/null
check "the README's journal example prints what the README shows" \
    python3 "$root/Tests/integration/readme_blocks.py" run-e2e nsenter -t "$pid1" -m -p
check "the start is journaled with the config loaded" journal_has "$first_run" configLoaded \
    "'(generation 1,' in e.get('MESSAGE', '') and e.get('NOTIFYD_CONFIG') == '/etc/notifyd/notifyd.yaml'"

cp "$config" "$stage/good.yaml"
sed -i '0,/kind: stack/s//kind: stackk/' "$config"
# ExecReload= only sends SIGHUP, so systemctl succeeds whatever the config holds: the daemon answers RELOADING=1
# then READY=1 either way, and says in the journal and in STATUS= that it kept the loaded config.
ns systemctl reload notifyd.service
check "systemctl reload with a broken config exits 0 (ExecReload only signals)" test $? = 0
check "reload with a broken config keeps serving" answers resolve shop://offers/AFTER cart.offer
check "the rejection is journaled with the finding" journal_has "$first_run" configRejected \
    "'stackk' in e.get('MESSAGE', '') and 'stackk' in e.get('NOTIFYD_REASON', '')"
check "STATUS= says generation 1 is kept and the reload was rejected" \
    status_has "serving generation 1" "last reload rejected (1 problem)"
generation() {
    ctl --json stats | python3 -c "import json,sys; sys.exit(json.load(sys.stdin)['stats']['configGeneration'] != $1)"
}
check "still generation 1" generation 1

sed 's#/offers/{id}#/deals/{id}#' "$stage/good.yaml" > "$config"
ns systemctl reload notifyd.service
check "a fixed config is picked up" answers resolve shop://deals/NEW cart.offer
check "generation 2" generation 2
check "STATUS= says generation 2" status_has "serving generation 2"
check "and no longer mentions the rejected reload" status_lacks "rejected ("
check "the reload is journaled" journal_has "$first_run" configLoaded "'(generation 2,' in e.get('MESSAGE', '')"

ns systemctl restart notifyd.service
check "device state survives a restart" answers state "$device" SUMMER

old_pid=$(prop MainPID)
restarts=$(prop NRestarts)
# (a SIGSTOP sent to process group 0 would also halt this script)
[ "${old_pid:-0}" -gt 1 ] && ns kill -STOP "$old_pid"
new_pid=$old_pid
for _ in $(seq 1 300); do
    new_pid=$(prop MainPID)
    [ "$new_pid" != "$old_pid" ] && [ "$new_pid" != 0 ] && [ "$(prop ActiveState)" = active ] && break
    sleep 0.1
done
check "a stopped watchdog gets the service restarted" test "$new_pid" != "$old_pid" -a "$(prop NRestarts)" -gt "$restarts"
check "and it serves again" answers state "$device" SUMMER

last_run=$(prop InvocationID)
# A burst above journald's default rate limit for a service (10,000 entries in 30 s, scaled up by the free space):
# every decision notifyd journals reaches the journal. The entries notifyd's own queue had no room for (journald
# behind) are counted by GetStats, which the bench reads before and after.
decision_entries() { # the decisionMade entries of invocation $1
    ns journalctl -o json --no-pager "MESSAGE_ID=$(message_id decisionMade)" "_SYSTEMD_INVOCATION_ID=$1" | wc -l
}
burst=60000
entries_before=$(decision_entries "$last_run")
# Four connections: the main loop and the lane each answer two of them.
figures=$(ns "$stage/bin/notifyd-bench" daemon --socket "$sock" --mix resolve --connections 4 --depth 4 \
    --requests "$burst" --json)
echo "e2e: the burst: $figures"
queue_dropped=$(python3 -c "import json,sys; d=json.loads(sys.argv[1]); print(d['journalDropped'])" "$figures")
check "a burst of $burst decisions is answered" \
    python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(d['replies'] != $burst or d['errors'])" "$figures"
# The connection's peer is systemd, which made the socket: the bench measures the pid GetStats gives.
check "the bench measured notifyd's CPU, not systemd's" \
    python3 -c "import json,sys; sys.exit(not json.loads(sys.argv[1])['serverCPUSeconds'] > 0.2)" "$figures"
journaled=$((entries_before + burst - ${queue_dropped:-$burst}))
# Entries reach the journal after the replies: count until all are there, or until the count has not grown for
# three seconds.
entries=0
unchanged=0
for _ in $(seq 1 60); do
    previous=$entries
    entries=$(decision_entries "$last_run")
    [ "$entries" -ge "$journaled" ] && break
    if [ "$entries" = "$previous" ]; then unchanged=$((unchanged + 1)); else unchanged=0; fi
    [ "$unchanged" -ge 3 ] && break
    sleep 1
done
check "journald keeps every decision entry notifyd sent ($entries of $journaled; notifyd's queue dropped $queue_dropped)" \
    test "$entries" = "$journaled"
ns systemctl stop notifyd.service notifyd.socket
check "stop is clean" test "$(prop Result)/$(prop ExecMainStatus)" = success/0
check "stopping is journaled" journal_has "$last_run" stopping "'signal 15' in e.get('MESSAGE', '')"
check "the database was closed cleanly (no write-ahead log left)" \
    ns test ! -e /var/lib/private/notifyd/notifyd.sqlite-wal

sed -i '0,/kind: stack/s//kind: stackk/' "$config"
ns systemctl start notifyd.service 2>/dev/null
# The refused start is retried (Restart=on-failure, RestartSec=100ms) until the start limit: read the unit once
# it has settled, not while a retry is running (its exit status then reads 0).
for _ in $(seq 1 100); do
    case "$(prop ActiveState)" in failed | inactive) break ;; esac
    sleep 0.1
done
failed_run=$(prop InvocationID)
check "a broken config refuses the start" test "$(prop ActiveState)/$(prop ExecMainStatus)" = failed/1
check "the refused start is journaled under its own id" journal_has "$failed_run" startFailed \
    "'is invalid (1 problem)' in e.get('MESSAGE', '')"
check "with the finding as config rejected" journal_has "$failed_run" configRejected \
    "'notifyd cannot start' in e.get('MESSAGE', '') and 'stackk' in e.get('MESSAGE', '')"
ns systemctl stop notifyd.service notifyd.socket
cp "$stage/good.yaml" "$config"

# Several apps on one host: notifyd@shop and notifyd@news, each with its config, socket, state directory and user.
app() { ns "$stage/bin/notifyctl" --app "$@"; }
app_prop() { ns systemctl show -P "$2" "notifyd@$1.service"; }
check "the template sockets of two apps start" ns systemctl start notifyd@shop.socket notifyd@news.socket
check "each app's socket is /run/notifyd/NAME.sock" ns test -S /run/notifyd/shop.sock -a -S /run/notifyd/news.sock
page_of() { python3 -c "import json,sys; print(json.load(sys.stdin)['page']['id'])"; }
check "notifyctl --app shop routes with the shop's graph" \
    test "$(app shop --json resolve --device "$device" shop://offers/SUMMER | page_of)" = cart.offer
check "notifyctl --app news routes with the news graph" \
    test "$(app news --json resolve --device "$device" news://articles/42 | page_of)" = feed.article
# A foreign link selects nothing: each app falls back to its own fallback page, the refusal as a warning.
refused_by() { python3 -c "import json,sys; d=json.load(sys.stdin)
print(d['outcome'], d['page']['id'], 'refused' if any(' is refused: ' in w for w in d.get('warnings', [])) else '-')"; }
check "each app refuses the other's links" \
    test "$(app shop --json resolve --dry-run news://articles/42 | refused_by)/$(app news --json resolve --dry-run \
        shop://cart | refused_by)" = "fallback catalog.home refused/fallback feed.front refused"
check "both instances run, each a process of its own" \
    test "$(app_prop shop ActiveState)/$(app_prop news ActiveState)" = active/active \
    -a "$(app_prop shop MainPID)" != "$(app_prop news MainPID)"
uid_of() { ns ps -o uid= -p "$(app_prop "$1" MainPID)" | tr -d ' '; }
check "each instance runs as a dynamic user of its own" test "$(uid_of shop)" != "$(uid_of news)"
reads_its_own() { # the instance's command line names /etc/notifyd/NAME.yaml and /var/lib/notifyd-NAME
    local cmdline
    cmdline=$(ns cat "/proc/$(app_prop "$1" MainPID)/cmdline" | tr '\0' ' ')
    [[ "$cmdline" == *"--config /etc/notifyd/$1.yaml --state-dir /var/lib/notifyd-$1 "* ]]
}
both_read_their_own() { reads_its_own shop && reads_its_own news; }
check "each instance reads /etc/notifyd/NAME.yaml and keeps state in /var/lib/notifyd-NAME" both_read_their_own
stored() { app "$1" --json stats | python3 -c "import json,sys; print(json.load(sys.stdin)['stats']['store']['decisions'])"; }
check "each app's state directory holds its own decision" \
    test "$(stored shop)/$(stored news)" = 1/1 \
    -a "$(ns ls /var/lib/private/notifyd-shop /var/lib/private/notifyd-news | grep -c '^notifyd.sqlite$')" = 2
exposure() { # the overall exposure systemd-analyze security gives a unit
    ns systemd-analyze security --no-pager "$1" 2>/dev/null | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'
}
plain_exposure=$(exposure notifyd.service)
check "notifyd@.service is hardened as notifyd.service is (exposure ${plain_exposure:-?})" \
    test -n "$plain_exposure" -a "$(exposure notifyd@shop.service)" = "$plain_exposure"
prometheus_has() { app "$1" stats --format prometheus | grep -qxF "$2"; }
check "stats --format prometheus labels each app's samples" \
    prometheus_has news 'notifyd_decisions_total{app="news",outcome="routed"} 1'
ns systemctl stop notifyd@shop.service notifyd@shop.socket notifyd@news.service notifyd@news.socket
check "both instances stop cleanly" \
    test "$(app_prop shop Result)/$(app_prop shop ExecMainStatus) $(app_prop news Result)/$(app_prop news ExecMainStatus)" \
    = "success/0 success/0"

if [ "$fail" -gt 0 ]; then
    ns systemctl status --no-pager notifyd.socket notifyd.service notifyd@shop.service notifyd@news.service
    ns journalctl --no-pager -n 60 -u notifyd.socket -u notifyd.service -u notifyd@shop.service -u notifyd@news.service
fi
echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
