import Foundation

/// A running process as a pane lease names it: its id, when it started (clock ticks after boot)
/// and the boot it started in. A process id alone names whatever process has it now: after a
/// reboot, or once the id is reused, a lease by id would hide a quit notes' panes forever.
struct ProcessIdentity: Equatable {
    let pid: Int32
    let started: UInt64
    let boot: String

    /// This process.
    static let current = running(getpid())

    /// The process that has `pid` now, or nil when there is none, or it has ended and only
    /// waits to be reaped (a zombie), or `/proc` cannot tell.
    static func running(_ pid: Int32) -> ProcessIdentity? {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let boot = bootID,
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After the name, in parentheses (which may hold spaces): state, then the fields from
        // the fourth on; the start time is the 22nd (proc(5)).
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X",
            let started = UInt64(fields[19])
        else { return nil }
        return ProcessIdentity(pid: pid, started: started, boot: boot)
    }

    private static let bootID =
        (try? String(
            contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)

    /// Whether the process is still the one running under its id.
    var isRunning: Bool { Self.running(pid) == self }

    /// The lease's name in `settings`: `lease.<pid>.<start>.<boot id>`.
    var leaseKey: String { "\(PaneLayoutStore.leasePrefix)\(pid).\(started).\(boot)" }

    /// The process a lease names, or nil for a name of another shape (a lease by id alone,
    /// from a notes before leases named the process).
    init?(leaseKey: String) {
        guard leaseKey.hasPrefix(PaneLayoutStore.leasePrefix) else { return nil }
        let parts = leaseKey.dropFirst(PaneLayoutStore.leasePrefix.count)
            .split(separator: ".", maxSplits: 2)
        guard parts.count == 3, let pid = Int32(parts[0]), let started = UInt64(parts[1]) else {
            return nil
        }
        self.init(pid: pid, started: started, boot: String(parts[2]))
    }

    init(pid: Int32, started: UInt64, boot: String) {
        self.pid = pid
        self.started = started
        self.boot = boot
    }
}
