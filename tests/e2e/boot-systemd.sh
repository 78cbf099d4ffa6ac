#!/usr/bin/env bash
# PID 1 of the end-to-end test's namespace: hides the host's /run, /tmp and /var/tmp behind
# tmpfs (booting systemd runs systemd-tmpfiles, which would otherwise empty the shared /tmp),
# masks the tmpfiles units, installs the units under test, then becomes systemd.
# Run as: unshare --pid --fork --mount --mount-proc --propagation private boot-systemd.sh STAGE
set -eu
stage=$1
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /var/tmp
mkdir -p /run/systemd/system
for unit in systemd-tmpfiles-setup.service systemd-tmpfiles-setup-dev.service systemd-tmpfiles-clean.timer; do
    ln -s /dev/null "/run/systemd/system/$unit"
done
cp "$stage/units/notifyd.socket" "$stage/units/notifyd.service" /run/systemd/system/
mkdir -p /run/systemd/system/notifyd.service.d
cp "$stage/units/e2e.conf" /run/systemd/system/notifyd.service.d/e2e.conf
exec /lib/systemd/systemd --system --log-target=kmsg --show-status=false
