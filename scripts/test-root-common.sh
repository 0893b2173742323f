# shellcheck shell=bash
# test-root-common.sh: a Debian root for the checks that need a real systemd as PID 1
# (check-systemd-boot, check-deb): Debian 12, or the release TEST_ROOT_DIST names
# (trixie for check-deb --dist trixie), for amd64, or the architecture TEST_ROOT_ARCH
# names (arm64 for scripts/vm --arch arm64: debootstrap's second stage then runs through
# qemu-user-static's binfmt handler). Sourced, not run; the caller has set -euo pipefail.
#
# The root is built once with debootstrap and kept in $ORIENTD_TEST_CACHE (default
# /var/cache/orientd-tests), one directory per package list; a check boots a copy of it
# and never changes the cache.

TEST_ROOT_CACHE=${ORIENTD_TEST_CACHE:-/var/cache/orientd-tests}
TEST_ROOT_DIST=${TEST_ROOT_DIST:-bookworm}
TEST_ROOT_ARCH=${TEST_ROOT_ARCH:-amd64}
# What the unit and orientd need to run, and umockdev to give it a sensor.
TEST_ROOT_PACKAGES=systemd,systemd-sysv,dbus,libiio0,libudev1,libevdev2,acl,umockdev,procps,passwd
test_root_me=${0##*/}

# Prints the cached root's directory, built first if it is not there. Packages given as
# arguments are added to TEST_ROOT_PACKAGES, in a root of their own.
test_root_base() {
    local packages=$TEST_ROOT_PACKAGES p base arch='' test_root_lock
    for p in "$@"; do packages+=",$p"; done
    # The architecture is in the name only when it is not amd64: amd64 roots keep theirs.
    [ "$TEST_ROOT_ARCH" = amd64 ] || arch="$TEST_ROOT_ARCH-"
    base="$TEST_ROOT_CACHE/$TEST_ROOT_DIST-$arch$(printf %s "$packages" | sha256sum | cut -c1-12)"
    # Two checks that need the same root at once wait for each other, not race. The
    # lock lives in the cache, which a fresh machine does not have yet.
    mkdir -p "$TEST_ROOT_CACHE"
    exec {test_root_lock}>"$base.lock"
    flock "$test_root_lock"
    if [ ! -e "$base/.complete" ]; then
        echo "== building the $TEST_ROOT_DIST $TEST_ROOT_ARCH root (once; cached in $base)" >&2
        rm -rf "$base.tmp"
        if ! debootstrap --variant=minbase --arch="$TEST_ROOT_ARCH" --include="$packages" "$TEST_ROOT_DIST" "$base.tmp" \
            http://deb.debian.org/debian >"$base.log" 2>&1; then
            echo "$test_root_me: debootstrap failed; see $base.log" >&2
            exec {test_root_lock}>&-
            return 1
        fi
        touch "$base.tmp/.complete"
        rm -rf "$base"
        mv "$base.tmp" "$base"
    fi
    exec {test_root_lock}>&-
    printf '%s\n' "$base"
}

# Boots ROOT (a copy) as machine NAME with systemd as PID 1 and waits until it has
# booted. Sets test_root_nspawn (systemd-nspawn's process) and test_root_init (the
# container's PID 1, as seen from here); test_root_shutdown ends it.
test_root_nspawn=
test_root_init=
test_root_boot() {
    local root=$1 machine=$2 child state=
    SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 systemd-nspawn -q -D "$root" -M "$machine" -b --register=no --keep-unit \
        --console=read-only >"$root.console" 2>&1 </dev/null &
    test_root_nspawn=$!
    for _ in $(seq 100); do
        # PID 1 inside is the only process named systemd whose parent is nspawn's.
        for child in $(pgrep -P "$test_root_nspawn" 2>/dev/null); do
            [ "$(cat "/proc/$child/comm" 2>/dev/null)" = systemd ] && test_root_init=$child
        done
        [ -n "$test_root_init" ] && break
        sleep 0.1
    done
    if [ -z "$test_root_init" ]; then
        cat "$root.console" >&2
        echo "$test_root_me: systemd did not start in the container" >&2
        return 1
    fi
    for _ in $(seq 300); do
        state=$(test_root_inside systemctl is-system-running 2>/dev/null || true)
        case $state in running | degraded) break ;; esac
        sleep 0.2
    done
    case $state in
    running | degraded) rm -f "$root.console" ;;
    *)
        echo "$test_root_me: the container did not finish booting: '$state' (console: $root.console)" >&2
        return 1
        ;;
    esac
}

# Runs a command in the booted container, as root, with a clean environment.
test_root_inside() {
    nsenter --target "$test_root_init" --mount --uts --ipc --net --pid --cgroup --root -w \
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

test_root_shutdown() {
    if [ -n "$test_root_nspawn" ] && kill -0 "$test_root_nspawn" 2>/dev/null; then
        kill -TERM "$test_root_nspawn" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$test_root_nspawn" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$test_root_nspawn" 2>/dev/null || true
    fi
    test_root_nspawn=
}
