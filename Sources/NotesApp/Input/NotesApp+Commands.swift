import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI

extension NotesApp {
    func perform(_ command: Command) {
        let pane = focusedPane
        switch command {
        case .undo: replay(undoing: true)
        case .redo: replay(undoing: false)
        case .nextPane: focus = (focus + 1) % panes.count
        case .previousPane: focus = (focus + panes.count - 1) % panes.count
        case .focusPane(let index):
            if panes.indices.contains(index) {
                focus = index
            } else {
                message = "No pane \(index + 1)"
            }
        case .newPane: openPane()
        case .closePane:
            if mayDropTyping(in: pane, toDo: "closes", again: "Alt-X") { closePane() }
        case .moveUp: move(pane, by: -1)
        case .moveDown: move(pane, by: 1)
        case .pageUp: move(pane, by: -pane.pageSize)
        case .pageDown: move(pane, by: pane.pageSize)
        case .moveToStart: move(pane, by: Int.min / 2)
        case .moveToEnd: move(pane, by: Int.max / 2)
        case .open:
            if let summary = pane.selectedSummary {
                cutLongChunks(ofArticle: summary.id)
                do {
                    try database.read { try pane.open(articleID: summary.id, $0) }
                    // Opened from a search: at its first match, marked.
                    if !pane.query.search.isEmpty {
                        pane.editor?.showFirstMatch(of: pane.query.search)
                    }
                } catch {
                    message = "Cannot open the article: \(ErrorWords.describe(error))"
                }
            }
        case .back:
            if pane.editor?.find != nil {
                pane.editor?.find = nil  // the matches are no longer marked
            } else if pane.mode != .list {
                guard mayDropTyping(in: pane, toDo: "leaves", again: "Esc") else {
                    return
                }
                pane.mode = .list
                pane.editor = nil
                pane.invalidate()
            } else if !pane.query.search.isEmpty {
                pane.query = ArticleQuery()
                pane.invalidate()
            }
        case .newArticle: newArticle()
        case .deleteArticle: deleteSelected()
        case .setRating(let rating): setRating(rating)
        case .chooseAuthor: openAuthorPicker()
        case .search:
            pane.searchInput = pane.query.search
        case .help: overlay = .help(firstLine: 0)
        case .quit:
            if panes.allSatisfy({ mayDropTyping(in: $0, toDo: "quits", again: "Ctrl-Q") }) {
                requestQuit()
            }
        case .suspend: backend.suspend()
        case .save: message = "Saved: notes writes every change as you make it"
        case .widenPane: resizePane(by: PaneLayout.weightStep)
        case .narrowPane: resizePane(by: -PaneLayout.weightStep)
        case .undoLayout: replayLayout(undoing: true)
        case .redoLayout: replayLayout(undoing: false)
        case .toggleMouse: toggleMouse()
        case .history: toggleHistory()
        case .backInTime: travelInTime(forward: false)
        case .forwardInTime: travelInTime(forward: true)
        }
    }

    private func move(_ pane: Pane, by delta: Int) {
        pane.moveSelection(by: delta)
    }

    /// Cuts a body another program wrote whole (one chunk of megabytes, through the `articles`
    /// view) into chunks of a kilobyte before it opens, outside undo: the text stays the same, so
    /// nothing is recorded, and the first key typed into it writes and records a kilobyte, not
    /// the whole body. When the notebook is busy, the first edit cuts it instead.
    private func cutLongChunks(ofArticle id: Int64) {
        guard (try? database.read({ try Notebook.hasLongChunks($0, ofArticle: id) })) == true
        else { return }
        _ = try? withUndoDisabled {
            try database.write(waitingAtMost: .milliseconds(50)) {
                try Notebook.cutLongChunks($0, ofArticle: id)
            }
        }
    }

    private func newArticle() {
        var id: Int64?
        perform("New Article") { db in id = try Notebook.insertArticle(db, title: "", at: clock()) }
        guard let id else { return }
        let pane = focusedPane
        _ = try? database.read { try pane.select(articleID: id, $0) }
        try? database.read { try pane.open(articleID: id, $0) }
        pane.editor?.field = .title
    }

    private func deleteSelected() {
        guard let summary = focusedPane.selectedSummary else {
            message = "Nothing to delete"
            return
        }
        perform("Delete Article") { db in try Notebook.deleteArticle(db, id: summary.id) }
        focusedPane.selectWhatTakesItsPlace()
        if message == nil {
            let title = summary.title.isEmpty ? "Untitled" : summary.title
            message = "Deleted “\(title)” (Ctrl-Z brings it back)"
        }
    }

    private func setRating(_ rating: Int) {
        guard let summary = focusedPane.selectedSummary else { return }
        perform("Set Rating") { db in
            try Notebook.setRating(db, ofArticle: summary.id, to: rating, at: clock())
        }
        // The list is ordered by last change: follow the article to its new place.
        let pane = focusedPane
        _ = try? database.read { try pane.select(articleID: summary.id, $0) }
    }

    // MARK: Panes

    private func openPane() {
        guard panes.count < 9 else {
            message = "Nine panes at most"
            return
        }
        let room = ScreenLayout.panesThatFit(width: screenLayout.size.width)
        guard panes.count < room else {
            message =
                "No room for another pane: \(counted(room, "pane")) fit in "
                + "\(screenLayout.size.width) columns (Ctrl-X closes one)"
            return
        }
        do {
            let id = try freshStackID()
            try makePane(id)
            changeLayout { layout in
                let index = layout.focus + 1
                layout.stackIDs.insert(id, at: index)
                layout.weights.insert(PaneLayout.defaultWeight, at: index)
                layout.focus = index
            }
        } catch {
            message = "Cannot open a pane: \(ErrorWords.describe(error))"
        }
    }

    private func closePane() {
        guard panes.count > 1 else {
            message = "The last pane stays open (Ctrl-Q quits)"
            return
        }
        changeLayout { layout in
            layout.stackIDs.remove(at: layout.focus)
            layout.weights.remove(at: layout.focus)
            layout.focus = min(layout.focus, layout.stackIDs.count - 1)
        }
        message = "Closed the pane (Alt-Z brings it back)"
    }

    func toggleMouse() {
        isMouseCaptured.toggle()
        backend.setMouseCapture(isMouseCaptured)
        message =
            isMouseCaptured
            ? "Mouse on: click to focus and select, wheel to scroll"
            : "Mouse off: the terminal selects text (Alt-M turns it back on)"
    }

    func resizePane(by step: Int) {
        changeLayout { layout in
            let weight = layout.weights[layout.focus] + step
            layout.weights[layout.focus] = max(PaneLayout.minimumWeight, weight)
        }
    }

    /// Undo or redo of a layout change: the panes come back with their undo history.
    func replayLayout(undoing: Bool) {
        let done = undoing ? layout.undo() : layout.redo()
        guard done else {
            message = "No layout change to \(undoing ? "undo" : "redo")"
            return
        }
        for pane in panes { pane.invalidate() }
        saveLayout()
        message = undoing ? "Undid a layout change" : "Redid a layout change"
    }
}
