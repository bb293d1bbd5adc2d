import NoteStore
import SQLiteDatabase
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
        case .closePane: closePane()
        case .moveUp: move(pane, by: -1)
        case .moveDown: move(pane, by: 1)
        case .pageUp: move(pane, by: -pane.pageSize)
        case .pageDown: move(pane, by: pane.pageSize)
        case .moveToStart: move(pane, by: Int.min / 2)
        case .moveToEnd: move(pane, by: Int.max / 2)
        case .open:
            if let summary = pane.selectedSummary {
                pane.mode = .article(summary.id)
                pane.articleScroll = 0
                pane.invalidate()
            }
        case .back:
            if pane.mode != .list {
                pane.mode = .list
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
        case .help: overlay = .help
        case .quit: requestQuit()
        case .suspend: backend.suspend()
        case .save: message = "Saved: notes writes every change as you make it"
        }
    }

    private func move(_ pane: Pane, by delta: Int) {
        if pane.mode == .list {
            pane.moveSelection(by: delta)
        } else {
            pane.articleScroll = max(0, pane.articleScroll + max(-10_000, min(10_000, delta)))
        }
    }

    private func newArticle() {
        var id: Int64?
        perform("New Article") { db in id = try Notebook.insertArticle(db, title: "Untitled") }
        guard let id else { return }
        let pane = focusedPane
        _ = try? database.read { try pane.select(articleID: id, $0) }
        pane.mode = .article(id)
        pane.articleScroll = 0
    }

    private func deleteSelected() {
        guard let summary = focusedPane.selectedSummary else {
            message = "Nothing to delete"
            return
        }
        perform("Delete Article") { db in try Notebook.deleteArticle(db, id: summary.id) }
    }

    private func setRating(_ rating: Int) {
        guard let summary = focusedPane.selectedSummary else { return }
        perform("Set Rating") { db in try Notebook.setRating(db, ofArticle: summary.id, to: rating)
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
        do {
            let pane = try makePane(try freshStackID(excluding: []))
            panes.insert(pane, at: focus + 1)
            focus += 1
            try layoutStore.save(panes.map(\.stackID))
        } catch {
            message = "Cannot open a pane: \(error)"
        }
    }

    private func closePane() {
        guard panes.count > 1 else {
            message = "The last pane stays open (Ctrl-Q quits)"
            return
        }
        panes.remove(at: focus)
        focus = min(focus, panes.count - 1)
        try? layoutStore.save(panes.map(\.stackID))
    }
}
