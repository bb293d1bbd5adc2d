import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI

extension NotesApp {
    /// Does what a key of an open article's editor asks (`Keymaps.editor`).
    func performEdit(_ action: EditorAction) {
        guard let editor = focusedPane.editor else { return }
        switch action {
        case .type(let character): edit(insert: String(character), name: "Typing")
        case .enter:
            if editor.field == .title {
                focusedPane.editor?.switchField()
            } else {
                edit(name: "Typing") { $0.insertNewline() }
            }
        case .deleteBackward: edit(name: "Delete Text") { $0.deleteBackward() }
        case .deleteForward: edit(name: "Delete Text") { $0.deleteForward() }
        case .deleteWordBackward: edit(name: "Delete Text") { $0.deleteWordBackward() }
        case .tab where editor.field == .body: edit(insert: "\t", name: "Typing")
        case .tab, .switchField: focusedPane.editor?.switchField()
        case .left: move { $0.moveLeft() }
        case .right: move { $0.moveRight() }
        case .up: move { $0.moveUp() }
        case .down: move { $0.moveDown() }
        case .lineStart: move { $0.moveToLineStart() }
        case .lineEnd: move { $0.moveToLineEnd() }
        case .textStart: move { $0.moveToStart() }
        case .textEnd: move { $0.moveToEnd() }
        case .pageUp: move { $0.pageUp() }
        case .pageDown: move { $0.pageDown() }
        case .wordLeft: move { $0.moveWordLeft() }
        case .wordRight: move { $0.moveWordRight() }
        }
    }

    /// A bracketed paste: one undo step ("Paste") however large.
    func paste(_ text: String) {
        edit(insert: text, name: "Paste", coalescing: false)
    }

    private func edit(insert text: String, name: String, coalescing: Bool = true) {
        let field = focusedPane.editor?.field
        // The title is one line: line breaks typed or pasted into it become spaces.
        let text =
            field == .title
            ? text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(
                of: "\n", with: " "
            )
            .replacingOccurrences(of: "\r", with: " ")
            : text
        edit(name: name, coalescing: coalescing) { $0.insert(text) }
    }

    /// Applies an edit to the focused field and writes the field to the notebook as one barrier,
    /// merged with the previous one while the typing run lasts.
    private func edit(
        name: String, coalescing: Bool = true, _ change: (inout EditorBuffer) -> EditKind?
    ) {
        let pane = focusedPane
        guard var editor = pane.editor, let kind = change(&editor.buffer) else { return }
        if coalescing {
            editor.noteEdit(inserting: kind.isInsert)
        } else {
            editor.endRun()
        }
        let id = editor.articleID
        let field = editor.field
        let text = editor.buffer.text
        let base = editor.saved(field)
        let key = coalescing ? editor.runKey : nil
        if !coalescing { editor.endRun() }
        pane.editor = editor
        let now = clock()
        var written: String?
        perform(name, coalescing: key) { db in
            written = try Self.write(text, over: base, field: field, ofArticle: id, at: now, db)
        }
        guard let written else {
            // Refused, or failed: the field shows the text as stored (the next load).
            pane.invalidate(recounting: false)
            return
        }
        pane.editor?.noteSaved(written, in: field)
        if written != text { _ = pane.editor?.buffer.replaceText(written) }
    }

    /// Writes `text`, the field as edited from `base`, and returns what was written. When
    /// someone changed the field since `base` was read (another notes window, another program),
    /// the edit is merged into their text instead of writing over it (`TextSplice.merge`), or refused
    /// when both changed the same place.
    private static func write(
        _ text: String, over base: String, field: ArticleEditor.Field, ofArticle id: Int64,
        at date: Date, _ db: Database
    ) throws -> String {
        let stored = try Notebook.article(db, id: id).map { field == .title ? $0.title : $0.body }
        var merged = text
        if let stored, stored != base {
            guard let both = TextSplice.merge(base: base, mine: text, theirs: stored) else {
                throw EditCollision()
            }
            merged = both
        }
        switch field {
        case .title: try Notebook.updateTitle(db, ofArticle: id, to: merged, at: date)
        case .body: try Notebook.updateBody(db, ofArticle: id, to: merged, at: date)
        }
        return merged
    }

    /// A cursor move: ends the typing run.
    private func move(_ motion: (inout EditorBuffer) -> Bool) {
        guard var editor = focusedPane.editor else { return }
        if motion(&editor.buffer) { editor.endRun() }
        focusedPane.editor = editor
    }
}

/// An edit at the place someone else changed since the editor read the text: not written.
struct EditCollision: Error, CustomStringConvertible {
    var description: String {
        "another window or program changed the text there"
    }
}
