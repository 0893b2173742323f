import OrientdIO

/// What systemd hears from the daemon over a run (sd_notify(3)): READY=1 once it serves,
/// the watchdog on its schedule, a STATUS= line for `systemctl status` (the source, then
/// the screen), RELOADING=1 around a reload, STOPPING=1 at the end. Outside systemd the
/// notifier is inactive and all of it costs nothing.
final class ServiceNotifications {
    private let notifier: ServiceNotifier
    /// The screen's part of STATUS=; nil before the first certain pose.
    private let screenStatus: () -> String?
    private var notifiedReady = false
    private var nextWatchdog: Double?
    /// What STATUS= says about the source, before the screen.
    private var sourceStatus = "starting"

    init(notifier: ServiceNotifier = ServiceNotifier(), screenStatus: @escaping () -> String?) {
        self.notifier = notifier
        self.screenStatus = screenStatus
    }

    /// The STATUS= text.
    var statusLine: String {
        guard let screen = screenStatus() else { return "\(sourceStatus); no certain pose yet" }
        return "\(sourceStatus); \(screen)"
    }

    /// When the watchdog must next be told, for the loop's timeout; nil without one.
    var watchdogDeadline: Double? { nextWatchdog }

    /// The run begins: the first WATCHDOG=1 and the schedule after it.
    func start(now: Double) {
        guard let interval = notifier.watchdogInterval else { return }
        notifier.watchdog()
        nextWatchdog = now + interval
    }

    /// WATCHDOG=1 when it is due; called on every turn of the loop.
    func keepAlive(now: Double) {
        guard let due = nextWatchdog, let interval = notifier.watchdogInterval, now >= due else { return }
        notifier.watchdog()
        nextWatchdog = now + interval
    }

    /// The source waits for a sensor or has opened one. The first such word is READY=1:
    /// the daemon serves from then on (a sensor open, the replay started, or `run --wait`
    /// answering on its socket while it waits). Holding READY back for a sensor made
    /// `systemctl start` time out on a machine without one and restart forever.
    func sourceChanged(_ description: String) {
        sourceStatus = description
        if notifiedReady {
            notifier.status(statusLine)
        } else {
            notifier.ready(status: statusLine)
            notifiedReady = true
        }
    }

    /// Every orientation event: the STATUS= text is built (under the service's lock) only
    /// when there is a systemd to tell.
    func orientationChanged() {
        if notifier.isActive { notifier.status(statusLine) }
    }

    func reloading() { notifier.send("RELOADING=1") }

    func reloaded() { notifier.send("READY=1", "STATUS=\(statusLine)") }

    func stopping(_ note: String) { notifier.stopping(status: note) }
}
