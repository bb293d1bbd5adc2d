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
        case .type(let character):
            overSelection { edit(insert: String(character), name: "Typing") }
        case .enter:
            if editor.field == .title {
                focusedPane.editor?.switchField()
            } else {
                overSelection { edit(name: "Typing") { $0.insertNewline() } }
            }
        case .deleteBackward: overSelection { edit(name: "Delete Text") { $0.deleteBackward() } }
        case .deleteForward: deletingForward { $0.deleteForward() }
        case .deleteWordBackward:
            overSelection { edit(name: "Delete Text") { $0.deleteWordBackward() } }
        case .deleteWordForward: deletingForward { $0.deleteWordForward() }
        case .tab where editor.field == .body:
            overSelection { edit(insert: "\t", name: "Typing") }
        case .tab, .switchField: focusedPane.editor?.switchField()
        case .move(let motion): move { motion.apply(to: &$0) }
        case .select(let motion): move { buffer in buffer.select { motion.apply(to: &$0) } }
        case .copy: copy()
        case .cut: cut()
        case .paste:
            guard let text = clipboard.text else {
                message = "Nothing to paste: Ctrl-C copies the selection, Ctrl-X cuts it"
                return
            }
            paste(text)
        case .find: openFind()
        case .findNext: findAgain(forward: true)
        case .findPrevious: findAgain(forward: false)
        }
    }

    /// A bracketed paste or Ctrl-V: one undo step ("Paste") however large, in place of the
    /// selection if there is one.
    func paste(_ text: String) {
        let cursor = focusedPane.editor?.buffer.cursorOffset ?? 0
        let taken = focusedPane.editor?.buffer.selection ?? cursor..<cursor
        keepingPlace(taking: taken) { edit(insert: text, name: "Paste", coalescing: false) }
    }

    /// Typing or deleting with a selection: the step replaces it, and its undo selects again
    /// what comes back, as micro's does (with nothing selected, the undo leaves the cursor at
    /// the change's end).
    private func overSelection(_ edit: () -> Void) {
        guard let selection = focusedPane.editor?.buffer.selection else { return edit() }
        keepingPlace(taking: selection, edit)
    }

    /// Delete or Ctrl-Delete: the undo of the run it starts puts the cursor back before what
    /// comes back, where it was, as nano and micro do (a Backspace's undo leaves it after), and
    /// selects again what a delete of the selection took.
    private func deletingForward(_ change: (inout EditorBuffer) -> EditKind?) {
        guard let buffer = focusedPane.editor?.buffer else { return }
        let cursor = buffer.cursorOffset
        keepingPlace(taking: buffer.selection ?? cursor..<cursor) {
            edit(name: "Delete Text", change)
        }
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
    /// merged with the previous one while the typing run lasts. An edit of a selection starts
    /// a step of its own.
    func edit(
        name: String, coalescing: Bool = true, _ change: (inout EditorBuffer) -> EditKind?
    ) {
        let pane = focusedPane
        if pane.editor?.buffer.selection != nil { pane.editor?.endRun() }
        // The editor is changed where it is, never copied: see `ArticleEditor.buffer`.
        guard pane.editor != nil, let kind = change(&pane.editor!.buffer) else { return }
        if coalescing {
            pane.editor!.noteEdit(inserting: kind.isInsert)
        } else {
            pane.editor!.endRun()
        }
        let key = coalescing ? pane.editor!.runKey : nil
        if !coalescing { pane.editor!.endRun() }
        // A new key asks again before the typing that waits is dropped (`mayDropTyping`).
        pane.editor!.unsaved?.dropAnnouncedFor = nil
        // Typing that waits is written with what follows it, by the next tick.
        if pane.editor!.unsaved == nil { saveTyping(in: pane, as: name, coalescing: key) }
    }

    /// How long a keystroke's write waits for another program's lock before the typing is kept
    /// for the next tick: the screen echoes every key while the notebook is locked.
    static let typingWait = Duration.milliseconds(50)

    /// Writes the typing `pane` shows and the notebook does not have yet (`unsavedFields`) as
    /// one undo step of the pane, named `name` and merged by `key`, or as the step typing that
    /// waited was going to be. Returns whether nothing is left unwritten.
    ///
    /// When the notebook cannot take it now (another program's lock, a full disk), the typing
    /// stays on the screen, the status line says why, and the next tick tries again. An edit at
    /// a place someone else changed since is refused, and the field shows their text.
    @discardableResult
    func saveTyping(
        in pane: Pane, as name: String = "Typing", coalescing key: String? = nil,
        waitingAtMost wait: Duration = typingWait
    ) -> Bool {
        guard let editor = pane.editor else { return true }
        let fields = editor.unsavedFields
        guard !fields.isEmpty else {
            pane.editor?.unsaved = nil
            return true
        }
        let waited = editor.unsaved
        let step = waited.map { ($0.name, $0.coalescingKey) } ?? (name, key)
        let id = editor.articleID
        let edits = fields.map { (field: $0, text: editor.text(of: $0), base: editor.saved($0)) }
        let now = clock()
        var written: [(field: ArticleEditor.Field, text: String, note: String?)] = []
        var layout = editor.bodyLayout
        let commitsBefore = commits.value
        do {
            try writeUndoably(in: pane, step.0, coalescing: step.1, waitingAtMost: wait) { db in
                written = try edits.map { edit in
                    let (text, note) = try Self.write(
                        edit.text, over: edit.base, field: edit.field, ofArticle: id,
                        layout: &layout, at: now, db)
                    return (edit.field, text, note)
                }
            }
        } catch let error where Self.mayPassLater(error) {
            let reason = ErrorWords.describeWait(error)
            pane.editor?.unsaved = UnsavedTyping(
                name: step.0, coalescingKey: step.1, reason: reason,
                dropAnnouncedFor: waited?.dropAnnouncedFor)
            // Said once: the next tries are quiet, and leave what the user did next on show.
            if waited?.reason != reason {
                message = "Typing kept, not saved yet: \(reason); notes tries again"
            }
            return false
        } catch {
            pane.editor?.dropTyping()
            message = "\(step.0) failed: \(ErrorWords.describe(error)); nothing was saved"
            // The field shows the text as stored (the next load).
            pane.invalidate(recounting: false)
            return true
        }
        for edit in written { pane.editor?.noteWritten(edit.text, in: edit.field) }
        pane.editor?.bodyLayout = layout
        pane.noteOwnWrite(commitsBefore: commitsBefore, after: commits.value)
        pane.editor?.unsaved = nil
        message =
            written.lazy.compactMap(\.note).first
            ?? (waited == nil ? nil : "Saved the typing that waited")
        return true
    }

    /// Whether a write that failed with `error` may succeed if tried again as it is: another
    /// program's lock, a full disk, a failing disk. A rule of the notebook, or an edit where
    /// someone else changed the text, fails again.
    private static func mayPassLater(_ error: any Error) -> Bool {
        guard let code = SQLiteError(unwrapping: error)?.code.primary else { return false }
        return [.busy, .locked, .full, .ioError].contains(code)
    }

    /// Whether `pane` may be left (`action`) with typing that could not be written: after one
    /// more try, the first time no, saying so and that `key` again goes on without it; the
    /// second time yes, and the typing is dropped.
    func mayDropTyping(in pane: Pane, toDo action: String, again key: String) -> Bool {
        guard let unsaved = pane.editor?.unsaved else { return true }
        if saveTyping(in: pane, waitingAtMost: .seconds(1)) { return true }
        if unsaved.dropAnnouncedFor == key {
            pane.editor?.dropTyping()
            message = "Dropped the typing that was not saved"
            return true
        }
        pane.editor?.unsaved?.dropAnnouncedFor = key
        message = "Typing not saved (\(unsaved.reason)): \(key) again \(action) without it"
        return false
    }

    /// Writes typing that waited, in every open pane (each tick).
    func retryUnsavedTyping() {
        for pane in panes where pane.editor?.unsaved != nil { saveTyping(in: pane) }
    }

    /// Writes `text`, the field as edited from `base`, and returns what was written, with a
    /// note for the status line when the user should know how. When someone changed the field
    /// since `base` was read (another notes window, another program), the edit is merged into
    /// their text instead of writing over it (`TextSplice.merge`); typing where they deleted
    /// the text goes where their deletion was (`TypingInDeletedText`); an edit of a place both
    /// changed otherwise is refused.
    private static func write(
        _ text: String, over base: String, field: ArticleEditor.Field, ofArticle id: Int64,
        layout: inout BodyLayout?, at date: Date, _ db: Database
    ) throws -> (text: String, note: String?) {
        // A body's edit writes the chunks it touches, when they are as the editor read them.
        if field == .body,
            try Notebook.updateBody(
                db, ofArticle: id, from: base, to: text, layout: &layout, at: date)
        {
            return (text, nil)
        }
        layout = nil
        let stored = try Notebook.article(db, id: id).map { field == .title ? $0.title : $0.body }
        var merged = text
        var note: String?
        if let stored, stored != base {
            if let both = TextSplice.merge(base: base, mine: text, theirs: stored) {
                merged = both
            } else if let kept = TypingInDeletedText.merge(base: base, mine: text, theirs: stored) {
                merged = kept
                note = TypingInDeletedText.note
            } else {
                throw EditCollision()
            }
        }
        switch field {
        case .title: try Notebook.updateTitle(db, ofArticle: id, to: merged, at: date)
        case .body: try Notebook.updateBody(db, ofArticle: id, to: merged, at: date)
        }
        return (merged, note)
    }

    /// A cursor move: ends the typing run.
    private func move(_ motion: (inout EditorBuffer) -> Bool) {
        guard focusedPane.editor != nil else { return }
        if motion(&focusedPane.editor!.buffer) { focusedPane.editor!.endRun() }
    }
}

/// An edit at the place someone else changed since the editor read the text: not written.
struct EditCollision: Error, CustomStringConvertible {
    var description: String {
        "another window or program changed the text there"
    }
}
