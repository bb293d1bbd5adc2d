import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import Synchronization
import TerminalUI
import UndoableState

/// The notes editor: panes over one notebook, each with its own undo stack, drawn on a terminal
/// backend (curses, or headless in tests).
@MainActor
public final class NotesApp {
    let database: DatabaseQueue
    let engine: UndoEngine?
    let backend: any TerminalBackend
    let notebookName: String
    /// Open panes, widths and focus, with the history of layout changes (Alt-Z, Alt-Y).
    var layout = UndoableState(
        PaneLayout(stackIDs: []), limit: PaneLayoutStore.historyLimit, filter: PaneLayout.history)
    /// Whether this notes keeps the notebook's saved layout: not when another notes running on
    /// it held some of those panes when this one opened.
    private var ownsSavedLayout = false
    /// Every pane opened in this run by stack id, so that a closed pane comes back as it was.
    private var paneCache: [String: Pane] = [:]
    /// The last message for the status line.
    var message: String? { didSet { messageAnswersAKey = false } }
    /// Whether `message` answers a key that does nothing (`answer(unbound:in:)`): it then takes
    /// the place of what redo, then undo, would do when the status line has no room for both.
    var messageAnswersAKey = false
    /// When long work shows its progress, and how often it is drawn again
    /// (`NotesApp+Progress.swift`; tests show it at once).
    var progressTiming = (
        shownAfter: Duration.milliseconds(500), interval: Duration.milliseconds(100)
    )
    /// The frame last drawn, which long work draws again with its progress.
    private(set) var lastFrame: Canvas?
    /// The time edits stamp articles with: the system's clock unless set (tests set their own,
    /// with the engine's, so that no test depends on how fast it runs).
    var clock: @Sendable () -> Date = { Date() }
    var overlay: Overlay?
    /// What Ctrl-C and Ctrl-X took, shared by every pane of the window.
    var clipboard = Clipboard()
    /// Counts the events handled but resizes, so that line cuts in a row add up (`Clipboard`).
    var eventsHandled = 0
    /// What the history panel's steps touched, in words, by step id, with `commits` when they
    /// were read: a panel opened again while nothing was written reads none of them again.
    var stepSummaries: (commits: Int, words: [Int64: StepSummary.Touched]) = (-1, [:])
    /// The branches of a pane's history, as its panel last read them, with `commits` then: read
    /// again only once something was written.
    var historyBranches: (commits: Int, stackID: String, branches: [UndoBranch]) = (-1, "", [])
    /// Keys, pastes and clicks that came while the terminal was too small to show the panes,
    /// handled in order once it is big enough again (`TooSmallTerminal`).
    var heldWhileTooSmall = TooSmallTerminal()
    private(set) var quitRequested = false
    /// Whether clicks and the wheel go to notes (Alt-M gives them back to the terminal).
    var isMouseCaptured = true
    private let dataChanged = ChangeFlag()
    /// Counts the commits seen (this connection's and, by polling, other programs'), so that a
    /// pane knows when the only one since it loaded was its own typing (`Pane.noteOwnWrite`).
    let commits = CommitCounter()
    /// Raised with `dataChanged` when articles were added or removed.
    private let articlesResized = ChangeFlag()
    private var observation: DatabaseObservation?
    private var lastPoll = ContinuousClock.now
    /// The stacks other notes windows running on the notebook hold, with their window and
    /// place, as the last look found them (`lookForOtherWindows`: at opening, and after
    /// another program's commit, such as another window's start or quit).
    private(set) var otherWindows: [String: PaneLayoutStore.OtherWindow] = [:]

    /// This window's name while another notes window runs on the notebook, for the title bar:
    /// "window 4321", by process id, as that one's messages name this one's panes.
    var windowName: String? {
        otherWindows.isEmpty ? nil : "window \(ProcessInfo.processInfo.processIdentifier)"
    }
    let layoutStore: PaneLayoutStore
    /// The notebook's check for damage (`NotebookOpener` prepares it; it starts once the first
    /// frame is drawn) until it has passed: nothing is written before, not even the leases of the
    /// panes' stacks. With it, the stacks that had history when the app opened, and the number
    /// of panes asked for.
    private var opening: (check: BackgroundCheck, history: Set<String>, paneCount: Int?)?
    /// What ended the app before the user quit: the notebook's check found it damaged.
    public private(set) var failure: (any Error)?

    /// A screen drawn over the panes that takes the keys while it is open.
    enum Overlay {
        /// The keys, scrolled to show `firstLine` at the top.
        case help(firstLine: Int)
        case authorPicker(AuthorPicker)
    }

    /// Opens the app on a notebook.
    ///
    /// When the notebook is still being checked (`database.pendingCheck`), the app shows it at
    /// once but writes nothing before the check has passed: each key waits for it, and the app
    /// ends (`run()` throws the check's error) if the notebook is damaged.
    /// - Parameters:
    ///   - database: the notebook, already migrated.
    ///   - engine: the undo engine, or nil to run with undo off (`--no-undo`).
    ///   - backend: where to draw and read keys.
    ///   - notebookName: shown in the title bar.
    ///   - paneCount: how many panes to open, or nil for the layout the notebook was left with
    ///     (2 panes for a new one). Their undo stacks come back from the file.
    public init(
        database: DatabaseQueue, engine: UndoEngine?, backend: any TerminalBackend,
        notebookName: String, paneCount: Int?
    ) throws {
        self.database = database
        self.engine = engine
        // Two panes, windows or programs typing into one article each undo only their typing,
        // a run at a time, though the other's keys stamp the article in between.
        engine?.mergeText(ofColumns: ["title"], in: Article.self)
        engine?.mergeText(ofColumns: ["text"], in: ArticleChunk.self)
        engine?.treatAsTimestamps(ofColumns: ["updatedAt"], in: Article.self)
        self.backend = backend
        self.notebookName = notebookName
        self.layoutStore = PaneLayoutStore(database: database)
        let (flag, resized, commits) = (dataChanged, articlesResized, commits)
        observation = database.observe { change in
            if change.resizedTables.contains(Article.tableName) { resized.raise() }
            commits.count()
            flag.raise()
        }
        let history = Set(try engine?.storedStackIDs() ?? [])
        if let check = database.pendingCheck {
            opening = (check, history, paneCount)
            try showPanes(try layoutStore.choose(count: paneCount, history: history).layout)
        } else {
            try leasePanes(count: paneCount, history: history)
        }
    }

    /// Once the notebook's check has passed, does what opening left for then: leases the panes'
    /// stacks. When it failed, ends the app with `failure`.
    /// - Parameter waiting: whether to wait for a check still running (before a key, which may
    ///   write) or to leave it for a later tick.
    /// - Returns: false when the app is ending.
    @discardableResult
    func finishOpening(waiting: Bool) -> Bool {
        guard let (check, history, paneCount) = opening, waiting || check.isFinished else {
            return true
        }
        do {
            try check.wait()
        } catch {
            failure = error
            quitRequested = true
            return false
        }
        opening = nil
        do {
            try leasePanes(count: paneCount, history: history)
        } catch {
            message = "Cannot save the panes: \(ErrorWords.describe(error))"
        }
        return true
    }

    /// Leases the stacks of `count` panes and shows them, and puts the notebook's number of
    /// articles right (`Notebook.recountArticles`). Another notes that started meanwhile may have
    /// taken some of the stacks shown while the notebook was checked: the panes then get others,
    /// as `claim` chooses.
    private func leasePanes(count: Int?, history: Set<String>) throws {
        let choice = try layoutStore.claim(count: count, history: history)
        if choice.layout != SavedLayout(layout) { try showPanes(choice.layout) }
        ownsSavedLayout = choice.isSavedLayout
        if ownsSavedLayout {
            try layoutStore.save(SavedLayout(layout), holding: openStackIDs, closed: closedStackIDs)
        }
        if try database.write({ try Notebook.recountArticles($0) }) {
            for pane in panes { pane.invalidate() }
        }
        lookForOtherWindows()
    }

    /// Shows a layout with its history of changes: a pane for every stack it names, so that
    /// Alt-Z brings back closed panes with their history; each where it was when notes last
    /// quit (`PanePlace`).
    private func showPanes(_ saved: SavedLayout) throws {
        paneCache = [:]
        for id in saved.stackIDs.sorted() {
            let pane = try makePane(id)
            // Best effort: a place that cannot be read back leaves the pane on its list.
            if let place = try? layoutStore.place(of: id) {
                try? database.read { try pane.restore(place, $0) }
            }
        }
        layout = saved.undoableState
    }

    /// Saves where every pane of this run is (`PanePlace`), for the next run (at quit).
    func savePlaces() {
        try? layoutStore.savePlaces(
            database.read { db in try paneCache.mapValues { try $0.place(db) } })
    }

    @discardableResult
    func makePane(_ stackID: String) throws -> Pane {
        if let pane = paneCache[stackID] { return pane }
        let pane = Pane(stackID: stackID, stack: try engine?.stack(id: stackID))
        paneCache[stackID] = pane
        return pane
    }

    /// Where everything goes on the terminal as it is now.
    var screenLayout: ScreenLayout {
        ScreenLayout(size: backend.size, paneCount: panes.count, layout: layout.present)
    }

    /// The open panes, left to right.
    var panes: [Pane] { layout.present.stackIDs.compactMap { paneCache[$0] } }

    /// The index of the focused pane (moving it is not a layout change to undo). Moving it
    /// clears the status line's message: it told of the pane left ("Undid Set Rating").
    var focus: Int {
        get { layout.present.focus }
        set {
            var changed = layout.present
            changed.focus = max(0, min(newValue, changed.stackIDs.count - 1))
            guard changed != layout.present else { return }
            layout.set(changed)
            message = nil
            saveLayout()
        }
    }

    /// Applies a layout change (recorded for Alt-Z) and saves the open panes in the notebook.
    /// A change that moves the focus to another pane (a new one) clears the status line's
    /// message, as moving the focus does.
    func changeLayout(_ change: (inout PaneLayout) -> Void) {
        var changed = layout.present
        change(&changed)
        if focusedStackID(in: changed) != focusedStackID(in: layout.present) { message = nil }
        layout.set(changed)
        saveLayout()
    }

    private func focusedStackID(in layout: PaneLayout) -> String? {
        layout.stackIDs.indices.contains(layout.focus) ? layout.stackIDs[layout.focus] : nil
    }

    /// Saves the layout and its history in the notebook when this notes keeps it, and leases
    /// the stacks it may show again.
    func saveLayout() {
        guard opening == nil else { return }
        do {
            if ownsSavedLayout {
                try layoutStore.save(
                    SavedLayout(layout), holding: openStackIDs, closed: closedStackIDs)
            } else {
                try layoutStore.lease(openStackIDs, closed: closedStackIDs)
            }
        } catch {
            message = "Cannot save the panes: \(ErrorWords.describe(error))"
        }
    }

    /// The open panes' stacks, left to right.
    private var openStackIDs: [String] { panes.map(\.stackID) }

    /// The other stacks this notes may show again: closed panes Alt-Z brings back.
    private var closedStackIDs: [String] {
        Set(paneCache.keys).union(SavedLayout(layout).stackIDs).subtracting(openStackIDs).sorted()
    }

    /// A stack id no pane has used: this run's panes, the saved layout, stacks with history, and
    /// stacks another running notes holds.
    func freshStackID() throws -> String {
        var used = Set(paneCache.keys).union(try layoutStore.savedStackIDs())
        used.formUnion(try engine?.storedStackIDs() ?? [])
        used.formUnion(try layoutStore.heldElsewhere())
        return PaneLayoutStore.freshID(avoiding: used)
    }

    var focusedPane: Pane { panes[focus] }

    // MARK: Running

    /// Runs until the user quits: draws, waits for a key (or a tick), handles it.
    /// - Throws: What ended it before the user quit (`failure`), once the terminal is restored.
    public func run() throws {
        backend.setMouseCapture(isMouseCaptured)
        render()
        while !quitRequested {
            if let event = backend.nextEvent(timeout: .milliseconds(250)) {
                handle(event)
                settleSelection()
                handleQueuedEvents()
            }
            tick()
            render()
        }
        // The stacks are free for the next notes; a lease left behind (a crash) is dropped by
        // the next notes, which sees its process gone.
        if opening == nil {
            savePlaces()
            try? layoutStore.release()
        }
        backend.shutdown()
        if let failure { throw failure }
    }

    /// Handles every event the backend has queued, then draws once (headless tests).
    public func processPendingEvents() {
        handleQueuedEvents()
        tick()
        render()
    }

    /// Handles every event already read from the terminal (a paste, keys typed faster than a
    /// frame is drawn), so that a slow tick or frame (a write waiting for another program's
    /// lock) is paid once for all of them.
    private func handleQueuedEvents() {
        while !quitRequested, let event = backend.nextEvent(timeout: .zero) {
            handle(event)
            settleSelection()
        }
    }

    /// A key that moved the selection acts on the article it landed on for the next key of the
    /// same burst (Down then Delete), before any frame is drawn.
    func settleSelection() {
        if focusedPane.hasRequestedIndex { load(focusedPane, at: focus, in: screenLayout) }
    }

    /// Work that is due without a key: other processes' commits, expiring highlights.
    func tick() {
        finishOpening(waiting: false)
        if !screenLayout.isTooSmall { releaseHeldEvents() }
        retryUnsavedTyping()
        let now = ContinuousClock.now
        if now - lastPoll >= .milliseconds(500) {
            lastPoll = now
            // Another window's start and quit are commits (its lease): looked at only then.
            if (try? database.pollForExternalChanges()) == true {
                recountAfterOthersWrote()
                lookForOtherWindows()
            }
        }
        for pane in panes {
            if let until = pane.highlightUntil, now >= until {
                pane.highlighted = []
                pane.highlightUntil = nil
            }
        }
    }

    /// Reads which stacks other notes windows hold (`otherWindows`).
    func lookForOtherWindows() {
        otherWindows = (try? layoutStore.otherWindows()) ?? [:]
    }

    /// Puts the number of articles right after another program's commit, which may have been a
    /// `REPLACE` that deleted a row without the delete trigger keeping the number. Reads first,
    /// so that a right number costs no write (nor a wait for the other's lock).
    private func recountAfterOthersWrote() {
        do {
            guard try !database.read(Notebook.articleCountIsRight) else { return }
            try database.write { _ = try Notebook.recountArticles($0) }
            for pane in panes { pane.invalidate() }
        } catch {
            message = "Cannot count the articles: \(ErrorWords.describe(error))"
        }
    }

    func requestQuit() { quitRequested = true }

    /// Loads what changed since the last draw, then draws the whole screen.
    func render() {
        if dataChanged.checkAndClear() {
            let recounting = articlesResized.checkAndClear()
            for pane in panes { pane.invalidate(recounting: recounting) }
        }
        let screen = screenLayout
        for (index, pane) in panes.enumerated() { load(pane, at: index, in: screen) }
        let (canvas, cursor) = ScreenRenderer(state: screenState(in: screen), layout: screen).draw()
        backend.draw(canvas, cursor: cursor)
        lastFrame = canvas
        // Once the first frame is on the screen: reading the whole file beside it would slow it.
        opening?.check.start()
    }

    /// Loads what the pane at `index` of `screen` shows, when it changed.
    private func load(_ pane: Pane, at index: Int, in screen: ScreenLayout) {
        guard !screen.isTooSmall else { return }
        do {
            try database.read {
                try pane.load(height: screen.listHeight(index), commits: commits.value, $0)
            }
            pane.fitEditor(to: screen.content(index))
            refreshHistory(of: pane, height: screen.listHeight(index))
            if pane.takeLostArticle() != nil, index == focus {
                message = "Article deleted elsewhere"
            }
        } catch {
            message = "Cannot read the notebook: \(ErrorWords.describe(error))"
        }
    }

    /// Runs `body` as one undoable action of the focused pane, and reports errors in the status
    /// line instead of failing. Waits at most a second for another program's lock.
    /// - Returns: whether it was done (false: the status line says why not).
    @discardableResult
    func perform(_ name: String, coalescing key: String? = nil, _ body: (Database) throws -> Void)
        -> Bool
    {
        do {
            try writeUndoably(
                in: focusedPane, name, coalescing: key, waitingAtMost: .seconds(1), body)
            message = nil
            return true
        } catch {
            message = "\(name) failed: \(ErrorWords.describe(error)); nothing was saved"
            return false
        }
    }

    /// Runs `body` in one write transaction, waiting at most `wait` for another program's lock,
    /// as one undoable action `name` of `pane`'s stack (when undo is on).
    func writeUndoably(
        in pane: Pane, _ name: String, coalescing key: String?, waitingAtMost wait: Duration,
        _ body: (Database) throws -> Void
    ) throws {
        guard let stack = pane.stack else {
            return try database.write(waitingAtMost: wait, body)
        }
        try withUndoStack(stack) {
            try undoable(name, coalescing: key) { try database.write(waitingAtMost: wait, body) }
        }
    }
}

/// Counted up by the database observer (any thread), read by the run loop.
final class CommitCounter: Sendable {
    private let counted = Atomic(0)
    func count() { counted.add(1, ordering: .relaxed) }
    var value: Int { counted.load(ordering: .relaxed) }
}

/// Set by the database observer (any thread), read and cleared by the run loop.
final class ChangeFlag: Sendable {
    private let raised = Atomic(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    /// Clears the flag; returns whether it was raised.
    func checkAndClear() -> Bool { raised.exchange(false, ordering: .relaxed) }
}
