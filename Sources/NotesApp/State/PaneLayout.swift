import TerminalUI
import UndoableState

/// Which panes are open, how wide each is, and which has the focus: the app's in-memory state
/// whose changes (open, close, resize) can be undone with Alt-Z, through `UndoableState`.
struct PaneLayout: Codable, Equatable, Sendable {
    /// The panes' undo-stack ids, left to right.
    var stackIDs: [String]
    /// Relative widths, one per pane.
    var weights: [Int]
    var focus = 0

    static let defaultWeight = 10
    static let minimumWeight = 4
    static let weightStep = 2

    init(stackIDs: [String]) {
        self.stackIDs = stackIDs
        weights = Array(repeating: Self.defaultWeight, count: stackIDs.count)
    }

    /// Whether it can be shown: one to nine panes, each once, a width each, the focus on one.
    var isValid: Bool {
        (1...9).contains(stackIDs.count) && Set(stackIDs).count == stackIDs.count
            && weights.count == stackIDs.count
            && weights.allSatisfy { $0 >= Self.minimumWeight && $0 <= 1000 }
            && stackIDs.indices.contains(focus)
    }

    /// Only opening, closing and resizing go into the history; moving the focus does not.
    static let history: @Sendable (PaneLayout, PaneLayout) -> Bool = { old, new in
        old.stackIDs != new.stackIDs || old.weights != new.weights
    }

    /// The panes' columns in `rect`, one column between panes for the separator, widths in
    /// proportion to the weights.
    func columns(in rect: Rect) -> [Rect] {
        let available = max(0, rect.width - (stackIDs.count - 1))
        let total = max(1, weights.reduce(0, +))
        var widths = weights.map { available * $0 / total }
        // What rounding left over goes to the leftmost panes, a column each.
        for index in 0..<(available - widths.reduce(0, +)) where widths.indices.contains(index) {
            widths[index] += 1
        }
        var x = rect.x
        return widths.map { width in
            defer { x += width + 1 }
            return Rect(x: x, y: rect.y, width: width, height: rect.height)
        }
    }
}
