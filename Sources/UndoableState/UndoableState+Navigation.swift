extension UndoableState {
    /// Goes back to the last recorded state; the present becomes the next redo.
    ///
    /// Same as `jump(to: -1)`.
    /// - Returns: `false`, changing nothing, when there is nothing to undo.
    @discardableResult
    public mutating func undo() -> Bool {
        jump(to: -1)
    }

    /// Goes forward to the next undone state; the present goes back onto `past`.
    ///
    /// Same as `jump(to: 1)`.
    /// - Returns: `false`, changing nothing, when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        jump(to: 1)
    }

    /// Moves `offset` steps through the history: back into `past` when
    /// negative, forward into `future` when positive.
    ///
    /// `jump(to: -2)` is two undos and `jump(to: 3)` three redos, in one step.
    /// The order of all states, `past + [present] + future`, never changes;
    /// only which of them is present. Ends any open group.
    ///
    /// - Parameter offset: How many steps to move; `-past.count...future.count`.
    /// - Returns: `false`, changing nothing, when `offset` is zero or out of range.
    @discardableResult
    public mutating func jump(to offset: Int) -> Bool {
        guard offset != 0, (-past.count...future.count).contains(offset) else {
            return false
        }
        let timeline = past + [present] + future
        let target = past.count + offset
        past = Array(timeline[..<target])
        present = timeline[target]
        future = Array(timeline[(target + 1)...])
        openGroup = nil
        trimToLimit()
        return true
    }

    /// Forgets every past and future state, keeping the present.
    ///
    /// Ends any open group, so the next change starts a new undo step.
    public mutating func clearHistory() {
        past.removeAll()
        future.removeAll()
        openGroup = nil
    }
}
