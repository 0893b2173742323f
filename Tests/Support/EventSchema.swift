import Foundation

/// docs/events.schema.json, the published schema of orientd's events and replies, and a
/// validator for it, so the tests can check every event and reply line orientd prints.
///
/// Written here because none of the Swift packages this project can depend on validates
/// JSON Schema. It knows the keywords the schema uses and refuses to load a schema with
/// any other: the schema can never lean on a keyword this validator would pass over.
/// `SchemaAgreementTests` runs Python's jsonschema, what consumers reach for, on the same
/// schema and lines and expects the same verdicts.
public struct EventSchema: Sendable {
    public let root: JSONValue

    /// Keywords that only document.
    static let annotations: Set = ["$schema", "$id", "title", "description"]
    static let keywords: Set = [
        "type", "properties", "required", "additionalProperties", "enum", "const", "items", "uniqueItems", "oneOf", "$ref",
        "$defs", "minimum", "minLength",
    ]

    public static let path = Repository.root.appendingPathComponent("docs/events.schema.json").path

    /// The published schema, loaded once: a schema this validator cannot read is a
    /// failure of every check, with the reason.
    public static let published: Result<EventSchema, SchemaError> = {
        do {
            return .success(try EventSchema(text: String(contentsOfFile: path, encoding: .utf8)))
        } catch let error as SchemaError {
            return .failure(error)
        } catch {
            return .failure(SchemaError(message: "\(path): \(error)"))
        }
    }()

    public struct SchemaError: Error, CustomStringConvertible, Sendable {
        public var message: String
        public var description: String { message }
    }

    public init(text: String) throws {
        root = try JSONValue(parsing: text)
        try Self.checkKeywords(root, at: "#")
    }

    private static func checkKeywords(_ schema: JSONValue, at place: String) throws {
        guard case .object(let members) = schema else { return }
        for (key, value) in members {
            guard annotations.contains(key) || keywords.contains(key) else {
                throw SchemaError(message: "\(path): \(place): keyword '\(key)' is not one EventSchema checks; teach it or do without")
            }
            switch key {
            case "properties", "$defs":
                if case .object(let children) = value {
                    for (name, child) in children { try checkKeywords(child, at: "\(place)/\(key)/\(name)") }
                }
            case "items", "additionalProperties":
                try checkKeywords(value, at: "\(place)/\(key)")
            case "oneOf":
                if case .array(let children) = value {
                    for (i, child) in children.enumerated() { try checkKeywords(child, at: "\(place)/oneOf/\(i)") }
                }
            default: break
            }
        }
    }

    /// What is wrong with `value`; empty when it is valid.
    public func errors(in value: JSONValue) -> [String] {
        errors(in: value, against: root, at: "")
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node = root
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = node[String(part)] else { return nil }
            node = next
        }
        return node
    }

    private func errors(in value: JSONValue, against schema: JSONValue, at place: String) -> [String] {
        guard case .object(let rules) = schema else { return schema == .bool(false) ? ["\(place): not allowed"] : [] }
        let here = place.isEmpty ? "the line" : place
        var found: [String] = []
        if case .string(let reference)? = rules["$ref"] {
            guard let target = resolve(reference) else { return ["\(here): unresolved $ref \(reference)"] }
            found += errors(in: value, against: target, at: place)
        }
        if let type = rules["type"] {
            let allowed: [String] =
                switch type {
                case .string(let name): [name]
                case .array(let names): names.compactMap { if case .string(let s) = $0 { s } else { nil } }
                default: []
                }
            if value.typeNames.isDisjoint(with: allowed) {
                return found + ["\(here): \(value.shown) is not \(allowed.joined(separator: " or "))"]
            }
        }
        if let constant = rules["const"], value != constant {
            found.append("\(here): \(value.shown), expected \(constant.shown)")
        }
        if case .array(let options)? = rules["enum"], !options.contains(value) {
            found.append("\(here): \(value.shown) is not one of \(options.map(\.shown).joined(separator: ", "))")
        }
        if case .number(let minimum)? = rules["minimum"], case .number(let n) = value, n < minimum {
            found.append("\(here): \(value.shown) is below \(minimum)")
        }
        if case .number(let minimum)? = rules["minLength"], case .string(let s) = value, Double(s.unicodeScalars.count) < minimum {
            found.append("\(here): shorter than \(Int(minimum))")
        }
        if case .object(let members) = value {
            let properties: [String: JSONValue] = if case .object(let p)? = rules["properties"] { p } else { [:] }
            if case .array(let required)? = rules["required"] {
                for case .string(let name) in required where members[name] == nil {
                    found.append("\(here): \"\(name)\" is missing")
                }
            }
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                if let rule = properties[name] {
                    found += errors(in: member, against: rule, at: "\(place)/\(name)")
                } else if let extra = rules["additionalProperties"] {
                    found += errors(in: member, against: extra, at: "\(place)/\(name)").map { _ in
                        "\(here): \"\(name)\" is not a field of this kind (the schema lists every field)"
                    }.prefix(1)
                }
            }
        }
        if case .array(let items) = value {
            if let rule = rules["items"] {
                for (i, item) in items.enumerated() { found += errors(in: item, against: rule, at: "\(place)/\(i)") }
            }
            if rules["uniqueItems"] == .bool(true) {
                for (i, item) in items.enumerated() where items[..<i].contains(item) {
                    found.append("\(place)/\(i): \(item.shown) repeats an earlier item")
                }
            }
        }
        if case .array(let options)? = rules["oneOf"] {
            let verdicts = options.map { errors(in: value, against: $0, at: place) }
            let matching = verdicts.filter(\.isEmpty).count
            if matching == 0 {
                // The option it came closest to says the most: its kind matched, a field did not.
                let closest = verdicts.min { $0.count < $1.count } ?? []
                found += closest
            } else if matching > 1 {
                found.append("\(here): matches \(matching) of the kinds the schema tells apart")
            }
        }
        return found
    }
}
