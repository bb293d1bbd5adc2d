/// One screen row of wrapped text: a layout line and one of its rows.
///
/// A layout line is a logical line (split at "\n"), or a piece of one longer
/// than 16 KB (see `LinePieces`); for ordinary text the two are the same.
/// Visual lines are ordered top to bottom, so a viewport is the range between
/// two of them. Counting rows from their layout line keeps every operation
/// local: no row number depends on how the text above it wraps.
struct VisualLine: Hashable, Comparable, Sendable {
    /// The layout line, from 0.
    var line: Int
    /// The row within the logical line, from 0.
    var row: Int

    /// Creates the visual line for `row` of layout line `line`.
    init(line: Int, row: Int) {
        self.line = line
        self.row = row
    }

    static func < (lhs: VisualLine, rhs: VisualLine) -> Bool {
        (lhs.line, lhs.row) < (rhs.line, rhs.row)
    }
}
