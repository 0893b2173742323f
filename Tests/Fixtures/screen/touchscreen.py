#!/usr/bin/python3
"""A uinput touchscreen (direct, as a tablet's panel is) for the desktop guest: taps
where it is told. Usage: touchscreen.py FIFO [--tablet-mode] [--pen]; then lines "tap U
V" (0..4095 on each axis of the digitizer) in FIFO, each a touch of 50 ms there; "quit"
ends it. With --tablet-mode, also a 2-in-1's tablet-mode switch, folded to tablet (mutter
and kwin rotate a built-in panel by themselves only in tablet mode); then "tablet 0"
opens it to a laptop and "tablet 1" folds it again. With --pen, also a pen on the same
panel (a display tablet, as a 2-in-1's active pen is); then "pen U V" brings it near
there, touches for 50 ms, lifts it and takes it away."""
import sys
import time

from evdev import AbsInfo, UInput, ecodes as e

SIDE = 4095
axis = AbsInfo(value=0, min=0, max=SIDE, fuzz=0, flat=0, resolution=10)
device = UInput(
    {
        e.EV_KEY: [e.BTN_TOUCH],
        e.EV_ABS: [
            (e.ABS_X, axis),
            (e.ABS_Y, axis),
            (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
            (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
            (e.ABS_MT_POSITION_X, axis),
            (e.ABS_MT_POSITION_Y, axis),
        ],
    },
    name="orientd test touchscreen",
    vendor=0x1234,
    product=0x5678,
    bustype=e.BUS_USB,
    input_props=[e.INPUT_PROP_DIRECT],
)
if "--tablet-mode" in sys.argv[2:]:
    switch = UInput({e.EV_SW: [e.SW_TABLET_MODE]}, name="orientd test tablet-mode switch", bustype=e.BUS_HOST)
    switch.write(e.EV_SW, e.SW_TABLET_MODE, 1)
    switch.syn()
else:
    switch = None
if "--pen" in sys.argv[2:]:
    # What libinput takes for a display tablet's pen: the pen tool, its tip and a button,
    # the axes with a resolution, and direct input (on the screen, not beside it). Its
    # USB ids are those of a 2-in-1's pen sensor that libwacom lists as built into the
    # display (ELAN 2072, the HP Spectre x360's): mutter maps a pen libwacom does not know
    # as an external tablet, to the screen's axes whatever its rotation.
    pen = UInput(
        {
            e.EV_KEY: [e.BTN_TOOL_PEN, e.BTN_TOUCH, e.BTN_STYLUS],
            e.EV_ABS: [(e.ABS_X, axis), (e.ABS_Y, axis), (e.ABS_PRESSURE, AbsInfo(0, 0, 1023, 0, 0, 0))],
        },
        name="orientd test pen",
        vendor=0x04F3,
        product=0x2072,
        bustype=e.BUS_USB,
        input_props=[e.INPUT_PROP_DIRECT],
    )
else:
    pen = None
print("touchscreen.py: made", device.device.path if device.device else "a device", flush=True)
touch = 1
while True:
    with open(sys.argv[1]) as fifo:
        for line in fifo:
            words = line.split()
            if words[:1] == ["quit"]:
                sys.exit(0)
            if words[:1] == ["tablet"] and len(words) == 2 and switch:
                switch.write(e.EV_SW, e.SW_TABLET_MODE, int(words[1]))
                switch.syn()
                print(f"touchscreen.py: tablet mode {words[1]}", flush=True)
                continue
            if words[:1] == ["pen"] and len(words) == 3 and pen:
                x, y = int(words[1]), int(words[2])
                for events in [
                    [(e.EV_ABS, e.ABS_X, x), (e.EV_ABS, e.ABS_Y, y), (e.EV_KEY, e.BTN_TOOL_PEN, 1)],
                    [(e.EV_ABS, e.ABS_PRESSURE, 600), (e.EV_KEY, e.BTN_TOUCH, 1)],
                    [(e.EV_ABS, e.ABS_PRESSURE, 0), (e.EV_KEY, e.BTN_TOUCH, 0)],
                    [(e.EV_KEY, e.BTN_TOOL_PEN, 0)],
                ]:
                    for kind, code, value in events:
                        pen.write(kind, code, value)
                    pen.syn()
                    time.sleep(0.05)
                print(f"touchscreen.py: pen at {x} {y}", flush=True)
                continue
            if words[:1] != ["tap"] or len(words) != 3:
                continue
            x, y = int(words[1]), int(words[2])
            for kind, code, value in [
                (e.EV_ABS, e.ABS_MT_SLOT, 0), (e.EV_ABS, e.ABS_MT_TRACKING_ID, touch),
                (e.EV_ABS, e.ABS_MT_POSITION_X, x), (e.EV_ABS, e.ABS_MT_POSITION_Y, y),
                (e.EV_KEY, e.BTN_TOUCH, 1), (e.EV_ABS, e.ABS_X, x), (e.EV_ABS, e.ABS_Y, y),
            ]:
                device.write(kind, code, value)
            device.syn()
            time.sleep(0.05)
            device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
            device.write(e.EV_KEY, e.BTN_TOUCH, 0)
            device.syn()
            touch += 1
            print(f"touchscreen.py: tapped {x} {y}", flush=True)
