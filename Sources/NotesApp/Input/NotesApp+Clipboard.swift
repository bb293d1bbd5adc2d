import TerminalUI

extension NotesApp {
    /// Ctrl-C: copies the selection, or the cursor's line when nothing is selected, to the
    /// window's clipboard and the terminal's.
    func copy() {
        guard let buffer = focusedPane.editor?.buffer else { return }
        let text = buffer.selectedText ?? String(buffer.layout.substring(buffer.cursorLine))
        guard !text.isEmpty else {
            message = "Nothing to copy: Shift with the arrows selects"
            return
        }
        clipboard.copy(text)
        backend.copyToClipboard(text)
        message = "Copied \(Self.size(of: text))"
    }

    /// Ctrl-X: cuts the selection, or the cursor's line when nothing is selected (lines cut by
    /// keys in a row add up), as one undo step, "Cut".
    func cut() {
        guard let buffer = focusedPane.editor?.buffer else { return }
        let range = buffer.selection ?? buffer.cursorLine
        guard !range.isEmpty else {
            message = "Nothing to cut: Shift with the arrows selects"
            return
        }
        let text = String(buffer.layout.substring(range))
        if buffer.selection == nil {
            clipboard.cutLine(text, byEvent: eventsHandled)
        } else {
            clipboard.copy(text)
        }
        edit(name: "Cut", coalescing: false) { buffer in
            buffer.select(range)
            return buffer.deleteSelection()
        }
        backend.copyToClipboard(clipboard.text ?? text)
        message = "Cut \(Self.size(of: text))"
    }

    /// "3 lines" or "12 characters": how much was copied or cut.
    private static func size(of text: String) -> String {
        let breaks = text.utf8.count { $0 == UInt8(ascii: "\n") }
        if breaks == 0 { return counted(text.count, "character") }
        return counted(text.hasSuffix("\n") ? breaks : breaks + 1, "line")
    }
}
