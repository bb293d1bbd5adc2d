import TerminalUI

/// A pane's history panel (`HistoryPanel`): one line per step, newest at the top, "how long
/// ago" on the right; undone steps dimmed above the "now" line; a branch's steps dimmed and
/// marked "├" just above the step they were done on; in an article's history, each step's pane
/// first.
@MainActor
enum HistoryView {
    /// The pane header's words: "History · 12 steps", "History of this article · 3 steps".
    static func title(_ panel: HistoryPanel) -> String {
        let steps = counted(panel.stepCount, "step")
        switch panel.scope {
        case .pane: return "History · \(steps)"
        case .article: return "History of this article · \(steps)"
        }
    }

    static func draw(
        _ history: HistoryState, focused: Bool, on canvas: inout Canvas, in rect: Rect
    ) {
        let panel = history.panel
        canvas.fill(rect, with: .plain)
        guard panel.stepCount > 0 else {
            let text =
                panel.scope == .pane
                ? " No steps yet: what this pane does is listed here"
                : " No steps touched this article yet"
            canvas.put(text, at: rect.origin, style: Theme.secondary, maxWidth: rect.width)
            return
        }
        for (row, line) in history.rows.enumerated() where row < rect.height {
            let index = panel.top + row
            let y = rect.y + row
            let lineRect = Rect(x: rect.x, y: y, width: rect.width, height: 1)
            guard case .step(let words, let value, let ago, let isUndone, let isOnBranch) = line
            else {
                drawNow(on: &canvas, in: lineRect)
                continue
            }
            var style = isUndone ? Theme.secondary : CellStyle.plain
            if index == panel.selected {
                style = focused ? Theme.selectedFocused : Theme.selected
                style.dim = isUndone
            }
            canvas.fill(lineRect, with: style)
            let right = rect.width >= 30 ? ago + " " : ""
            let rightWidth = DisplayWidth.of(right)
            canvas.put(
                text(words, value, isOnBranch: isOnBranch, width: rect.width - rightWidth - 1),
                at: lineRect.origin, style: style, maxWidth: max(0, rect.width - rightWidth - 1))
            canvas.put(right, at: Point(x: rect.maxX - rightWidth, y: y), style: style)
        }
    }

    /// A step's words in `width` columns: cut with "…" before the value, which stays whole.
    static func text(_ words: String, _ value: String, isOnBranch: Bool, width: Int) -> String {
        let lead = isOnBranch ? " ├ " : " "
        let tail = value.isEmpty ? "" : " " + value
        let room = width - DisplayWidth.of(lead + tail)
        guard room > 1 else { return lead + words + tail }
        return lead + DisplayWidth.fitting(words, in: room) + tail
    }

    /// The line between the undone steps and the done ones.
    private static func drawNow(on canvas: inout Canvas, in rect: Rect) {
        let label = " now "
        let side = max(0, (rect.width - DisplayWidth.of(label)) / 2)
        let text =
            String(repeating: "─", count: side) + label
            + String(repeating: "─", count: max(0, rect.width - side - DisplayWidth.of(label)))
        canvas.put(text, at: rect.origin, style: Theme.secondary, maxWidth: rect.width)
    }
}
