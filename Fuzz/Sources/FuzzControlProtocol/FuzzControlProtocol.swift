import FoundationEssentials
import FuzzSupport
import OrientdCore

// Anyone allowed on the control socket, and whatever feeds standard input, can send any
// bytes. The input is two bytes of settings and then that stream:
//
//     byte 0, bit 0      the panel's natural orientation (portrait, landscape)
//     byte 0, bit 1      the framer's limit: LineFramer.defaultLimit, or bits 2-7 (0-63),
//                        so that lines too long are reached within libFuzzer's -max_len
//     byte 1             the sizes of the reads the stream arrives in
//
// The stream goes through LineFramer as the daemon's poll loop feeds it, each line to
// ControlCommand.parse, and each answer through ControlReply, which must be a JSON line
// that gives back exactly the message. The lines are also cheap inputs for HookCommand,
// and the whole stream for PersistedState (the state file).

/// A reply as a client reads it.
struct Reply: Decodable {
    var reply: String
    var ok: Bool
    var error: String?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // Optional because libFuzzer may pass a null pointer with an empty input.
    let input = UnsafeRawBufferPointer(start: start, count: count)
    guard input.count >= 2 else { return 0 }
    let natural: NaturalOrientation = input[0] & 1 == 0 ? .portrait : .landscape
    let limit = input[0] & 2 == 0 ? LineFramer.defaultLimit : Int(input[0] >> 2)
    var readSizes = input[1]
    let stream = input[2...]

    var framer = LineFramer(limit: limit)
    var items: [LineFramer.Item] = []
    var position = stream.startIndex
    while position < stream.endIndex {
        // A full-period sequence of read sizes from 1 to 16 bytes, so a line arrives cut
        // at every kind of place.
        readSizes = readSizes &* 5 &+ 3
        let end = min(stream.endIndex, position + 1 + Int(readSizes % 16))
        let new = framer.append(stream[position..<end])
        require(!items.contains(.tooLong) || new.isEmpty, "items after a line that was too long")
        items += new
        position = end
    }

    let newlines = stream.count(where: { $0 == UInt8(ascii: "\n") })
    if framer.overran {
        require(items.last == .tooLong && items.count <= newlines + 1, "\(items.count) items from \(newlines) lines")
    } else {
        require(items.count == newlines, "\(items.count) items from \(newlines) lines")
        require(framer.hasPartialLine == (stream.last.map { $0 != UInt8(ascii: "\n") } ?? false), "partial line")
    }

    for item in items {
        switch item {
        case .line(let text):
            require(text.utf8.count <= limit, "a line of \(text.utf8.count) bytes passed a limit of \(limit)")
            require(!text.utf8.contains { $0 < 0x20 && $0 != 0x09 || $0 == 0x7f }, "control characters in '\(text)'")
            do throws(ControlCommand.Rejection) {
                if let command = try ControlCommand.parse(text, natural: natural) {
                    check(command)
                }
            } catch {
                check(ControlReply.failure(error), gives: error.command, error.message)
            }
            if let hook = try? HookCommand(parsing: text) {
                require(!hook.arguments.isEmpty, "a hook without a program from '\(text)'")
            }
        case .invalid(let reason):
            check(ControlReply.failure(command: "error", message: reason), gives: "error", reason)
        case .tooLong:
            break
        }
    }

    // The state file is read whole; one that reads must read the same once written again.
    let text = String(decoding: stream, as: UTF8.self)
    if let state = try? PersistedState(parsing: text, source: "fuzz") {
        let reread = try? PersistedState(parsing: state.text, source: "fuzz")
        require(reread == state, "'\(state.text)' (from '\(text)') reads back as \(String(describing: reread))")
    }
    return 0
}

/// A command that parses can be carried out: a lock or a supported set names at least
/// one rotation, and its reply is a JSON line.
func check(_ command: ControlCommand) {
    switch command {
    case .service(.lock(let set, _)), .service(.supported(let set, _)):
        require(!set.isEmpty, "\(command) with an empty set")
    default:
        break
    }
    check(ControlReply.success(command.name), gives: command.name, nil)
}

/// One JSON object on one line, which a client decodes to exactly what was meant:
/// everything the request put into the message is escaped, nothing lost or changed.
func check(_ line: [UInt8], gives command: String, _ message: String?) {
    require(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "not one line")
    guard let text = String(validating: line, as: UTF8.self) else { fatalError("a reply that is not UTF-8") }
    guard let reply = try? JSONDecoder().decode(Reply.self, from: Data(line)) else {
        fatalError("a reply that is not JSON: \(text)")
    }
    require(Array(reply.reply.utf8) == Array(command.utf8) && reply.ok == (message == nil), "reply \(text)")
    require(reply.error.map { Array($0.utf8) } == message.map { Array($0.utf8) }, "the message changed: \(text)")
}
