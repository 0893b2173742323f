/// How an orientd command ends. The numbers are sysexits(3)'s, which packagers, scripts
/// and systemd units (`RestartPreventExitStatus=`) already read; naming them here keeps
/// every command and the daemon to the same meanings, and no bare number at a call site.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// The work ran and its answer is no: a refused request, an evaluation below its truth.
    case failure = 1
    /// EX_USAGE: a bad command line (what swift-argument-parser exits with too).
    case usage = 64
    /// EX_DATAERR: a recording or scenario that is not one.
    case dataError = 65
    /// EX_NOINPUT: a file that cannot be opened or read.
    case noInput = 66
    /// EX_UNAVAILABLE: no sensor, or no daemon answering on the socket.
    case unavailable = 69
    /// EX_OSERR: the system refused what every run needs (a signal descriptor, a pipe).
    case systemError = 71
    /// EX_CANTCREAT: the control socket or an output file cannot be created.
    case cannotCreate = 73
    /// EX_IOERR: writing the output failed.
    case ioError = 74
    /// EX_CONFIG: the configuration file or the command line's settings are invalid.
    case configuration = 78
}
