# shellcheck shell=bash
# debian-roots.sh: the Debian roots that orientd is built in for other releases and
# architectures (scripts/build-dist), made once with mmdebstrap from Debian's registry
# and kept in $ORIENTD_TEST_CACHE (default /var/cache/orientd-tests) beside the test
# roots, and a way to run a command in one. Sourced after set -euo pipefail, not run;
# needs root (chroot and bind mounts).

DEBIAN_ROOTS_CACHE=${ORIENTD_TEST_CACHE:-/var/cache/orientd-tests}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
debian_roots_me=${0##*/}
debian_roots_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# debian_root SUITE ARCHITECTURES PACKAGES [SETUP]: prints the directory of a minbase
# root of SUITE (architectures comma-separated, the first native) with PACKAGES
# (comma-separated, arch-qualified where foreign), built first if it is not cached.
# SETUP, if given, is a shell script run inside the new root once, before it is marked
# complete. The cache key is all four: a changed list or setup is a new root.
debian_root() {
    local suite=$1 arches=$2 packages=$3 setup=${4:-} key base status
    key=$(printf '%s\n' "$suite" "$arches" "$packages" "$setup" | sha256sum | cut -c1-12)
    base="$DEBIAN_ROOTS_CACHE/root-$suite-${arches//,/+}-$key"
    mkdir -p "$DEBIAN_ROOTS_CACHE"
    # Two builds at once (make deb for two targets) wait for each other, not race.
    exec {lock}>"$base.lock"
    flock "$lock"
    if [ ! -e "$base/.complete" ]; then
        command -v mmdebstrap >/dev/null || {
            echo "$debian_roots_me: mmdebstrap is missing (scripts/install-dependencies --dist installs it)" >&2
            return 69
        }
        echo "== building the $suite root for $arches (once; cached in $base)" >&2
        rm -rf "$base.tmp"
        # sid's Release file may be older than its Valid-Until on a mirror's snapshot.
        status=0
        mmdebstrap --variant=minbase --architectures="$arches" --include="$packages" \
            --aptopt='Acquire::Check-Valid-Until "false"' "$suite" "$base.tmp" "$DEBIAN_MIRROR" \
            >"$base.log" 2>&1 || status=$?
        if [ "$status" -eq 0 ] && [ -n "$setup" ]; then
            in_root "$base.tmp" -- bash -euo pipefail -c "$setup" >>"$base.log" 2>&1 || status=$?
        fi
        if [ "$status" -ne 0 ]; then
            echo "$debian_roots_me: building the $suite root failed; the end of $base.log:" >&2
            tail -n 15 "$base.log" >&2
            rm -rf "$base.tmp"
            return 1
        fi
        touch "$base.tmp/.complete"
        rm -rf "$base"
        mv "$base.tmp" "$base"
    fi
    exec {lock}>&-
    printf '%s\n' "$base"
}

# in_root ROOT [SOURCE:TARGET ...] -- COMMAND...: runs COMMAND in ROOT as root, in a
# mount namespace of its own (nothing is left mounted when it ends), with /proc, /dev
# and /sys, this repository at its own path, the Swift package mirror and git's
# configuration for it (/etc/gitconfig maps github.com to the mirror), and each SOURCE
# bound at TARGET. The environment is clean but for PATH, HOME and LANG.
in_root() {
    local root=$1
    shift
    local binds=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        binds+=("$1")
        shift
    done
    [ "${1:-}" = -- ] || { echo "$debian_roots_me: in_root ROOT [SOURCE:TARGET ...] -- COMMAND" >&2; return 64; }
    shift
    [ -e /etc/gitconfig ] && cp /etc/gitconfig "$root/etc/gitconfig"
    binds+=("$debian_roots_repo:$debian_roots_repo")
    [ -d /opt/swift-packages ] && binds+=(/opt/swift-packages:/opt/swift-packages)
    unshare --mount --propagation private bash -euo pipefail -c '
        root=$1
        shift
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mount --rbind /sys "$root/sys"
        while [ "$1" != -- ]; do
            mkdir -p "$root${1#*:}"
            mount --bind "${1%%:*}" "$root${1#*:}"
            shift
        done
        shift
        exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
    ' in_root "$root" "${binds[@]}" -- "$@"
}

# trixie_build_root: prints the Debian 13 build root (built first if need be): what the
# build and the package need, for amd64 and for arm64 (multiarch: the arm64 libraries
# are also the cross build's sysroot), lintian, and what /opt/swift's own programs link
# (curl, xml2, sqlite, ncurses); umockdev's headers for arm64 only (the test bundle is
# built for arm64; the amd64 and arm64 packages conflict); udev for systemd's hwdb,
# which the tests read. scripts/build-dist builds in it, check-deb lints with it.
trixie_build_root() {
    local packages=build-essential,debhelper,dpkg-dev,lintian,pkgconf,systemd-dev,make,jq,git,mandoc
    packages+=,libiio-dev,libudev-dev,libevdev-dev,libcurl4,libxml2,libsqlite3-0,libncurses6
    packages+=,libiio-dev:arm64,libudev-dev:arm64,libevdev-dev:arm64,libc6-dev:arm64,libgcc-14-dev:arm64
    packages+=,libstdc++-14-dev:arm64,binutils-aarch64-linux-gnu,libumockdev-dev:arm64,udev
    debian_root trixie amd64,arm64 "$packages"
}

# i2c_stub_root KERNEL_RELEASE: prints a Debian 13 root (built first if need be) that
# holds i2c-stub.ko built for that arm64 kernel (6.12.117+deb13-arm64) at
# /usr/src/i2c-stub/i2c-stub.ko. Debian 13's arm64 kernel is built without i2c-stub
# (CONFIG_I2C_STUB unset), so the I2C chips' real drivers (which are built) had no bus to
# bind to on the arm64 guest: this is the kernel's own i2c-stub.c, from Debian's
# linux-source package of the same release, cross-built against that kernel's headers
# (their arm64 package needs the native gcc-14:arm64, which conflicts with the cross
# compiler, so it is unpacked, not installed; its tools are the amd64 linux-kbuild's).
# The module is unsigned: the kernel loads it, tainted, as Secure Boot is off in qemu.
i2c_stub_root() {
    local release=$1 version
    version=${release%-arm64}
    [ "$version" != "$release" ] || { echo "$debian_roots_me: i2c_stub_root: not an arm64 kernel release: $release" >&2; return 64; }
    local packages=gcc-14-aarch64-linux-gnu,make,dwarves,xz-utils,linux-kbuild-$version,linux-headers-$version-common
    # linux-source-6.12 is the source of the kernel in that release; its version is the
    # kernel's but for the ABI suffix (6.12.117+deb13 → linux-source-6.12 6.12.117-1).
    local setup="
        cd /tmp
        apt-get update -qq
        apt-get download -qq linux-headers-$version-arm64:arm64 linux-source-${version%.*}
        dpkg -x linux-headers-$version-arm64_*_arm64.deb /
        mkdir -p /usr/src/i2c-stub
        dpkg-deb --fsys-tarfile linux-source-*.deb | tar -xO ./usr/src/linux-source-${version%.*}.tar.xz \
            | tar -xJO linux-source-${version%.*}/drivers/i2c/i2c-stub.c > /usr/src/i2c-stub/i2c-stub.c
        rm -f ./*.deb
        echo 'obj-m := i2c-stub.o' > /usr/src/i2c-stub/Kbuild
        make -C /usr/src/linux-headers-$version-arm64 M=/usr/src/i2c-stub modules
        test -s /usr/src/i2c-stub/i2c-stub.ko"
    debian_root trixie amd64,arm64 "$packages" "$setup"
}

# trixie_desktop_root: prints the Debian 13 root (built first if need be) that holds the
# compositors and desktop shells of Debian 13, for the rotation scripts' tests: sway,
# labwc, wayfire and phoc (wlroots; wlr-randr and grim read them back), gnome-shell 48
# with gdctl, kwin 6 with kscreen-doctor, Phosh on phoc, and iio-sensor-proxy with
# umockdev to give it a sensor, as a desktop's own rotation runs beside orientd. Only
# what each names: Recommends are left out, as in every root here.
trixie_desktop_root() {
    local packages=dbus,dbus-daemon,dbus-user-session,systemd,procps,util-linux,python3,python3-gi,libglib2.0-bin
    packages+=,sway,labwc,wayfire,phoc,phosh,wlr-randr,grim,wayland-utils,libgl1-mesa-dri,libegl-mesa0
    packages+=,gnome-shell,mutter-common-bin,gnome-settings-daemon-common,gsettings-desktop-schemas
    packages+=,kwin-wayland,libkscreen-bin,qt6-wayland,iio-sensor-proxy,umockdev
    # Phosh's logind (python-dbusmock's), and the libraries the test build of orientd
    # needs to run there as a client of the session.
    packages+=,python3-dbusmock,libiio0,libevdev2
    debian_root trixie amd64 "$packages"
}

# trixie_gpu_guest_root: prints the Debian 13 root (built first if need be) that the
# desktop guest boots (Tests/Fixtures/screen/desktop-guest): Debian 13's kernel and
# systemd, the compositors that need a DRM device (wayfire 0.9, Hyprland 0.55 from
# trixie-backports, sway 1.10 on it too), seatd for their seat, and what the tests use
# in the guest: swaybg (the marker picture as the background), wev (where a touch
# lands), python3-evdev (a uinput touchscreen), jq. A user of uid 1000 (wayfire refuses root) in video, input and render.
# For the desktops that turn only a built-in panel: gnome-shell 48 (gdctl) in a logind
# session (libpam-systemd, dbus-user-session), kwin 6 (kscreen-doctor), iio-sensor-proxy
# with polkitd beside them as Debian 13 installs them, umockdev for its accelerometer,
# gcc with libdrm's headers to build the guest's built-in-panel preload, and for the
# test build of orientd there libiio0, with i2c-tools to make its accelerometer. Plasma
# Mobile's Auto-rotate quick setting: its own QML plugin, taken from Debian 13's
# plasma-mobile package (the whole shell would pull 1.8 GB of dependencies into a 4 GB
# image), with qml-qt6 that orientd-rotate-kde runs it with (and the QtQml module it
# imports, which plasma-mobile depends on).
trixie_gpu_guest_root() {
    local packages=linux-image-amd64,initramfs-tools,systemd-sysv,udev,kmod,dbus,procps,util-linux,seatd
    packages+=,sway,wayfire,swaybg,wlr-randr,grim,wev,python3-evdev,jq,libgl1-mesa-dri,libegl-mesa0,libgbm1
    packages+=,gnome-shell,mutter-common-bin,gnome-settings-daemon-common,gsettings-desktop-schemas,libglib2.0-bin
    packages+=,libpam-systemd,dbus-user-session,kwin-wayland,libkscreen-bin,qt6-wayland
    packages+=,iio-sensor-proxy,polkitd,umockdev,gcc,libc6-dev,libdrm-dev,libiio0,i2c-tools,qml-qt6,qml6-module-qtqml
    local qml=/usr/lib/x86_64-linux-gnu/qt6/qml/org/kde/plasma/quicksetting
    local setup="
        echo 'deb http://deb.debian.org/debian trixie-backports main' > /etc/apt/sources.list.d/backports.list
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -t trixie-backports hyprland
        cd /tmp && apt-get download -qq plasma-mobile && dpkg-deb -x plasma-mobile_*.deb plasma-mobile
        mkdir -p $qml && cp -a plasma-mobile$qml/screenrotation $qml/ && rm -rf plasma-mobile plasma-mobile_*.deb && cd /
        test -e $qml/screenrotation/libscreenrotationplugin.so
        rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
        useradd -m -u 1000 -G video,input,render user
        passwd -d root
        echo orientd-desktop > /etc/hostname
        # At the end of the boot: the host's 9p share mounted, its run script run (its
        # output in the share and on the console), the guest powered off.
        printf '%s\\n' '#!/bin/sh' 'exec >/dev/ttyS0 2>&1' 'modprobe 9pnet_virtio; modprobe 9p; mkdir -p /share' \
            'mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share /share' \
            '/share/run >/share/log 2>&1; echo \$? >/share/status; cat /share/log' 'sync; systemctl poweroff --no-block' \
            > /usr/local/sbin/orientd-desktop-guest
        chmod 755 /usr/local/sbin/orientd-desktop-guest
        printf '%s\\n' '[Unit]' 'After=systemd-udev-trigger.service systemd-udevd.service dbus.service seatd.service' \
            '[Service]' 'Type=oneshot' 'ExecStart=/usr/local/sbin/orientd-desktop-guest' 'TimeoutStartSec=infinity' \
            'StandardInput=null' '[Install]' 'WantedBy=multi-user.target' \
            > /etc/systemd/system/orientd-desktop-guest.service
        systemctl enable seatd.service orientd-desktop-guest.service
        systemctl mask serial-getty@ttyS0.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
            e2scrub_reap.service fstrim.timer systemd-timesyncd.service
        test -x /usr/bin/Hyprland"
    debian_root trixie amd64 "$packages" "$setup"
}
