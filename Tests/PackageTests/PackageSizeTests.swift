import Foundation
import OrientdTestSupport
import Testing

/// The Debian package as `make deb` builds it, held to the size and memory targets
/// (`scripts/lib/size-targets`): the .deb and its installed binary at most so many bytes,
/// no ICU in the binary, and no shared library outside the allowed list. Sizes do not
/// depend on the machine's load, so they are a test; timings stay in the benchmarks.
/// It builds the package itself (a release build: the test bundle's own orientd is a
/// debug one), as CI's scripts/test runs it, in a tier of its own. A failure names the
/// figure, its limit and, from `scripts/benchmark-size`, where the bytes go by part.
@Suite(.serialized, .enabled(if: PackageBuild.missing.isEmpty, "\(PackageBuild.skipReason)"))
struct PackageSizeTests {
    @Test("the .deb, its installed binary and the libraries it links stay within the size and memory targets")
    func packageWithinTargets() throws {
        let (package, targets, figures) = try PackageBuild.measured()
        // The breakdown by part, for the messages: run only when one is shown (an
        // expectation's message is evaluated when it fails), and shown once.
        var breakdownShown = false
        func breakdown() -> String {
            if breakdownShown { return "\n(where the bytes go: under the first failure)" }
            breakdownShown = true
            let result = try? OrientdProcess.runShell([PackageBuild.benchmark, package.deb])
            return result.map { "\n\nscripts/benchmark-size \(package.deb):\n\($0.stdout)\($0.stderr)" } ?? ""
        }
        print(
            "package: .deb \(figures.debBytes) bytes, binary \(figures.binaryBytes) bytes, NEEDED \(figures.needed.joined(separator: " "))")

        #expect(
            figures.debBytes <= targets.debLimit,
            "the .deb is \(megabytes(figures.debBytes)), over its limit of \(megabytes(targets.debLimit)) by \(megabytes(figures.debBytes - targets.debLimit))\(breakdown())"
        )
        #expect(
            figures.binaryBytes <= targets.binaryLimit,
            "the installed /usr/bin/orientd is \(megabytes(figures.binaryBytes)), over its limit of \(megabytes(targets.binaryLimit)) by \(megabytes(figures.binaryBytes - targets.binaryLimit))\(breakdown())"
        )
        let strangers = figures.needed.filter { !targets.allowedLibraries.contains($0) }
        #expect(
            strangers.isEmpty,
            "the binary links \(strangers.joined(separator: ", ")), outside the allowed libraries (scripts/lib/size-targets: \(targets.allowedLibraries.sorted().joined(separator: " "))); NEEDED: \(figures.needed.joined(separator: " "))"
        )
        #expect(
            figures.icuDataMarks == 0,
            "ICU is linked into the binary: its data's name (icudtNN) occurs \(figures.icuDataMarks) times; an `import Foundation` (grep -rn \"import Foundation\" Sources) brings FoundationInternationalization and ICU: import FoundationEssentials\(breakdown())"
        )
        // The symbols say it too, and name the module: Foundation's or ICU's own.
        let icuSymbols = figures.symbols.filter { name in
            name.contains("icudt") || name.hasPrefix("swift_ucol_") || name.hasPrefix("ucol_")
                || name.contains("30FoundationInternationalization") || name.hasPrefix("$s10Foundation")
        }
        #expect(
            icuSymbols.count == 0,
            "the binary holds \(icuSymbols.count) symbols of Foundation or ICU (orientd-dbgsym), such as \(icuSymbols.prefix(5).joined(separator: ", "))"
        )
        #expect(
            figures.symbols.count > 1000,
            "the debug symbols' package gave \(figures.symbols.count) symbols: the ICU check above read nothing")
    }

    /// The kernel maps a program's code 64 KiB around each page a fault first touches, so
    /// the daemon's resident code is the number of such windows its functions lie in:
    /// make package lays the functions scripts/lib/link-order lists out together.
    @Test("the functions `orientd run` runs lie together, in few of the kernel's 64 KiB fault-around windows")
    func daemonCodeTogether() throws {
        let (_, targets, figures) = try PackageBuild.measured()
        let listPath = "\(PackageBuild.repository)/scripts/lib/link-order"
        let listed = try String(contentsOfFile: listPath, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
        let addresses = listed.compactMap { figures.functions[$0] }
        let windows = Set(addresses.map { $0 >> 16 })
        print("package: the \(addresses.count) of \(listed.count) listed functions in the binary lie in \(windows.count) windows of 64 KiB")
        #expect(
            addresses.count * 10 >= listed.count * 9,
            "only \(addresses.count) of the \(listed.count) functions \(listPath) lists are in the binary: run scripts/link-order again (docs/development.md, \"Memory\")"
        )
        #expect(
            windows.count <= targets.daemonCodeWindows,
            "the functions `orientd run` runs lie in \(windows.count) windows of 64 KiB (\(windows.count * 64) KiB resident when each is touched), over the limit of \(targets.daemonCodeWindows): is make package's --section-ordering-file (or lld's --symbol-ordering-file) still given?"
        )
    }

    private func megabytes(_ bytes: Int) -> String {
        String(format: "%.2f MB (%d bytes)", Double(bytes) / 1e6, bytes)
    }
}

/// `make deb` of this machine's own release (Debian 12), and where its packages went.
enum PackageBuild {
    static let repository = Repository.root.path
    static let benchmark = "\(repository)/scripts/benchmark-size"
    static let counterpart = MissingCounterpart(
        programs: ["make", "dpkg-buildpackage", "dh", "dpkg-deb", "readelf"], needsRoot: false)
    static var missing: [String] { counterpart.missing }
    static let skipReason = counterpart.skipReason(
        suite: "PackageSizeTests (the .deb and its binary against the size targets)",
        why: """
            It builds the package with make deb;
            scripts/test --all installs what that needs and asks for this tier.
            """)

    struct Built {
        var deb: String
        var work: String
    }

    /// The package built (`built()`), the targets, and its figures, read from a copy
    /// unpacked for the purpose and removed again.
    static func measured() throws -> (Built, SizeTargets, PackageFigures) {
        let package = try built()
        defer { try? FileManager.default.removeItem(atPath: package.work) }
        return (package, try SizeTargets.read(), try PackageFigures(of: package.deb, unpackingInto: package.work))
    }

    /// Builds the package from this checkout (make package is a no-op when the release
    /// build is current) and returns its .deb, with a fresh directory to unpack it into.
    static func built() throws -> Built {
        let make = try OrientdProcess.runShell(["make", "-C", repository, "--no-print-directory", "deb"])
        try #require(make.status == 0, "make deb failed (\(make.status)):\n\(make.stderr.suffix(3000))")
        let architecture = try OrientdProcess.runShell(["dpkg", "--print-architecture"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let directory = "\(repository)/.build-package/deb"
        let debs = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("orientd_") && $0.hasSuffix("_\(architecture).deb") }
        try #require(debs.count == 1, "make deb left \(debs) in \(directory), expected one orientd_*_\(architecture).deb")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-package-size-\(getpid())").path
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        return Built(deb: "\(directory)/\(debs[0])", work: work)
    }
}

/// scripts/lib/size-targets' NAME=VALUE lines, which scripts/benchmark-size sources.
struct SizeTargets {
    var debLimit: Int
    var binaryLimit: Int
    var allowedLibraries: Set<String>
    var daemonCodeWindows: Int

    static func read() throws -> SizeTargets {
        let path = "\(PackageBuild.repository)/scripts/lib/size-targets"
        var values: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            values[String(line[..<equals])] = value
        }
        let deb = try #require(values["DEB_LIMIT_BYTES"].flatMap { Int($0) }, "no DEB_LIMIT_BYTES in \(path)")
        let binary = try #require(values["BINARY_LIMIT_BYTES"].flatMap { Int($0) }, "no BINARY_LIMIT_BYTES in \(path)")
        let allowed = try #require(values["ALLOWED_LIBRARIES"], "no ALLOWED_LIBRARIES in \(path)")
        let windows = try #require(
            values["DAEMON_CODE_WINDOWS"].flatMap { Int($0) }, "no DAEMON_CODE_WINDOWS in \(path)")
        return SizeTargets(
            debLimit: deb, binaryLimit: binary, allowedLibraries: Set(allowed.split(separator: " ").map(String.init)),
            daemonCodeWindows: windows)
    }
}

/// What a package holds, read with dpkg-deb and readelf: the .deb's size, its installed
/// binary's size, NEEDED libraries and ICU data marks, and the symbols of the debug
/// symbols' package beside it.
struct PackageFigures {
    var debBytes: Int
    var binaryBytes: Int
    var needed: [String]
    var icuDataMarks: Int
    var symbols: [String]
    /// Each function's address, by its symbol (the first, where one has two).
    var functions: [String: UInt64]

    init(of deb: String, unpackingInto work: String) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: deb)
        debBytes = (attributes[.size] as? Int) ?? 0
        let unpack = try OrientdProcess.runShell(["dpkg-deb", "-x", deb, "\(work)/deb"])
        try #require(unpack.status == 0, "dpkg-deb -x \(deb) failed: \(unpack.stderr)")
        let binary = "\(work)/deb/usr/bin/orientd"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: binary))
        binaryBytes = bytes.count
        // ICU's data names its every item "icudtNNl/..." (icudt76l/ar ...).
        var marks = 0
        var searched = bytes.startIndex
        while let found = bytes.range(of: Data("icudt".utf8), in: searched..<bytes.endIndex) {
            marks += 1
            searched = found.upperBound
        }
        icuDataMarks = marks
        let dynamic = try OrientdProcess.runShell(["readelf", "-dW", binary])
        try #require(dynamic.status == 0, "readelf -d \(binary) failed: \(dynamic.stderr)")
        needed = dynamic.lines.filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last.map { String($0.dropLast()) }
        }
        // The debug file of this very build, by its build ID.
        let dbgsym =
            (deb as NSString).deletingLastPathComponent + "/"
            + (deb as NSString).lastPathComponent.replacingOccurrences(of: "orientd_", with: "orientd-dbgsym_")
        let notes = try OrientdProcess.runShell(["readelf", "-nW", binary])
        let buildID = notes.lines.first { $0.contains("Build ID:") }?.split(separator: " ").last.map(String.init) ?? ""
        try #require(buildID.count > 2, "no build ID in \(binary): \(notes.stdout)")
        let unpackSymbols = try OrientdProcess.runShell(["dpkg-deb", "-x", dbgsym, "\(work)/dbgsym"])
        try #require(unpackSymbols.status == 0, "dpkg-deb -x \(dbgsym) failed: \(unpackSymbols.stderr)")
        let debug = "\(work)/dbgsym/usr/lib/debug/.build-id/\(buildID.prefix(2))/\(buildID.dropFirst(2)).debug"
        let table = try OrientdProcess.runShell(["readelf", "-sW", debug])
        try #require(table.status == 0, "readelf -s \(debug) failed: \(table.stderr)")
        // readelf -s: "Num: Value Size Type Bind Vis Ndx Name".
        let rows = table.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            .filter { $0.count >= 8 && $0[0].hasSuffix(":") }
        symbols = rows.map { String($0[7]) }
        var functions: [String: UInt64] = [:]
        for row in rows where row[3] == "FUNC" {
            if let address = UInt64(row[1], radix: 16), functions[String(row[7])] == nil {
                functions[String(row[7])] = address
            }
        }
        self.functions = functions
    }
}
