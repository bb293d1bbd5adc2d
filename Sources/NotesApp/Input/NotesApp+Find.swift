import TerminalUI

extension NotesApp {
    /// Ctrl-F: opens the find prompt in the status line, for the body of the open article.
    func openFind() {
        let pane = focusedPane
        guard pane.editor != nil else { return }
        let inTitle = pane.editor!.field == .title
        if inTitle { pane.editor!.switchField() }
        pane.editor!.find = ArticleFind(
            text: "", origin: pane.editor!.body.cursorOffset,
            originScroll: pane.editor!.body.scrollAnchor, openedInTitle: inTitle)
        message = nil
    }

    /// Does what a key of the find prompt asks (`Keymaps.find`).
    func performFind(_ action: FindAction) {
        guard let find = focusedPane.editor?.find else { return }
        switch action {
        case .type(let character): setFind(find.text + String(character))
        case .erase: setFind(String(find.text.dropLast()))
        case .next: findAgain(forward: true)
        case .previous: findAgain(forward: false)
        case .done:
            focusedPane.editor?.find = find.text.isEmpty ? nil : ArticleFind(text: find.text)
        case .cancel:
            if let origin = find.origin, focusedPane.editor != nil {
                // The cursor and the view as they were: no move in between to scroll the view.
                focusedPane.editor!.field = .body
                focusedPane.editor!.body.restore(cursor: origin, scrollAnchor: find.originScroll)
                focusedPane.editor!.endRun()
            }
            if find.openedInTitle { focusedPane.editor?.switchField() }
            focusedPane.editor?.find = nil
            message = nil
        }
    }

    /// Adds pasted text to what the prompt looks for, its line breaks as the body has them.
    func typeFind(_ text: String) {
        setFind((focusedPane.editor?.find?.text ?? "") + NewlineNormalization.normalized(text))
    }

    /// Looks for `text` from where the prompt opened: the cursor goes to the first match at or
    /// after it (wrapping to the top), or back there when there is none.
    private func setFind(_ text: String) {
        guard let origin = focusedPane.editor?.find?.origin else { return }
        focusedPane.editor?.find?.text = text
        guard !text.isEmpty else {
            goToFound(origin..<origin)
            message = nil
            return
        }
        // Read in place: the body is not copied (it may be megabytes).
        let body = focusedPane.editor?.body.text ?? ""
        if let found = TextFinder.next(text, in: body, wrappingFrom: origin) {
            goToFound(found.range)
            message = found.wrapped ? "Wrapped to the top" : nil
        } else {
            goToFound(origin..<origin)
            message = "No match for “\(text)”"
        }
    }

    /// F3, Shift-F3, Ctrl-G: the next or previous match of what was found last, wrapping at
    /// the end or the start of the body.
    func findAgain(forward: Bool) {
        guard let text = focusedPane.editor?.find?.text, !text.isEmpty,
            let body = focusedPane.editor?.body.text,
            let cursor = focusedPane.editor?.body.cursorOffset
        else {
            message = "Nothing to find again: Ctrl-F finds text in the article"
            return
        }
        let after = focusedPane.editor?.body.layout.boundary(after: cursor) ?? body.utf8.count
        let found =
            forward
            ? TextFinder.next(text, in: body, wrappingFrom: after)
            : TextFinder.previous(text, in: body, wrappingBefore: cursor)
        guard let found else {
            message = "No match for “\(text)”"
            return
        }
        goToFound(found.range)
        message = found.wrapped ? (forward ? "Wrapped to the top" : "Wrapped to the bottom") : nil
    }

    /// Puts the body's cursor at the start of `match`. The editor is changed where it is, never
    /// copied: a copy of a body of megabytes at every key would cost what the body costs.
    private func goToFound(_ match: Range<Int>) {
        let pane = focusedPane
        guard pane.editor != nil else { return }
        pane.editor!.field = .body
        if pane.editor!.body.moveCursor(toOffset: match.lowerBound) { pane.editor!.endRun() }
    }
}
