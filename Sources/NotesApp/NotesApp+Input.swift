import NoteStore
import TerminalUI

extension NotesApp {
    /// Routes one input event: to an open overlay, to a search being typed, or to the keymap.
    func handle(_ event: InputEvent) {
        switch event {
        case .resize:
            return  // the next render uses the new size
        case .mouse(let mouse):
            handleMouse(mouse)
        case .paste(let text):
            if focusedPane.searchInput != nil { typeSearch(text) }
        case .key(let key):
            handle(key)
        }
    }

    private func handle(_ key: Key) {
        switch overlay {
        case .help:
            overlay = nil
            return
        case .authorPicker(var picker):
            handlePicker(key, &picker)
            return
        case nil:
            break
        }
        if focusedPane.searchInput != nil, handleSearchKey(key) { return }
        let inList = focusedPane.mode == .list
        guard let command = Keymap.command(for: key, inList: inList) else {
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
        let layout = ScreenLayout(size: backend.size, paneCount: panes.count)
        guard let index = layout.paneIndex(at: mouse.position) else { return }
        switch mouse.kind {
        case .press(.left):
            focus = index
            let pane = panes[index]
            if pane.mode == .list, let row = layout.listRow(at: mouse.position, pane: index) {
                pane.select(index: pane.top + row)
            }
        case .wheelUp:
            panes[index].moveSelection(by: -3)
        case .wheelDown:
            panes[index].moveSelection(by: 3)
        default:
            break
        }
    }
}
