extension UndoableState {
    /// Makes `newState` the present, recording the change in the history.
    ///
    /// - A state equal to `present` changes nothing: no entry, and an open
    ///   group stays open.
    /// - A recorded change pushes the old present onto `past` and clears
    ///   `future`.
    /// - A change the filter rejects replaces `present` and leaves `past` and
    ///   `future` alone, as in ReSwiftUndo. The rejected state is not lost: the
    ///   next recorded change pushes it onto `past`, and an undo puts it at the
    ///   front of `future`, so redo comes back to it. (redux-undo instead skips
    ///   back to the last recorded state, which makes undo also discard the
    ///   rejected changes that came before.)
    /// - Consecutive changes with the same non-nil `group` merge into one
    ///   history entry: the first pushes onto `past`, later ones only replace
    ///   `present`. A change with another key or none, or any undo, redo, jump
    ///   or ``clearHistory()``, ends the group. A rejected change with the same
    ///   key leaves the group open.
    ///
    /// - Parameters:
    ///   - newState: The state to make present.
    ///   - group: A key that merges this change with the changes just before
    ///     it that carry the same key, for example one key per typing burst.
    public mutating func set(_ newState: State, group: (any Hashable & Sendable)? = nil) {
        guard newState != present else { return }
        if !Self.isSameGroup(group, openGroup) {
            openGroup = nil
        }
        if let filter, !filter(present, newState) {
            present = newState
            return
        }
        if openGroup == nil {
            past.append(present)
            future.removeAll()
            openGroup = group
            trimToLimit()
        }
        present = newState
    }
}
