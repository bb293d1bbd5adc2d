import Dispatch
import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI
import TestSupport
import Testing

@testable import NotesApp

/// Typing the notebook cannot take now (another program holds its
/// lock, the disk is full) stays on the screen, the status line says why, and it is written as
/// soon as it can be, as one undo step; leaving, closing or quitting asks first.
@MainActor @Suite struct UnsavedTypingTests {
    /// The status line, the screen's last line.
    func status(_ fixture: AppFixture) -> String {
        String(fixture.screen.split(separator: "\n").last { $0.hasPrefix(" Pane ") } ?? "")
    }

    func body(_ fixture: AppFixture) throws -> String? {
        try fixture.db.read { try Notebook.article($0, id: 3)?.body }
    }

    @Test func typingWhileAnotherProgramHoldsTheLockShowsAndIsSavedWhenItIsFree() throws {
        let folder = try TemporaryFolder(prefix: "notes-app-tests")
        let path = folder.path("notes.db")
        defer { withExtendedLifetime(folder) {} }
        let fixture = try AppFixture(path: path)
        fixture.press(.enter)  // article 3, the cursor at the start of its body
        let other = try LockHolder(path: path) { db in
            try db.execute("UPDATE articles SET body = body || ' EXT' WHERE id = 3")
        }
        let started = ContinuousClock.now
        fixture.type("Held ")
        // Every key echoed, without waiting out SQLite's 5 s busy timeout.
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(fixture.app.focusedPane.editor?.buffer.text == "Held Body of article 3")
        #expect(fixture.screen.contains("\n Held Body of article 3                 │\n"))
        #expect(
            status(fixture)
                == " Pane 1 │ Nothing to undo │ Nothing to redo │ Typing kept, not saved yet: anoth…"
        )
        #expect(try body(fixture) == "Body of article 3")
        try other.release()
        fixture.app.processPendingEvents()
        #expect(try body(fixture) == "Held Body of article 3 EXT")
        #expect(fixture.screen.contains("\n Held Body of article 3 EXT             │\n"))
        #expect(
            status(fixture)
                == " Pane 1 │ Undo Typing │ Nothing to redo │ Saved the typing that waited")
        // One undo step, which takes back only the typing.
        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3 EXT")
    }

    /// Makes the notebook as full as a full disk would: no page can be added.
    func fillTheDisk(_ fixture: AppFixture) throws {
        let pages = try fixture.db.read { try $0.fetchOne(Int.self, "PRAGMA page_count") } ?? 0
        try fixture.db.write { try $0.execute("PRAGMA max_page_count = \(pages)") }
    }

    func makeRoom(_ fixture: AppFixture) throws {
        try fixture.db.write { try $0.execute("PRAGMA max_page_count = 1000000") }
    }

    /// The status line reads " Pane 1 │ Nothing to undo │ Nothing to redo │ " and then this.
    func says(_ message: String, _ fixture: AppFixture) -> Bool {
        status(fixture) == " Pane 1 │ Nothing to undo │ Nothing to redo │ " + message
    }

    @Test func aPasteWhenTheDiskIsFullStaysUntilThereIsRoom() throws {
        let fixture = try AppFixture(size: Size(width: 120, height: 12))
        fixture.press(.enter)
        try fillTheDisk(fixture)
        let pasted = String(repeating: "lorem ipsum ", count: 4000)
        fixture.backend.enqueue(.paste(pasted))
        fixture.app.processPendingEvents()
        #expect(fixture.app.focusedPane.editor?.buffer.text == pasted + "Body of article 3")
        #expect(
            fixture.screen.contains(
                "\n ipsum Body of article 3                                    │\n"))
        #expect(try body(fixture) == "Body of article 3")
        #expect(says("Typing kept, not saved yet: the disk is full; notes tries again", fixture))
        // Undo would take back a step older than what is on the screen.
        fixture.press(.control("z"))
        #expect(says("Cannot undo yet: the typing is not saved (the disk is full)", fixture))
        fixture.press(.escape)
        #expect(says("Typing not saved (the disk is full): Esc again leaves without it", fixture))
        #expect(fixture.app.focusedPane.editor != nil)
        fixture.press(.control("q"))
        #expect(says("Typing not saved (the disk is full): Ctrl-Q again quits without it", fixture))
        #expect(!fixture.app.quitRequested)
        try makeRoom(fixture)
        fixture.app.processPendingEvents()
        #expect(try body(fixture) == pasted + "Body of article 3")
        #expect(
            status(fixture)
                == " Pane 1 │ Undo Paste │ Nothing to redo │ Saved the typing that waited")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3")
    }

    @Test func leavingTypingTheDiskCannotTakeAsksFirstThenDropsIt() throws {
        let fixture = try AppFixture(size: Size(width: 120, height: 12))
        fixture.press(.enter)
        try fillTheDisk(fixture)
        fixture.backend.enqueue(.paste(String(repeating: "lorem ipsum ", count: 4000)))
        fixture.press(.escape)
        #expect(says("Typing not saved (the disk is full): Esc again leaves without it", fixture))
        // A key typed after the question asks it again.
        fixture.type("y")
        fixture.press(.escape)
        #expect(fixture.app.focusedPane.editor != nil)
        fixture.press(.escape)
        #expect(fixture.app.focusedPane.editor == nil)
        #expect(says("Dropped the typing that was not saved", fixture))
        try makeRoom(fixture)
        fixture.app.processPendingEvents()
        #expect(try body(fixture) == "Body of article 3")
        fixture.press(.enter)
        #expect(fixture.app.focusedPane.editor?.buffer.text == "Body of article 3")
    }

    @Test func closingAPaneAndQuittingAskFirstThenGoOn() throws {
        let fixture = try AppFixture(size: Size(width: 120, height: 12))
        fixture.press(.enter)
        try fillTheDisk(fixture)
        fixture.backend.enqueue(.paste(String(repeating: "lorem ipsum ", count: 4000)))
        fixture.press(.alt("x"))
        #expect(
            says("Typing not saved (the disk is full): Alt-X again closes without it", fixture))
        #expect(fixture.app.panes.count == 2)
        fixture.press(.control("q"))
        fixture.press(.control("q"))
        #expect(fixture.app.quitRequested)
        #expect(try body(fixture) == "Body of article 3")
    }
}

/// Another connection that holds the notebook's write lock (an open `BEGIN IMMEDIATE`) until
/// `release()`, after running `write` in its transaction.
final class LockHolder: @unchecked Sendable {
    private let held = DispatchSemaphore(value: 0)
    private let letGo = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var failure: (any Error)?

    init(path: String, write: @escaping @Sendable (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: path)
        let thread = Thread { [self] in
            do {
                try queue.write { db in
                    try write(db)
                    held.signal()
                    letGo.wait()
                }
            } catch {
                failure = error
                held.signal()
            }
            done.signal()
        }
        thread.start()
        held.wait()
        if let failure { throw failure }
    }

    /// Commits the held transaction and waits until it has.
    func release() throws {
        letGo.signal()
        done.wait()
        if let failure { throw failure }
    }
}
