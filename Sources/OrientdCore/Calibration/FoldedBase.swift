extension DeviceOrientation {
    /// The pose a 2-in-1's base is in, in its own frame, when it is folded back behind the
    /// display (tablet mode, 360°) and the display is in this pose. The base's frame is the
    /// display's with the lid opened flat (docs/layers.md, "2-in-1"); folding on to 360° turns it
    /// half a turn about the hinge, the x axis: (x, y, z) becomes (x, −y, −z). So the
    /// poses a person holds for the display calibrate the base too (`calibrate --base`).
    public var foldedBase: DeviceOrientation {
        switch self {
        case .portrait: .portraitUpsideDown
        case .portraitUpsideDown: .portrait
        case .faceUp: .faceDown
        case .faceDown: .faceUp
        case .landscapeLeft, .landscapeRight, .unknown: self
        }
    }
}
