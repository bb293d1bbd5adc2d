import NoteStore
import TerminalUI

extension NotesApp {
    /// Routes one input event: to an open overlay, to a search being typed, or to the keymap.
    func handle(_ event: InputEvent) {
        // Any key may write: it waits for the notebook's check (a resize only redraws).
        let isResize = if case .resize = event { true } else { false }
        if !isResize, !finishOpening(waiting: true) { return }
        // Nothing shows what a key would act on: it waits, unless it makes the panes fit.
        if screenLayout.isTooSmall {
            if case .key(let key) = event, let command = Keymaps.everywhere.action(for: key),
                TooSmallTerminal.commandsThatWork.contains(command)
            {
                perform(command)
            } else if !isResize {
                heldWhileTooSmall.hold(event)
            }
            return
        }
        releaseHeldEvents()
        if !isResize { eventsHandled += 1 }
        switch event {
        case .resize:
            return  // the next render uses the new size
        case .mouse(let mouse):
            handleMouse(mouse)
        case .paste(let text):
            if focusedPane.searchInput != nil {
                typeSearch(text)
            } else if overlay == nil, focusedPane.editor?.find?.isTyping == true {
                typeFind(text)
            } else if overlay == nil, focusedPane.editor != nil {
                paste(text)
            }
        case .key(let key):
            handle(key)
        }
    }

    /// Handles, in order, what came while the terminal was too small, and says what it could
    /// not keep.
    func releaseHeldEvents() {
        let (events, dropped) = heldWhileTooSmall.release()
        for event in events {
            handle(event)
            settleSelection()
        }
        if dropped > 0 {
            message =
                "\(counted(dropped, "key")) typed while the terminal was too small were "
                + "not kept"
        }
    }

    /// What a key that would edit an article says when the article open in the pane is gone.
    static let goneMessage = "This article was deleted: Esc goes back to the list"

    /// A key goes to the open overlay, else to the keymap of what the focused pane shows (a
    /// search being typed first), else to the keys that work everywhere.
    private func handle(_ key: Key) {
        switch overlay {
        case .help(let firstLine):
            let action = Keymaps.help.action(for: key) ?? .close
            overlay = HelpView.scroll(from: firstLine, by: action, in: screenLayout).map {
                .help(firstLine: $0)
            }
            return
        case .authorPicker(var picker):
            handlePicker(key, &picker)
            return
        case nil:
            break
        }
        let pane = focusedPane
        if pane.historyPanel != nil {
            if let action = Keymaps.history.action(for: key) { return performHistory(action) }
            if let command = Keymaps.everywhere.action(for: key) { return perform(command) }
            answer(unbound: key, in: .history)
            return
        }
        if pane.searchInput != nil, let action = Keymaps.search.action(for: key) {
            performSearch(action)
            return
        }
        if pane.editor?.find?.isTyping == true {
            if let action = Keymaps.find.action(for: key) { return performFind(action) }
            // Any other key closes the prompt at the match, and does what it does.
            performFind(.done)
        }
        switch pane.mode {
        case .article:
            if let action = Keymaps.editor.action(for: key) { return performEdit(action) }
        case .list:
            if let command = Keymaps.list.action(for: key) { return perform(command) }
        case .gone:
            break
        }
        if let command = Keymaps.everywhere.action(for: key) {
            perform(command)
        } else if case .gone = pane.mode {
            message = Self.goneMessage
        } else {
            answer(unbound: key, in: pane.editor == nil ? .list : .article)
        }
    }

    /// Says in the status line that `key` does nothing here (`UnboundKey`).
    func answer(unbound key: Key, in place: UnboundKey.Place) {
        message = UnboundKey.message(for: key, in: place)
        messageAnswersAKey = true
    }

    // MARK: Search

    private func performSearch(_ action: SearchAction) {
        let pane = focusedPane
        switch action {
        case .type(let character):
            typeSearch(String(character))
        case .erase:
            var text = pane.searchInput ?? ""
            if !text.isEmpty { text.removeLast() }
            setSearch(text)
        case .keep:
            pane.searchInput = nil
        case .clear:
            pane.searchInput = nil
            setSearch("")
        }
    }

    private func typeSearch(_ text: String) {
        setSearch((focusedPane.searchInput ?? "") + text)
    }

    private func setSearch(_ text: String) {
        let pane = focusedPane
        if pane.searchInput != nil { pane.searchInput = text }
        pane.search(for: text)
        pane.select(index: 0)
        pane.invalidate()
    }

    // MARK: Mouse

    private func handleMouse(_ mouse: MouseEvent) {
        // A click or a drag moves the cursor: the find prompt closes where it is.
        if focusedPane.editor?.find?.isTyping == true { performFind(.done) }
        let layout = screenLayout
        guard let index = layout.paneIndex(at: mouse.position) else { return }
        switch mouse.kind {
        case .press(.left):
            focus = index
            let pane = panes[index]
            if var panel = pane.historyPanel {
                if let row = layout.listRow(at: mouse.position, pane: index) {
                    panel.select(panel.top + row, stackID: pane.stackID, direction: 1)
                    pane.historyPanel = panel
                }
            } else if pane.mode == .list,
                let row = layout.listRow(at: mouse.position, pane: index)
            {
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
        case .drag:
            // A drag from a press in a field selects, the cursor following the pointer (past
            // the field's edge, the text scrolls).
            let pane = panes[index]
            guard index == focus, pane.historyPanel == nil, pane.editor != nil else { return }
            let area = ArticleView.areas(in: layout.content(index))
            let rect = pane.editor!.field == .title ? area.title : area.body
            // Changed where it is, never copied (a body may be megabytes).
            pane.editor!.buffer.select {
                $0.setCursor(
                    toScreenRow: mouse.position.y - rect.y,
                    column: max(0, mouse.position.x - rect.x))
            }
            pane.editor!.endRun()
        case .wheelUp, .wheelDown:
            let rows = mouse.kind == .wheelUp ? -3 : 3
            if var panel = panes[index].historyPanel {
                panel.move(by: rows, stackID: panes[index].stackID)
                panes[index].historyPanel = panel
            } else if var editor = panes[index].editor {
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
