import ArgumentParser
import Glibc

/// Where `run` takes its defaults from. `Run` reads the file after the command line is
/// parsed and parses the file's settings with the command line's flags after them (see
/// `Run.run()`), so the flags win.
struct ConfigurationOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read default settings from this file (default: $ORIENTD_CONFIG, else /etc/orientd.conf if it exists).",
            discussion: """
                One 'key = value' per line, each key a long flag of run (supported = landscape, \
                exec = orientd-rotate-sway, wait = true); flags given here win. SIGHUP reloads \
                it. 'orientd config check' names each bad line. Example: --config ./orientd.conf
                """,
            valueName: "file"))
    var config: String?

    @Flag(help: ArgumentHelp("Read no configuration file."))
    var noConfig = false

    /// The file to read: nil with --no-config, or when the default one is absent (a file
    /// named by --config or ORIENTD_CONFIG must exist: reading it then fails loudly).
    var path: String? {
        if noConfig { return nil }
        let location = ConfigurationSettings.location(given: config)
        return location.explicit || access(location.path, F_OK) == 0 ? location.path : nil
    }
}
