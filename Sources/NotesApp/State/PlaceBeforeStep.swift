/// Where the cursor and the selection were before a cut or a paste, with what the step took
/// away: what undoing the step puts back. Kept by the editor under the step's id
/// (`ArticleEditor.placesBeforeSteps`).
struct PlaceBeforeStep: Equatable {
    /// Where the cursor was, told from what the step took away.
    enum Cursor: Equatable {
        /// What the step took away was selected, the cursor at its start or at its end.
        case selection(cursorAtStart: Bool)
        /// Nothing was selected: the cursor was this many bytes into what the step took away
        /// (a line cut from its middle), or at its place (0: a paste took nothing away).
        case offset(Int)
    }

    /// The field the step edited.
    let field: ArticleEditor.Field
    /// The bytes the step took away, in the field's text before it.
    let taken: Range<Int>
    let cursor: Cursor
    /// The field's length in bytes once the step was written.
    var lengthAfter = 0

    /// The place of `buffer`, the text of `field`, before a step that takes `taken` away.
    init(of buffer: EditorBuffer, in field: ArticleEditor.Field, taking taken: Range<Int>) {
        self.field = field
        self.taken = taken
        if let selection = buffer.selection {
            cursor = .selection(cursorAtStart: buffer.cursorOffset == selection.lowerBound)
        } else {
            cursor = .offset(max(0, buffer.cursorOffset - taken.lowerBound))
        }
    }

    /// Puts the cursor (and the selection) of `buffer` back after the undo brought back
    /// `change`, the field having been `lengthBeforeUndo` bytes long. When the field is as the
    /// step left it (the same length), what came back is where the step took it from: a diff
    /// may place a change anywhere in a repeated text ("four" pasted over "fo" reads back as
    /// "ur" deleted). Else, others having written since, it is `change`.
    func restore(in buffer: inout EditorBuffer, after change: Range<Int>, lengthBeforeUndo: Int) {
        let back =
            lengthBeforeUndo == lengthAfter && taken.upperBound <= buffer.text.utf8.count
            ? taken : change
        switch cursor {
        case .selection(let cursorAtStart):
            buffer.select(back, cursorAtStart: cursorAtStart)
        case .offset(let offset):
            _ = buffer.moveCursor(toOffset: min(back.lowerBound + offset, back.upperBound))
        }
    }
}
