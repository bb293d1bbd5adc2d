import UndoableState

/// The three parts of a history as one value, so a test compares them at once
/// and a failure prints all three.
struct Timeline<State: Equatable>: Equatable {
    var past: [State]
    var present: State
    var future: [State]
}

extension UndoableState {
    /// `past`, `present` and `future` as one comparable value.
    var timeline: Timeline<State> {
        Timeline(past: past, present: present, future: future)
    }

    /// A history that started at `initial` and recorded `changes` in order.
    static func recording(
        _ initial: State,
        _ changes: [State],
        limit: Int? = nil
    ) -> UndoableState<State> {
        var history = UndoableState(initial, limit: limit)
        for change in changes {
            history.set(change)
        }
        return history
    }
}
