import ArgumentParser

/// Where `run` takes its defaults from. Read before the command line is parsed (see
/// `RunInvocation`); declared here so that help shows them and parsing accepts them.
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
}
