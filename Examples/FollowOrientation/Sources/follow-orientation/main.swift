// Follows the screen's orientation, as a video player or a game would, and keeps the
// screen in landscape while it runs: the lock ends when the program does, however it
// ends, because orientd ties it to this program's connection.
//
//     follow-orientation [--socket PATH] [--lock TYPE]
//
// TYPE is a W3C lock type (any, natural, landscape, portrait, landscape-primary …);
// --lock none follows without locking.
import Glibc
import OrientdClient

/// A line on standard output at once (print's buffer would hold it in a pipe).
func say(_ message: String) {
    let line = message + "\n"
    _ = write(1, line, line.utf8.count)
}

func fail(_ message: String, status: Int32) -> Never {
    let line = "follow-orientation: \(message)\n"
    _ = write(2, line, line.utf8.count)
    exit(status)
}

var socket: String?
var lockType: OrientationLockType? = .landscape
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch (argument, arguments.popFirst()) {
    case ("--socket", let path?): socket = path
    case ("--lock", "none"?): lockType = nil
    case ("--lock", let word?) where OrientationLockType(rawValue: word) != nil: lockType = OrientationLockType(rawValue: word)
    default:
        let types = OrientationLockType.allCases.map(\.rawValue).joined(separator: "|")
        fail("usage: follow-orientation [--socket PATH] [--lock none|\(types)]", status: 64)
    }
}

do {
    let screen = try ScreenOrientation(socket: socket)
    say("now: \(try await screen.orientation())")
    if let lockType {
        try await screen.lock(lockType)
        say("locked to \(lockType.rawValue) while this runs (Ctrl-C ends it)")
    }
    for try await orientation in screen.changes() {
        say("screen: \(orientation)")
    }
} catch .noDaemon(let socket) {
    fail("orientd is not running (nobody answers on \(socket))", status: 69)
} catch {
    fail("\(error)", status: 1)
}
