/// Where the cursor and the selection were before a cut or a paste, and what the step took
/// away and put in: what undoing the step puts back.
struct PlaceBeforeStep: Equatable {
    /// Where the cursor was, told from what the step took away.
    enum Cursor: Equatable {
        /// What the step took away was selected, the cursor at its start or at its end.
        case selection(cursorAtStart: Bool)
        /// Nothing was selected: the cursor was this many bytes into what the step took away
        /// (a line cut from its middle), or at its place (0: a paste took nothing away).
        case offset(Int)
    }

    /// The bytes the step took away (from the field's text before it), and how many it put in
    /// their place.
    let taken: Range<Int>
    let insertedCount: Int
    let cursor: Cursor

    /// The place of `buffer` before a step that takes `taken` away and puts `insertedCount`
    /// bytes there.
    init(of buffer: EditorBuffer, taking taken: Range<Int>, inserting insertedCount: Int) {
        self.taken = taken
        self.insertedCount = insertedCount
        if let selection = buffer.selection {
            cursor = .selection(cursorAtStart: buffer.cursorOffset == selection.lowerBound)
        } else {
            cursor = .offset(max(0, buffer.cursorOffset - taken.lowerBound))
        }
    }

    /// Puts the cursor (and the selection) of `buffer` back after the undo changed `change`.
    /// What came back is where the step took it from when the change lies within what the
    /// step touched (a diff may place a change anywhere inside a repeated text: "four" pasted
    /// over "fo" reads back as "ur" deleted); else, another pane having moved the text since,
    /// it is the change.
    func restore(in buffer: inout EditorBuffer, after change: Range<Int>) {
        let touched = taken.lowerBound..<(taken.lowerBound + max(taken.count, insertedCount))
        let back =
            touched.lowerBound <= change.lowerBound && change.upperBound <= touched.upperBound
            ? taken : change
        switch cursor {
        case .selection(let cursorAtStart):
            buffer.select(back, cursorAtStart: cursorAtStart)
        case .offset(let offset):
            _ = buffer.moveCursor(toOffset: min(back.lowerBound + offset, back.upperBound))
        }
    }
}

/// The places before this editor's cut and paste steps, in the order of the pane's undo and
/// redo lists: an undo of a cut or a paste takes the newest, a redo gives it back.
struct PlacesBeforeSteps {
    private var undone: [PlaceBeforeStep] = []
    private var done: [PlaceBeforeStep] = []

    /// A new cut or paste: the steps undone before it cannot be redone.
    mutating func noteStep(_ place: PlaceBeforeStep) {
        done.append(place)
        undone.removeAll()
    }

    /// The place to put back as a cut or paste is undone; nil when the editor did not see the
    /// step (the article was opened since).
    mutating func undo() -> PlaceBeforeStep? {
        guard let place = done.popLast() else { return nil }
        undone.append(place)
        return place
    }

    /// A cut or paste redone: its place is the newest again.
    mutating func redo() {
        if let place = undone.popLast() { done.append(place) }
    }
}
