import Foundation
import TerminalUI

/// A pane's history panel (`HistoryPanel`): one line per step, newest at the top, "how long
/// ago" on the right; undone steps dimmed above the "now" line; in an article's history, each
/// step's pane first.
@MainActor
enum HistoryView {
    /// The pane header's words: "History · 12 steps", "History of this article · 3 steps".
    static func title(_ panel: HistoryPanel, of pane: Pane) -> String {
        let steps = counted(panel.stepCount, "step")
        switch panel.scope {
        case .pane: return "History · \(steps)"
        case .article: return "History of this article · \(steps)"
        }
    }

    static func draw(
        _ panel: HistoryPanel, app: NotesApp, pane: Pane, on canvas: inout Canvas, in rect: Rect
    ) {
        canvas.fill(rect, with: .plain)
        guard panel.stepCount > 0 else {
            let text =
                panel.scope == .pane
                ? " No steps yet: what this pane does is listed here"
                : " No steps touched this article yet"
            canvas.put(text, at: rect.origin, style: Theme.secondary, maxWidth: rect.width)
            return
        }
        let focused = pane === app.focusedPane
        let now = app.clock()
        // Each stack named once a frame: a stack no pane shows is looked up among the leases.
        var paneNames: [String: String] = [:]
        for row in 0..<rect.height {
            let index = panel.top + row
            guard index < panel.lineCount else { break }
            let y = rect.y + row
            let lineRect = Rect(x: rect.x, y: y, width: rect.width, height: 1)
            guard let line = panel.line(at: index, stackID: pane.stackID) else {
                drawNow(on: &canvas, in: lineRect)
                continue
            }
            var style = line.isUndone ? Theme.secondary : CellStyle.plain
            if index == panel.selected {
                style = focused ? Theme.selectedFocused : Theme.selected
                style.dim = line.isUndone
            }
            canvas.fill(lineRect, with: style)
            var left = app.describe(line, in: panel)
            if case .article = panel.scope {
                let paneName =
                    paneNames[line.stackID] ?? app.paneName(ofStack: line.stackID).capitalizedFirst
                paneNames[line.stackID] = paneName
                left = paneName + " · " + left
            }
            let right = rect.width >= 30 ? StepSummary.ago(line.step.date, now: now) + " " : ""
            let rightWidth = DisplayWidth.of(right)
            canvas.put(
                " " + left, at: lineRect.origin, style: style,
                maxWidth: max(0, rect.width - rightWidth - 1))
            canvas.put(right, at: Point(x: rect.maxX - rightWidth, y: y), style: style)
        }
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

extension String {
    /// "pane 2" → "Pane 2".
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
