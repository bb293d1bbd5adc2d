import TerminalUI

/// The status line, as the frame shows it and as a long undo's progress shows over the last
/// frame: " Pane 1 │ Undo Set Rating │ Nothing to redo │ message".
enum StatusLine {
    /// " Pane `number` │ " and `parts`, each after a bar.
    static func text(pane number: Int, _ parts: [String]) -> String {
        " " + (["Pane \(number)"] + parts).joined(separator: " │ ")
    }

    /// Draws `text` across `rect` in the status line's style, cut to fit its width.
    static func draw(_ text: String, on canvas: inout Canvas, in rect: Rect) {
        canvas.fill(rect, with: Theme.status)
        canvas.put(
            DisplayWidth.fitting(text, in: rect.width), at: rect.origin, style: Theme.status,
            maxWidth: rect.width)
    }
}
