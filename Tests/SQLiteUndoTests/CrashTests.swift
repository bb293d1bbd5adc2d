import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// A real process is killed with SIGKILL inside a barrier, between two committed writes.
///
/// The child is this test binary itself, started with `UNDO_CRASH_CHILD_DB` set: then
/// `crashChildWriter` opens the file, records one finished barrier, opens a second one, commits
/// a write inside it, says so on stdout, and waits to be killed.
@Suite struct CrashTests {
    static let childVariable = "UNDO_CRASH_CHILD_DB"

    /// Which child `crashChildWriter` plays: "afterUndo" undoes its finished barrier before
    /// opening the interrupted one.
    static let scenarioVariable = "UNDO_CRASH_CHILD_SCENARIO"

    @Test func crashChildWriter() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.childVariable] else { return }
        let (db, engine) = try Self.open(path)
        let pane = try engine.stack(id: "pane-1")
        try withUndoStack(pane) {
            try undoable("Finished") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('finished')") }
            }
            if environment[Self.scenarioVariable] == "afterUndo" { try pane.undo() }
            try undoable("Interrupted") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('interrupted 1')") }
                try db.write { try $0.execute("UPDATE items SET name = 'changed' WHERE id = 1") }
                FileHandle.standardOutput.write(Data("READY\n".utf8))
                while true { sleep(1) }
            }
        }
    }

    /// Runs `crashChildWriter` in a child process on a new file, kills it with SIGKILL once it
    /// is inside its interrupted barrier, and returns the folder holding the file, `notes.db`.
    static func killedChild(scenario: String = "") throws -> TemporaryFolder {
        let folder = try TemporaryFolder(prefix: "crash")
        let path = folder.path("notes.db")

        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "crashChildWriter"]
        child.environment = ProcessInfo.processInfo.environment.merging([
            Self.childVariable: path, Self.scenarioVariable: scenario,
        ]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("READY") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(String(decoding: seen, as: UTF8.self).contains("READY"))
        return folder
    }

    static func open(_ path: String) throws -> (DatabaseQueue, UndoEngine) {
        let db = try DatabaseQueue(path: path)
        try db.write {
            try $0.execute("CREATE TABLE IF NOT EXISTS items(id INTEGER PRIMARY KEY, name TEXT)")
        }
        return (db, try UndoEngine(for: db, tableNames: ["items"]))
    }

    @Test func killedInsideABarrierLeavesAConsistentLog() throws {
        let folder = try Self.killedChild()
        let (db, engine) = try Self.open(folder.path("notes.db"))
        let integrity = try db.read { try $0.fetchOne(String.self, "PRAGMA integrity_check") }
        #expect(integrity == "ok")
        // The interrupted barrier's two committed transactions stay, each filed with its log
        // rows as it committed: on reopen it undoes as one step, like the finished one.
        let names = {
            try db.read { try $0.fetchAll(String.self, "SELECT name FROM items ORDER BY id") }
        }
        #expect(try names() == ["changed", "interrupted 1"])
        let logged = try db.read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_log")
        }
        #expect(logged == 3)
        let pane = try engine.stack(id: "pane-1")
        #expect(pane.state == UndoStackState(undo: ["Interrupted", "Finished"], redo: []))
        let event = try pane.undo()
        #expect(event?.conflicts == [])
        #expect(try names() == ["finished"])
        try pane.undo()
        #expect(try names() == [])
    }

    /// A new action after an undo replaces the redo list in the file from the transaction that
    /// commits its first change: killed right after it, the file offers to redo nothing, and
    /// the new action undoes.
    @Test func killedAfterANewActionAfterAnUndoKeepsNoRedo() throws {
        let folder = try Self.killedChild(scenario: "afterUndo")
        let (db, engine) = try Self.open(folder.path("notes.db"))
        let pane = try engine.stack(id: "pane-1")
        #expect(pane.state == UndoStackState(undo: ["Interrupted"], redo: []))
        try pane.undo()
        #expect(try db.read { try $0.fetchAll(String.self, "SELECT name FROM items") } == [])
        #expect(pane.state == UndoStackState(undo: [], redo: ["Interrupted"]))
    }
}
