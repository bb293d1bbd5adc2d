import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import Testing

@testable import NotesApp

/// Two notes on one notebook never share a pane's undo stack: the stacks a running notes holds
/// are leased in the notebook under its process id (see `TwoProcessTests` for real processes).
@MainActor @Suite struct PaneLeaseTests {
    let db: DatabaseQueue
    let engine: UndoEngine

    init() throws {
        db = try DatabaseQueue()
        try NoteStoreSchema.migrate(db)
        engine = try UndoEngine(for: db, tables: Article.self, ArticleChunk.self, Author.self)
    }

    func setting(_ key: String) throws -> String? {
        try db.read {
            try $0.fetchOne(String.self, "SELECT value FROM settings WHERE key = ?", [.text(key)])
        }
    }

    func store(_ key: String, _ value: String) throws {
        try db.write {
            try $0.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    func openApp() throws -> NotesApp {
        try NotesApp(
            database: db, engine: engine, backend: HeadlessBackend(), notebookName: "test.db",
            paneCount: 2)
    }

    @Test func stacksHeldByARunningProcessGoToNobodyElse() throws {
        try store("panes", "pane-1\npane-2")
        // Process 1 (init) is always running: it holds the saved panes.
        try store(try #require(ProcessIdentity.running(1)).leaseKey, "pane-1\npane-2")
        let app = try openApp()
        #expect(app.panes.map(\.stackID) == ["pane-3", "pane-4"])
        #expect(try setting(try #require(ProcessIdentity.current).leaseKey) == "pane-3\npane-4")
        // The saved layout is the other notes' to keep.
        #expect(try setting("panes") == "pane-1\npane-2")
        app.handle(.key(.control("t")))
        #expect(app.panes.map(\.stackID) == ["pane-3", "pane-5", "pane-4"])
    }

    @Test func leasesOfProcessesThatAreGoneAreDropped() throws {
        try store("panes", "pane-1\npane-2")
        // No process has this id (above the kernel's limit).
        try store("lease.2147483647", "pane-1\npane-2")
        let app = try openApp()
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2"])
        #expect(try setting("lease.2147483647") == nil)
        #expect(try setting(try #require(ProcessIdentity.current).leaseKey) == "pane-1\npane-2")
    }

    /// A lease names its process by id, start time and boot. A lease whose id
    /// now belongs to another process (reused, or after a reboot), to a zombie, or written by id
    /// alone, hides no history: the saved panes open with their stacks.
    @Test(arguments: ["reused id", "another boot", "zombie", "id alone"])
    func aLeaseOfAProcessThatIsNotRunningHidesNoHistory(kind: String) throws {
        try store("panes", "pane-1\npane-2")
        let running = try #require(ProcessIdentity.running(getppid()))
        let key: String
        var zombie: pid_t?
        defer { if let zombie { waitpid(zombie, nil, 0) } }
        switch kind {
        case "reused id":
            key =
                ProcessIdentity(pid: running.pid, started: running.started + 1, boot: running.boot)
                .leaseKey
        case "another boot":
            key =
                ProcessIdentity(pid: running.pid, started: running.started, boot: "0-1-2")
                .leaseKey
        case "zombie":
            let child = try spawnZombie()
            key = child.leaseKey
            zombie = child.pid
        default:
            key = "lease.\(running.pid)"
        }
        try store(key, "pane-1\npane-2")
        let app = try openApp()
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2"])
        #expect(try setting(key) == nil)
    }

    /// A child that has exited but is not reaped yet (a zombie; the caller reaps it), as it
    /// was while it ran.
    func spawnZombie() throws -> ProcessIdentity {
        var pid: pid_t = 0
        let arguments = ["/bin/sleep", "60"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        #expect(posix_spawn(&pid, "/bin/sleep", nil, nil, &argv, nil) == 0)
        let identity = try #require(ProcessIdentity.running(pid))
        // Killed, but not yet reaped by its parent: a zombie holds no lease.
        kill(pid, SIGKILL)
        // Wait until it has exited, without reaping it.
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0)
        #expect(ProcessIdentity.running(pid) == nil)
        return identity
    }

    /// A notes that quits gives its stacks back: the next one, whatever its process id, opens
    /// the saved panes with their history.
    @Test func quittingReleasesTheLease() throws {
        let backend = HeadlessBackend()
        let app = try NotesApp(
            database: db, engine: engine, backend: backend, notebookName: "test.db",
            paneCount: 2)
        let key = try #require(ProcessIdentity.current).leaseKey
        #expect(try setting(key) == "pane-1\npane-2")
        backend.enqueue(.key(.control("q")))
        try app.run()
        #expect(try setting(key) == nil)
    }
}
