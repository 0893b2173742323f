"""orientd on a real Linux kernel: Debian under qemu, orientd installed from its .deb.

The guest runs Debian's own kernel (linux-image-ARCH) and modules, systemd as PID 1 with
the real udevd and journal, and orientd installed with `dpkg -i` from the .deb that
`make deb` builds, so its postinst, unit, udev rule and sandbox are the shipped ones.
Commands reach it through qemu-guest-agent; files go both ways through a 9p share.

Which guest is an option before the subcommand, for every subcommand:

    scripts/vm [--dist bookworm|trixie] [--arch amd64|arm64] COMMAND ...

Debian 12 amd64 (the default), Debian 13 amd64, or Debian 13 arm64 (qemu-system-aarch64's
virt machine). One guest runs per state directory: asking for another stops the one that
runs and boots the one asked for.

    scripts/vm image                 build the guest's disk, kernel and initrd (once; cached)
    scripts/vm boot                  boot it and install orientd's .deb (or say it runs)
    scripts/vm run -- CMD ARGS...    run a command in the guest: its output and exit status
    scripts/vm copy-in FILE          put a file in the guest (prints its path there)
    scripts/vm play REC [--poll|--buffered] [--driver NAME] [--no-sensitivity] [--fault KIND@START+SECONDS]... [--status-every S] [-- ORIENTD-OPTIONS...]
                                     play a recording through the guest's kernel
    scripts/vm console [-n N]        the end of the guest's console
    scripts/vm suspend [--seconds S] to RAM and back (amd64 guests: arm64's virt machine has no S3)
    scripts/vm status | stop         which guest runs / power it off, whichever it is

Why Python rather than shell: the guest is driven over qemu-guest-agent's JSON protocol on
a unix socket, and every wait needs a time limit and a clear message; the standard library
does both. Progress goes to standard error, prefixed `vm:`; standard output carries only
what the guest command printed.

The modules, from the ground up: places (paths, time limits), host (errors, host commands,
locks), guests (which guest), console, agent (the guest agent, QMP), qemu (the process),
commands (run in the guest), image, lifecycle (boot, status, stop), suspend, play, cli.
Their tests, of what each decides without a guest: tests/, run by HarnessTests.
"""
