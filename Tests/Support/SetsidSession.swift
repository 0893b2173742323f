import Foundation

/// Kills every process in the session that `setsid -w COMMAND`, run as `process`, made:
/// what the command started, and what those started in turn (a bus's activated services,
/// a script's background jobs), which would otherwise outlive the test. setsid forks
/// (Process makes its child a process group leader), so the session is led by setsid's
/// child, whose pid is the session's id.
public func killSession(startedBy process: Process) {
    guard let leader = ChildProcesses.children(of: process.processIdentifier).first else { return }
    _ = try? OrientdProcess.run(["-KILL", "-s", String(leader)], executable: URL(fileURLWithPath: "/usr/bin/pkill"))
}
