import ArgumentParser

/// A first word that names no command: `orientd lsit`. `run` is the default command and
/// takes no words, so the parser would blame run ("Unexpected argument 'lsit'", run's
/// usage) for what is a misspelt command; this says so and suggests the nearest one,
/// as git does. swift-argument-parser suggests near option names, not command names.
struct UnknownCommand: Equatable {
    var word: String
    /// The commands within two edits of `word`, nearest first.
    var suggestions: [String]

    /// Nil when `arguments` starts with an option, a command, or nothing.
    init?(arguments: [String], commands: [String]) {
        guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) else { return nil }
        word = first
        let distances = commands.map { ($0, Self.editDistance(first.lowercased(), $0)) }
        suggestions = distances.filter { $0.1 <= 2 }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The laboratory's commands: they measure orientd and make its test material, and are
    /// not installed (`orientd-lab`, built from a checkout).
    static let laboratory = ["simulate", "evaluate"]

    var message: String {
        if Self.laboratory.contains(word) {
            return "unknown command '\(word)': it is the laboratory's, not installed; from a checkout: swift run orientd-lab \(word)"
        }
        let hint = suggestions.isEmpty ? "" : "; did you mean '\(suggestions.joined(separator: "' or '"))'?"
        return "unknown command '\(word)'\(hint)"
    }

    /// Levenshtein distance, one row at a time: the words are a few letters long.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
