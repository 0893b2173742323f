extension OrientationEvent {
    /// The environment a hook runs with: the event's fields as `ORIENTD_*` variables, so a
    /// script reads them without parsing JSON and without anything being interpolated
    /// into a command line.
    public var hookEnvironment: [(name: String, value: String)] {
        [
            ("ORIENTD_SCREEN", screenType.rawValue),
            ("ORIENTD_PREVIOUS", previousScreen.map { natural.screenType(of: $0).rawValue } ?? ""),
            ("ORIENTD_ANGLE", String(screen.angle)),
            ("ORIENTD_XRANDR", screen.xrandrName),
            ("ORIENTD_TRANSFORM", screen.waylandTransform),
            ("ORIENTD_HYPRLAND", String(screen.hyprlandTransform)),
            ("ORIENTD_DEVICE", device.rawValue),
            ("ORIENTD_LOCKED", locked ? "true" : "false"),
            ("ORIENTD_CAUSE", cause.rawValue),
            ("ORIENTD_EVENT", String(decoding: jsonLine.dropLast(), as: UTF8.self)),
        ]
    }

    /// The arguments after the hook's own: the new and the previous W3C type (empty on
    /// the first event).
    public var hookArguments: [String] {
        [screenType.rawValue, previousScreen.map { natural.screenType(of: $0).rawValue } ?? ""]
    }
}
