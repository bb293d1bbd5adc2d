import Foundation
import TestSupport
import Testing

/// What `notes` creates is private, and a path is a path: the real binary in a tmux terminal.
@Suite(.serialized) final class SecurityTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder(prefix: "notes-security")
    }

    func permissions(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    /// Waits for the welcome notebook on the screen, then quits with Ctrl-Q.
    func quitOnceOpen(_ session: String) throws {
        let deadline = Date().addingTimeInterval(20)
        var screen = ""
        while Date() < deadline {
            screen = try TmuxSession.tmux(["capture-pane", "-t", session, "-p"])
            if screen.contains("Welcome to notes") {
                try TmuxSession.tmux(["send-keys", "-t", session, "C-q"])
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TmuxSession.TimedOut(waitingFor: "Welcome to notes", screen: screen)
    }

    /// The first run creates `$XDG_DATA_HOME/notes/notes.db`: the folder 0700, the notebook and
    /// its journal files 0600, even with a umask that would let everyone read and write.
    @Test func defaultNotebookAndItsFolderArePrivate() throws {
        let data = folder.path("data/deeper")
        let outcome = try NotesRunner.inTerminal(
            [], environment: ["XDG_DATA_HOME": data], shellCommands: "umask 000; ",
            folder: folder, drive: quitOnceOpen)
        #expect(outcome.status == 0, "\(outcome)")
        let notes = data + "/notes"
        for created in [folder.path("data"), data, notes] {
            #expect(try permissions(created) == 0o700, "\(created)")
        }
        #expect(try permissions(notes + "/notes.db") == 0o600)
        for name in try FileManager.default.contentsOfDirectory(atPath: notes) {
            #expect(try permissions(notes + "/" + name) == 0o600, "\(name)")
        }
    }

    /// A path full of shell syntax is one file name: nothing runs, nothing else is created.
    @Test func notebookPathIsUsedAsGivenNeverByAShell() throws {
        let name = "my notes $(touch pwned) `touch pwned2`; touch pwned3 'q' \"d\" *.db"
        let path = folder.path(name)
        let outcome = try NotesRunner.inTerminal(
            ["--db", path], shellCommands: "cd \(TmuxSession.shellQuoted(folder.url.path)); ",
            folder: folder, drive: quitOnceOpen)
        #expect(outcome.status == 0, "\(outcome)")
        let created = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            .filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(created == [name])
        #expect(try permissions(path) == 0o600)
    }
}
