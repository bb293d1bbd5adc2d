import NoteStore
import TerminalUI

extension NotesApp {
    /// Routes one input event: to an open overlay, to a search being typed, or to the keymap.
    func handle(_ event: InputEvent) {
        // Any key may write: it waits for the notebook's check (a resize only redraws).
        let isResize = if case .resize = event { true } else { false }
        if !isResize, !finishOpening(waiting: true) { return }
        // Nothing shows what a key would act on: only quitting and suspending work.
        if screenLayout.isTooSmall, event != .key(.control("q")), event != .key(.alt("s")) {
            return
        }
        switch event {
        case .resize:
            return  // the next render uses the new size
        case .mouse(let mouse):
            handleMouse(mouse)
        case .paste(let text):
            if focusedPane.searchInput != nil {
                typeSearch(text)
            } else if overlay == nil, focusedPane.editor != nil {
                paste(text)
            }
        case .key(let key):
            handle(key)
        }
    }

    /// What a key that would edit an article says when the article open in the pane is gone.
    static let goneMessage = "This article was deleted: Esc goes back to the list"

    private func handle(_ key: Key) {
        switch overlay {
        case .help(let firstLine):
            let scrolled = HelpView.scroll(from: firstLine, by: key, in: screenLayout)
            overlay = scrolled.map { .help(firstLine: $0) }
            return
        case .authorPicker(var picker):
            handlePicker(key, &picker)
            return
        case nil:
            break
        }
        if focusedPane.searchInput != nil, handleSearchKey(key) { return }
        if focusedPane.mode != .list, handleEditorKey(key) { return }
        let inList = focusedPane.mode == .list
        let command = Keymap.command(for: key, inList: inList)
        if case .gone = focusedPane.mode, command?.actsOnTheList ?? true {
            message = Self.goneMessage
            return
        }
        guard let command else {
            if case .character = key, inList {
                message = "Press F1 for the keys"
            }
            return
        }
        perform(command)
    }

    // MARK: Search

    /// Keys while a search is typed; returns false for keys that act as usual (undo, panes).
    private func handleSearchKey(_ key: Key) -> Bool {
        let pane = focusedPane
        switch key {
        case .character(let character):
            typeSearch(String(character))
        case .backspace:
            var text = pane.searchInput ?? ""
            if !text.isEmpty { text.removeLast() }
            setSearch(text)
        case .enter:
            pane.searchInput = nil
        case .escape:
            pane.searchInput = nil
            setSearch("")
        default:
            return false
        }
        return true
    }

    private func typeSearch(_ text: String) {
        setSearch((focusedPane.searchInput ?? "") + text)
    }

    private func setSearch(_ text: String) {
        let pane = focusedPane
        if pane.searchInput != nil { pane.searchInput = text }
        pane.query.search = text
        pane.query.order = text.isEmpty ? .updatedDescending : .relevance
        pane.select(index: 0)
        pane.invalidate()
    }

    // MARK: Mouse

    private func handleMouse(_ mouse: MouseEvent) {
        let layout = screenLayout
        guard let index = layout.paneIndex(at: mouse.position) else { return }
        switch mouse.kind {
        case .press(.left):
            focus = index
            let pane = panes[index]
            if pane.mode == .list, let row = layout.listRow(at: mouse.position, pane: index) {
                pane.select(index: pane.top + row)
            } else if var editor = pane.editor {
                let area = ArticleView.areas(in: layout.content(index))
                for (field, rect) in [(ArticleEditor.Field.title, area.title), (.body, area.body)]
                where rect.contains(mouse.position) {
                    if editor.field != field { editor.switchField() }
                    let point = mouse.position
                    if editor.buffer.setCursor(
                        toScreenRow: point.y - rect.y, column: point.x - rect.x)
                    {
                        editor.endRun()
                    }
                }
                pane.editor = editor
            }
        case .wheelUp, .wheelDown:
            let rows = mouse.kind == .wheelUp ? -3 : 3
            if var editor = panes[index].editor {
                _ = editor.body.scroll(by: rows)
                panes[index].editor = editor
            } else {
                panes[index].moveSelection(by: rows)
            }
        default:
            break
        }
    }
}
