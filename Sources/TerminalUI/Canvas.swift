/// A screenful of styled cells that views draw into and a backend shows.
///
/// Drawing is always safe: text is clipped to the canvas, a wide character
/// is never cut in half (a space stands in when only one column is left), and
/// control characters are drawn as visible stand-ins ("^[" for ESC), so no
/// escape sequence in user data can reach the terminal.
public struct Canvas: Hashable, Sendable {
    /// One screen cell: a grapheme, or the right half of the wide grapheme to its left.
    public struct Cell: Hashable, Sendable {
        /// What a cell shows.
        public enum Content: Hashable, Sendable {
            /// A grapheme starting in this cell (1 or 2 columns wide).
            case character(Character)
            /// The right half of the 2-column grapheme in the cell to the left.
            case continuation
        }

        /// What the cell shows.
        public var content: Content
        /// How the cell looks.
        public var style: CellStyle

        /// Creates a cell.
        public init(content: Content, style: CellStyle = .plain) {
            self.content = content
            self.style = style
        }

        /// A plain space: what a new canvas is filled with.
        public static let blank = Cell(content: .character(" "))
    }

    /// The number of columns and rows.
    public let size: Size
    private var cells: [Cell]

    /// Creates a canvas of blank cells; negative sizes become 0.
    public init(size: Size) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        cells = Array(repeating: .blank, count: self.size.width * self.size.height)
    }

    /// The whole canvas as a rectangle at the origin.
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The cell at `point`, or nil outside the canvas.
    public func cell(at point: Point) -> Cell? {
        guard bounds.contains(point) else { return nil }
        return cells[point.y * size.width + point.x]
    }

    /// Draws `text` on one row, starting at `point`, clipped to `maxWidth` columns and the canvas.
    ///
    /// Graphemes of width 0 (a combining mark with no base) are skipped. When
    /// a 2-column grapheme would cross the limit, a space is drawn in the one
    /// column left and drawing stops. Cells left of column 0 are skipped but
    /// counted, so text can scroll off the left edge.
    ///
    /// - Parameters:
    ///   - text: The text to draw; newlines and other controls appear as stand-ins.
    ///   - point: The cell of the first grapheme.
    ///   - style: The style of every cell drawn.
    ///   - maxWidth: The most columns to use; nil for up to the right edge.
    /// - Returns: The columns the drawn text spans, from `point.x`.
    @discardableResult
    public mutating func put(
        _ text: some StringProtocol,
        at point: Point,
        style: CellStyle = .plain,
        maxWidth: Int? = nil
    ) -> Int {
        guard point.y >= 0, point.y < size.height else { return 0 }
        let available = max(0, maxWidth ?? Int.max)
        let end = available >= size.width - point.x ? size.width : point.x + available
        var column = point.x
        for character in text {
            guard column < end else { break }
            switch Glyph(character) {
            case .text(_, width: 0):
                continue
            case .text(let shown, let width):
                if column + width > end {
                    set(" ", width: 1, at: Point(x: column, y: point.y), style: style)
                    return column + 1 - point.x
                }
                set(shown, width: width, at: Point(x: column, y: point.y), style: style)
                column += width
            case .replacement(let standIn):
                for shown in standIn {
                    guard column < end else { break }
                    set(shown, width: 1, at: Point(x: column, y: point.y), style: style)
                    column += 1
                }
            }
        }
        return column - point.x
    }

    /// Fills `rect` (clipped to the canvas) with spaces in `style`.
    public mutating func fill(_ rect: Rect, with style: CellStyle = .plain) {
        let area = rect.intersection(bounds)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                set(" ", width: 1, at: Point(x: x, y: y), style: style)
            }
        }
    }

    /// Gives every cell in `rect` (clipped to the canvas) `style`, keeping its content.
    public mutating func setStyle(in rect: Rect, _ style: CellStyle) {
        let area = rect.intersection(bounds)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                cells[y * size.width + x].style = style
            }
        }
    }

    /// The screen as text: one line per row joined with "\n", trailing spaces trimmed.
    ///
    /// Styles are not shown; a wide grapheme appears once. Tests compare
    /// whole screens with it.
    public var text: String {
        var lines: [String] = []
        lines.reserveCapacity(size.height)
        for y in 0..<size.height {
            var line = ""
            for x in 0..<size.width {
                if case .character(let character) = cells[y * size.width + x].content {
                    line.append(character)
                }
            }
            while line.last == " " {
                line.removeLast()
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Stores a grapheme of `width` (1 or 2) at `point`, which may lie left of column 0.
    private mutating func set(_ character: Character, width: Int, at point: Point, style: CellStyle)
    {
        if width == 2, point.x == -1 {
            // Only the right half would show: a space stands in for it.
            set(" ", width: 1, at: Point(x: 0, y: point.y), style: style)
            return
        }
        guard point.x >= 0, point.x + width <= size.width else { return }
        let row = point.y * size.width
        for x in point.x..<(point.x + width) {
            detachWideNeighbours(at: row + x, column: x)
        }
        cells[row + point.x] = Cell(content: .character(character), style: style)
        if width == 2 {
            cells[row + point.x + 1] = Cell(content: .continuation, style: style)
        }
    }

    /// Before cell `index` is overwritten, replaces the other half of a wide
    /// grapheme it belongs to with a space, so no half-grapheme remains.
    private mutating func detachWideNeighbours(at index: Int, column: Int) {
        if cells[index].content == .continuation, column > 0 {
            cells[index - 1].content = .character(" ")
        }
        if column + 1 < size.width, cells[index + 1].content == .continuation {
            cells[index + 1].content = .character(" ")
        }
    }
}
