import Foundation

/// One output as a compositor reports it: quarter turns counter-clockwise (the Wayland
/// protocol's transform / 90) and its place and size in the layout; and the readers of
/// each compositor's own reply that give it.
struct OutputState: CustomStringConvertible {
    var quarterTurns: Int
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var description: String { "\(quarterTurns) quarter turns at \(x),\(y), \(width)x\(height)" }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A value of a reply, of the type expected; its absence fails the read.
    private static func need<T>(_ value: Any?, _ what: String) throws -> T {
        guard let value = value as? T else { throw Failure(description: "the compositor's state has no \(what)") }
        return value
    }

    /// The call whose reply `mutter` reads: mutter's GetCurrentState through busctl.
    static let mutterCall = [
        "busctl", "--user", "--json=short", "call", "org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig",
        "org.gnome.Mutter.DisplayConfig", "GetCurrentState",
    ]

    /// mutter's logical monitors, by connector, from GetCurrentState as busctl prints it.
    static func mutter(_ text: String) throws -> [(name: String, state: OutputState)] {
        let reply: [String: Any] = try need(try JSONSerialization.jsonObject(with: Data(text.utf8)), "object")
        let data: [Any] = try need(reply["data"], "data")
        let monitors: [[Any]] = try need(data[1], "monitors")
        let logical: [[Any]] = try need(data[2], "logical monitors")
        var sizes: [String: (Int, Int)] = [:]
        for monitor in monitors {
            let connector: String = try need((monitor[0] as? [Any])?.first, "connector")
            for case let mode as [Any] in try need(monitor[1], "modes") as [Any] {
                let properties = mode[6] as? [String: [String: Any]]
                if properties?["is-current"]?["data"] as? Bool == true {
                    sizes[connector] = (try need(mode[1], "mode width"), try need(mode[2], "mode height"))
                }
            }
        }
        return try logical.map { monitor in
            let connector: String = try need(((monitor[5] as? [Any])?.first as? [Any])?.first, "logical monitor's connector")
            let transform: Int = try need(monitor[3], "transform")
            let (width, height) = try need(sizes[connector], "current mode of \(connector)") as (Int, Int)
            return (
                connector,
                OutputState(
                    quarterTurns: transform, x: try need(monitor[0], "x"), y: try need(monitor[1], "y"),
                    width: transform % 2 == 1 ? height : width, height: transform % 2 == 1 ? width : height)
            )
        }
    }

    /// kwin's enabled outputs from `kscreen-doctor -j` (Plasma 5.27 and 6 alike).
    static func kscreen(_ text: String) throws -> [(name: String, state: OutputState)] {
        let reply: [String: Any] = try need(try JSONSerialization.jsonObject(with: Data(text.utf8)), "object")
        let outputs: [[String: Any]] = try need(reply["outputs"], "outputs")
        // KScreen::Output::Rotation: None 1, Left 2 (a quarter turn counter-clockwise),
        // Inverted 4, Right 8.
        let turns = [1: 0, 2: 1, 4: 2, 8: 3]
        return try outputs.filter { $0["enabled"] as? Bool == true }.map { output in
            let position: [String: Int] = try need(output["pos"], "pos")
            let size: [String: Int] = try need(output["size"], "size")
            let rotation: Int = try need(output["rotation"], "rotation")
            return (
                try need(output["name"], "name"),
                OutputState(
                    quarterTurns: try need(turns[rotation], "known rotation (\(rotation))"),
                    x: try need(position["x"], "x"), y: try need(position["y"], "y"),
                    width: try need(size["width"], "width"), height: try need(size["height"], "height"))
            )
        }
    }

    /// A wlroots compositor's enabled outputs from `wlr-randr --json`: the transform in
    /// the protocol's words, the current mode's size turned with it.
    static func wlrRandr(_ text: String) throws -> [(name: String, state: OutputState)] {
        let outputs: [[String: Any]] = try need(try JSONSerialization.jsonObject(with: Data(text.utf8)), "list of outputs")
        let turns = ["normal": 0, "90": 1, "180": 2, "270": 3]
        return try outputs.filter { $0["enabled"] as? Bool == true }.map { output in
            let word: String = try need(output["transform"], "transform")
            let quarterTurns: Int = try need(turns[word], "known transform (\(word))")
            let modes: [[String: Any]] = try need(output["modes"], "modes")
            let mode = try need(modes.first { $0["current"] as? Bool == true }, "current mode") as [String: Any]
            let (width, height): (Int, Int) = (try need(mode["width"], "width"), try need(mode["height"], "height"))
            let position: [String: Int] = try need(output["position"], "position")
            return (
                try need(output["name"], "name"),
                OutputState(
                    quarterTurns: quarterTurns, x: try need(position["x"], "x"), y: try need(position["y"], "y"),
                    width: quarterTurns % 2 == 1 ? height : width, height: quarterTurns % 2 == 1 ? width : height)
            )
        }
    }

    /// What a Wayland client is told about output `name`: wl_output's transform (in
    /// quarter turns) and xdg_output's logical size, from `wayland-info`'s text.
    static func waylandInfo(_ text: String, output name: String) throws -> OutputState {
        // Each wl_output global prints its transform; each xdg_output its global's number,
        // its name and its logical size, before or after that global (kwin: before).
        var transforms: [String: Int] = [:]  // by the wl_output global's number
        var global = ""
        var outputs: [(global: String, name: String, width: Int, height: Int)] = []
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let fields = line.split(whereSeparator: { " ,:'".contains($0) }).map(String.init)
            if line.hasPrefix("interface"), line.contains("'wl_output'") { global = fields.last ?? "" }
            if let i = fields.firstIndex(of: "output_transform"), i + 1 < fields.count {
                transforms[global] = ["normal": 0, "90°": 1, "180°": 2, "270°": 3][fields[i + 1]] ?? -1
            }
            if fields.first == "xdg_output_v1" { outputs.append(("", "", 0, 0)) }
            guard !outputs.isEmpty, fields.count >= 2, !line.hasPrefix("interface") else { continue }
            switch fields[0] {
            case "output": outputs[outputs.count - 1].global = fields[1]
            case "name" where outputs[outputs.count - 1].name.isEmpty: outputs[outputs.count - 1].name = fields[1]
            case "logical_width" where fields.count == 4:
                outputs[outputs.count - 1].width = Int(fields[1]) ?? 0
                outputs[outputs.count - 1].height = Int(fields[3]) ?? 0
            default: break
            }
        }
        let found = outputs.first { $0.name == name }.map {
            OutputState(quarterTurns: transforms[$0.global] ?? -1, x: 0, y: 0, width: $0.width, height: $0.height)
        }
        guard let found else { throw Failure(description: "wayland-info shows no output \(name): \(text)") }
        return found
    }
}
