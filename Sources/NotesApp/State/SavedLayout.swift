import UndoableState

/// A pane layout with its history of changes (what Alt-Z and Alt-Y move through), as the
/// notebook keeps it between runs (`PaneLayoutStore`).
struct SavedLayout: Codable, Equatable {
    /// The layouts before `present`, oldest first.
    var past: [PaneLayout]
    var present: PaneLayout
    /// The layouts Alt-Y goes forward to, the next one first.
    var future: [PaneLayout]

    init(past: [PaneLayout], present: PaneLayout, future: [PaneLayout]) {
        self.past = past
        self.present = present
        self.future = future
    }

    init(_ layout: UndoableState<PaneLayout>) {
        self.init(past: layout.past, present: layout.present, future: layout.future)
    }

    /// The history to run with.
    var undoableState: UndoableState<PaneLayout> {
        UndoableState(
            past: past, present: present, future: future, limit: PaneLayoutStore.historyLimit,
            filter: PaneLayout.history)
    }

    /// Every stack the layout names, open now or in its history.
    var stackIDs: Set<String> {
        Set((past + [present] + future).flatMap(\.stackIDs))
    }

    /// Whether every layout in it can be shown (a file edited by hand may hold anything).
    var isValid: Bool {
        (past + [present] + future).allSatisfy(\.isValid)
    }

    /// Closes the rightmost pane, as a change Alt-Z undoes.
    mutating func closeLastPane() {
        past.append(present)
        present.stackIDs.removeLast()
        present.weights.removeLast()
        present.focus = min(present.focus, present.stackIDs.count - 1)
        future = []
        if past.count > PaneLayoutStore.historyLimit { past.removeFirst() }
    }
}
