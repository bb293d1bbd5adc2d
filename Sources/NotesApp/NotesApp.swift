import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import Synchronization
import TerminalUI

/// The notes editor: panes over one notebook, each with its own undo stack, drawn on a terminal
/// backend (curses, or headless in tests).
@MainActor
public final class NotesApp {
    let database: DatabaseQueue
    let engine: UndoEngine?
    let backend: any TerminalBackend
    let notebookName: String
    var panes: [Pane] = []
    var focus = 0
    /// The last message for the status line.
    var message: String?
    var overlay: Overlay?
    private(set) var quitRequested = false
    private let dataChanged = ChangeFlag()
    private var observation: DatabaseObservation?
    private var lastPoll = ContinuousClock.now
    let layoutStore: PaneLayoutStore

    /// A screen drawn over the panes that takes the keys while it is open.
    enum Overlay {
        case help
        case authorPicker(AuthorPicker)
    }

    /// Opens the app on a notebook.
    /// - Parameters:
    ///   - database: the notebook, already migrated.
    ///   - engine: the undo engine, or nil to run with undo off (`--no-undo`).
    ///   - backend: where to draw and read keys.
    ///   - notebookName: shown in the title bar.
    ///   - paneCount: how many panes to open (their undo stacks come back from the file).
    public init(
        database: DatabaseQueue, engine: UndoEngine?, backend: any TerminalBackend,
        notebookName: String, paneCount: Int
    ) throws {
        self.database = database
        self.engine = engine
        self.backend = backend
        self.notebookName = notebookName
        self.layoutStore = PaneLayoutStore(database: database)
        let flag = dataChanged
        observation = database.observe { _ in flag.raise() }
        let stored = try layoutStore.load()
        var ids = Array(stored.prefix(paneCount))
        while ids.count < paneCount { ids.append(try freshStackID(excluding: ids)) }
        panes = try ids.map(makePane)
        try layoutStore.save(panes.map(\.stackID))
    }

    func makePane(_ stackID: String) throws -> Pane {
        Pane(stackID: stackID, stack: try engine?.stack(id: stackID))
    }

    /// A stack id no pane has used: open panes, the saved layout, and stacks with history.
    func freshStackID(excluding taken: [String]) throws -> String {
        var used = Set(taken).union(try layoutStore.load())
        used.formUnion(try engine?.storedStackIDs() ?? [])
        used.formUnion(panes.map(\.stackID))
        var number = 1
        while used.contains("pane-\(number)") { number += 1 }
        return "pane-\(number)"
    }

    var focusedPane: Pane { panes[focus] }

    // MARK: Running

    /// Runs until the user quits: draws, waits for a key (or a tick), handles it.
    public func run() {
        render()
        while !quitRequested {
            if let event = backend.nextEvent(timeout: .milliseconds(250)) { handle(event) }
            tick()
            render()
        }
        backend.shutdown()
    }

    /// Handles every event the backend has queued, then draws once (headless tests).
    public func processPendingEvents() {
        while !quitRequested, let event = backend.nextEvent(timeout: .zero) {
            handle(event)
        }
        tick()
        render()
    }

    /// Work that is due without a key: other processes' commits, expiring highlights.
    func tick() {
        let now = ContinuousClock.now
        if now - lastPoll >= .milliseconds(500) {
            lastPoll = now
            _ = try? database.pollForExternalChanges()
        }
        for pane in panes {
            if let until = pane.highlightUntil, now >= until {
                pane.highlighted = []
                pane.highlightUntil = nil
            }
        }
    }

    func requestQuit() { quitRequested = true }

    /// Loads what changed since the last draw, then draws the whole screen.
    func render() {
        if dataChanged.lower() {
            for pane in panes { pane.invalidate() }
        }
        let screen = ScreenLayout(size: backend.size, paneCount: panes.count)
        if !screen.isTooSmall {
            for (index, pane) in panes.enumerated() {
                do {
                    try database.read { try pane.load(height: screen.listHeight(index), $0) }
                } catch {
                    message = "Cannot read the notebook: \(error)"
                }
            }
        }
        let (canvas, cursor) = ScreenRenderer(app: self, layout: screen).draw()
        backend.draw(canvas, cursor: cursor)
    }

    /// Runs `body` as one undoable action of the focused pane, and reports errors in the status
    /// line instead of failing.
    func perform(_ name: String, _ body: (Database) throws -> Void) {
        do {
            if let stack = focusedPane.stack {
                try withUndoStack(stack) {
                    try undoable(name) { try database.write(body) }
                }
            } else {
                try database.write(body)
            }
            message = nil
        } catch {
            message = "\(name) failed: \(error)"
        }
    }
}

/// Set by the database observer (any thread), read and cleared by the run loop.
final class ChangeFlag: Sendable {
    private let raised = Atomic(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    /// Clears the flag; returns whether it was raised.
    func lower() -> Bool { raised.exchange(false, ordering: .relaxed) }
}
