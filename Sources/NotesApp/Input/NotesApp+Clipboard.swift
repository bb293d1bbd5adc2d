import TerminalUI

extension NotesApp {
    /// The most a copy or a cut sends to the terminal's clipboard (OSC 52 takes it in base64,
    /// a third more; terminals cap it, and a megabyte would stall the screen): more stays in
    /// notes' clipboard only, and the status line says so.
    static let terminalClipboardLimit = 256 * 1024

    /// Ctrl-C: copies the selection, or the cursor's line when nothing is selected, to the
    /// window's clipboard and the terminal's.
    func copy() {
        guard let (range, text) = selectionOrLine() else { return }
        guard !range.isEmpty else {
            message = "Nothing to copy: Shift with the arrows selects"
            return
        }
        clipboard.copy(text)
        message = "Copied \(Self.size(of: text))" + sendToTerminal(text)
    }

    /// Ctrl-X: cuts the selection, or the cursor's line when nothing is selected (lines cut by
    /// keys in a row add up), as one undo step, "Cut".
    func cut() {
        let selected = focusedPane.editor?.buffer.selection != nil
        guard let (range, text) = selectionOrLine() else { return }
        guard !range.isEmpty else {
            message = "Nothing to cut: Shift with the arrows selects"
            return
        }
        let taken: String
        if selected {
            clipboard.copy(text)
            taken = text
        } else {
            taken = clipboard.cutLine(text, byEvent: eventsHandled)
        }
        keepingPlace(taking: range) {
            edit(name: "Cut", coalescing: false) { buffer in
                buffer.select(range)
                return buffer.deleteSelection()
            }
        }
        // Line cuts in a row add up: say what the clipboard holds now, not only this cut.
        let holding = taken == text ? "" : " (\(Self.size(of: taken)) on the clipboard)"
        message = "Cut \(Self.size(of: text))\(holding)" + sendToTerminal(taken)
    }

    /// Runs `step`, a cut, a paste or a forward delete taking `range` away from the focused
    /// field (a delete: the cursor's place, or the selection), and keeps where the cursor and
    /// the selection were before it under the step's id, for its undo
    /// (`ArticleEditor.placesBeforeSteps`): when it filed a step of its own, nothing waiting.
    func keepingPlace(taking range: Range<Int>, _ step: () -> Void) {
        let pane = focusedPane
        // Read in place: a copy of the editor kept across the edit would copy the whole text.
        let before = pane.editor.map { PlaceBeforeStep(of: $0.buffer, in: $0.field, taking: range) }
        let topBefore = pane.stack?.history.undo.first?.id
        step()
        guard var place = before, let top = pane.stack?.history.undo.first, top.id != topBefore,
            pane.editor?.unsaved == nil, let length = pane.editor?.text(of: place.field).utf8.count
        else { return }
        place.lengthAfter = length
        pane.editor?.placesBeforeSteps[top.id] = place
    }

    /// The focused field's selection, or the cursor's line, and its text; read in place (the
    /// buffer is not copied: a body may be megabytes).
    private func selectionOrLine() -> (Range<Int>, String)? {
        guard let buffer = focusedPane.editor?.buffer else { return nil }
        let range = buffer.selection ?? buffer.cursorLine
        return (range, String(buffer.layout.substring(range)))
    }

    /// Puts `text` on the terminal's clipboard when it is not too long for it; returns what the
    /// status line adds when it is.
    private func sendToTerminal(_ text: String) -> String {
        guard text.utf8.count <= Self.terminalClipboardLimit else {
            return " (in notes only: too long for the terminal's clipboard)"
        }
        backend.copyToClipboard(text)
        return ""
    }

    /// "3 lines" or "12 characters": how much was copied or cut.
    private static func size(of text: String) -> String {
        let breaks = text.utf8.count { $0 == UInt8(ascii: "\n") }
        if breaks == 0 { return counted(text.count, "character") }
        return counted(text.hasSuffix("\n") ? breaks : breaks + 1, "line")
    }
}
