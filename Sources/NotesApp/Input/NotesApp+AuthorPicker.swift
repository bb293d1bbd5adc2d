import NoteStore
import TerminalUI

/// The author picker's commands: opening it, its keys, choosing an author.
extension NotesApp {
    func openAuthorPicker() {
        guard let summary = focusedPane.selectedSummary else {
            message = "Select an article first"
            return
        }
        var picker = AuthorPicker(articleID: summary.id)
        do {
            try database.read { try picker.refresh($0) }
            overlay = .authorPicker(picker)
        } catch {
            message = ErrorWords.describe(error)
        }
    }

    func handlePicker(_ key: Key, _ picker: inout AuthorPicker) {
        defer { if case .authorPicker = overlay { overlay = .authorPicker(picker) } }
        if let pending = picker.confirmingDeletion {
            picker.confirmingDeletion = nil
            if Keymaps.confirm.action(for: key) == .confirm {
                overlay = nil
                // The question gone from the screen before the work (and its progress) starts.
                render()
                let deleted = perform("Delete Author") { db in
                    // The author, and their articles and bodies by the cascade.
                    try showingProgress(
                        of: "Deleting \(pending.author.name)",
                        expected: Notebook.rowCount(db, ofAuthor: pending.author.id),
                        in: [Author.tableName, Article.tableName, ArticleChunk.tableName], db
                    ) { try Notebook.deleteAuthor(db, id: pending.author.id) }
                }
                guard deleted else { return }
                // The selected article may be one of the author's: gone by this pane's action.
                focusedPane.selectWhatTakesItsPlace()
                message =
                    "Deleted \(pending.author.name) and \(counted(pending.articles, "article")) "
                    + "(Ctrl-Z brings them back)"
            }
            return
        }
        switch Keymaps.picker.action(for: key) {
        case .cancel:
            overlay = nil
        case .up:
            picker.selected = max(0, picker.selected - 1)
        case .down:
            picker.selected = min(picker.choiceCount - 1, picker.selected + 1)
        case .type(let character):
            picker.filter.append(character)
            picker.selected = 0
        case .erase:
            if !picker.filter.isEmpty { picker.filter.removeLast() }
        case .deleteAuthor:
            guard picker.matches.indices.contains(picker.selected) else { return }
            let author = picker.matches[picker.selected]
            let count =
                (try? database.read {
                    try Notebook.count($0, ArticleQuery(authorId: author.id))
                }) ?? 0
            picker.confirmingDeletion = (author, count)
        case .choose:
            choose(picker)
            overlay = nil
            return
        case nil:
            answer(unbound: key, in: .picker)
            return
        }
        try? database.read { try picker.refresh($0) }
    }

    private func choose(_ picker: AuthorPicker) {
        let articleID = picker.articleID
        let now = clock()
        if picker.matches.indices.contains(picker.selected) {
            let author = picker.matches[picker.selected]
            perform("Set Author") { db in
                try Notebook.setAuthor(db, ofArticle: articleID, to: author.id, at: now)
            }
        } else if picker.createsNewAuthor {
            let name = picker.filter.trimmingCharacters(in: .whitespaces)
            perform("Set Author") { db in
                let id = try Notebook.insertAuthor(db, name: name)
                try Notebook.setAuthor(db, ofArticle: articleID, to: id, at: now)
            }
        }
        let pane = focusedPane
        _ = try? database.read { try pane.select(articleID: articleID, $0) }
    }
}
