/// A value together with its undo history, after redux-undo.
///
/// The history is three parts: `past` (oldest first), `present`, and `future`
/// (the next redo first). Record a change with ``set(_:group:)``; move through
/// the history with ``undo()``, ``redo()`` and ``jump(to:)``.
///
/// ```swift
/// var layout = UndoableState(["pane-1", "pane-2"], limit: 100)
/// layout.set(["pane-1"])      // close pane 2
/// layout.undo()               // pane 2 is back
/// ```
///
/// Only changes go into the history: setting a state equal to `present` records
/// nothing. A `filter` can keep chosen changes out of the history, and a `limit`
/// bounds how far back (and forward) the history reaches.
public struct UndoableState<State: Equatable> {
    /// The recorded states before `present`, oldest first; `past.last` is what
    /// ``undo()`` returns to.
    public internal(set) var past: [State]

    /// The current state.
    public internal(set) var present: State

    /// The states ``redo()`` moves forward through, the next one first.
    ///
    /// Recording a change clears it; a change kept out of the history by the
    /// filter does not.
    public internal(set) var future: [State]

    /// The most entries `past` keeps, and likewise `future`; `nil` for no bound.
    ///
    /// When `past` grows beyond the limit the oldest entries are dropped; when
    /// `future` does, the farthest ones are. Setting a smaller limit trims both
    /// at once. A negative limit keeps no history, like `0`.
    public var limit: Int? {
        didSet { trimToLimit() }
    }

    /// Decides, given the current state and a new one, whether the change is
    /// recorded in the history.
    let filter: (@Sendable (State, State) -> Bool)?

    /// The key of the group that the last recorded change opened, while later
    /// changes with the same key may still merge into it.
    var openGroup: (any Hashable & Sendable)?

    /// Creates a history whose present is `present`, with nothing to undo or redo.
    ///
    /// - Parameters:
    ///   - present: The initial state.
    ///   - limit: The most entries kept in `past` (and in `future`); `nil`
    ///     keeps everything.
    ///   - filter: Called with the current state and the new one on every
    ///     ``set(_:group:)`` that changes the state; return `false` to keep that
    ///     change out of the history. `nil` records every change.
    public init(
        _ present: State,
        limit: Int? = nil,
        filter: (@Sendable (State, State) -> Bool)? = nil
    ) {
        self.past = []
        self.present = present
        self.future = []
        self.limit = limit
        self.filter = filter
    }

    /// Restores a history saved earlier (its `past`, `present` and `future`), for example
    /// across a restart of the program, trimmed to `limit`.
    ///
    /// - Parameters:
    ///   - past: The states before `present`, oldest first.
    ///   - present: The current state.
    ///   - future: The states redo moves forward through, the next one first.
    ///   - limit: As in ``init(_:limit:filter:)``.
    ///   - filter: As in ``init(_:limit:filter:)``.
    public init(
        past: [State], present: State, future: [State], limit: Int? = nil,
        filter: (@Sendable (State, State) -> Bool)? = nil
    ) {
        self.init(present, limit: limit, filter: filter)
        self.past = past
        self.future = future
        trimToLimit()
    }

    /// Whether there is a recorded state to go back to.
    public var canUndo: Bool { !past.isEmpty }

    /// Whether there is an undone state to go forward to.
    public var canRedo: Bool { !future.isEmpty }

    /// Whether two group keys are equal; `nil` equals only `nil`.
    static func isSameGroup(
        _ lhs: (any Hashable & Sendable)?,
        _ rhs: (any Hashable & Sendable)?
    ) -> Bool {
        lhs.map { AnyHashable($0) } == rhs.map { AnyHashable($0) }
    }

    /// Drops the oldest past and the farthest future entries beyond `limit`.
    mutating func trimToLimit() {
        guard let limit else { return }
        let bound = max(limit, 0)
        if past.count > bound {
            past.removeFirst(past.count - bound)
        }
        if future.count > bound {
            future.removeLast(future.count - bound)
        }
    }
}

extension UndoableState: Equatable {
    /// Whether two histories hold the same states, limit and open group.
    ///
    /// The filter is not compared: closures cannot be.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.past == rhs.past && lhs.present == rhs.present && lhs.future == rhs.future
            && lhs.limit == rhs.limit && isSameGroup(lhs.openGroup, rhs.openGroup)
    }
}

extension UndoableState: Sendable where State: Sendable {}
