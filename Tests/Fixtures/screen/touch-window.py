#!/usr/bin/python3
"""A fullscreen GTK 4 window for the desktop guest that prints where each touch lands in
it, one line "down X Y" (logical pixels from its top-left corner) a touch, "pen X Y" a
touch of a pen's tip (GTK takes the pen through the tablet protocol), and "shown W H"
once it fills the output: for desktops whose windows cannot be made fullscreen from
outside (GNOME) and to read taps the same way on each. Usage: touch-window.py."""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402


def on_activate(app):
    window = Gtk.ApplicationWindow(application=app, title="orientd touch window")
    area = Gtk.DrawingArea(hexpand=True, vexpand=True)
    window.set_child(area)
    touch = Gtk.GestureClick(touch_only=True)
    touch.connect("pressed", lambda _gesture, _n, x, y: print(f"down {x:.1f} {y:.1f}", flush=True))
    area.add_controller(touch)
    pen = Gtk.GestureStylus()
    pen.connect("down", lambda _gesture, x, y: print(f"pen {x:.1f} {y:.1f}", flush=True))
    area.add_controller(pen)
    area.connect("resize", lambda _area, width, height: print(f"shown {width} {height}", flush=True))
    window.fullscreen()
    window.present()


app = Gtk.Application(application_id="org.orientd.TouchWindow")
app.connect("activate", on_activate)
sys.exit(app.run([]))
