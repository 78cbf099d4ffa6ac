#!/usr/bin/env bash
# PID 1 of the end-to-end test's namespace. Hides the host's /run, /tmp and /var/tmp behind tmpfs (booting
# systemd runs systemd-tmpfiles, which would otherwise empty the shared /tmp) and masks the tmpfiles units.
# The host's /etc and /var/lib are seen through overlays whose writes stay in this namespace, and the state
# directories and the persistent journal start empty: the checks see this run's state and entries only, and the
# run leaves nothing on the host. notifyd is installed as `make install` would: the binaries in /usr/local/bin,
# the manuals and documents in /usr/local/share, the config in /etc/notifyd, the notifyd group by systemd-sysusers,
# so the shipped ExecStart runs unchanged.
# Then it becomes systemd.
# Run as: unshare --pid --fork --mount --mount-proc --propagation private boot-systemd.sh STAGE
set -eu
stage=$1
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /var/tmp

overlay() { # overlay DIR: DIR as the host has it, with every change kept in this namespace's /run
    local changes=/run/e2e-overlay$1
    mkdir -p "$changes/upper" "$changes/work"
    mount -t overlay overlay -o "lowerdir=$1,upperdir=$changes/upper,workdir=$changes/work" "$1"
}
overlay /etc
overlay /var/lib
# DynamicUser= services keep their state in /var/lib/private (/var/lib/notifyd links there).
mkdir -p /var/lib/private
mount -t tmpfs -o mode=0700 tmpfs /var/lib/private
# journald writes a persistent journal only where /var/log/journal exists; then it starts empty.
if [ -d /var/log/journal ]; then
    mount -t tmpfs -o mode=2755 tmpfs /var/log/journal
fi

mount --bind "$stage/bin" /usr/local/bin
# The manuals and documents as `make install-docs` staged them (the units name them: systemd-analyze verify looks).
overlay /usr/local/share
cp -R "$stage/root/usr/local/share/." /usr/local/share/
mkdir -p /etc/notifyd
mount --bind "$stage/etc" /etc/notifyd
systemd-sysusers "$stage/units/notifyd.sysusers"

mkdir -p /run/systemd/system
for unit in systemd-tmpfiles-setup.service systemd-tmpfiles-setup-dev.service systemd-tmpfiles-clean.timer; do
    ln -s /dev/null "/run/systemd/system/$unit"
done
cp "$stage/units/notifyd.socket" "$stage/units/notifyd.service" "$stage/units/notifyd@.socket" \
    "$stage/units/notifyd@.service" /run/systemd/system/
mkdir -p /run/systemd/system/notifyd.service.d
cp "$stage/units/e2e.conf" /run/systemd/system/notifyd.service.d/e2e.conf
exec /lib/systemd/systemd --system --log-target=kmsg --show-status=false
