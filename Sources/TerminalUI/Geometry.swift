/// A position on the screen, in cells: `x` is the column, `y` the row, both from 0.
public struct Point: Hashable, Sendable {
    /// The column, 0 at the left edge.
    public var x: Int
    /// The row, 0 at the top edge.
    public var y: Int

    /// Creates a point at column `x` and row `y`.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The top-left cell.
    public static let zero = Point(x: 0, y: 0)
}

/// A width and a height, in cells.
public struct Size: Hashable, Sendable {
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// Creates a size of `width` columns and `height` rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// No cells at all.
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle of cells: the area of a pane, a list or a status line.
///
/// A rectangle never has a negative width or height: the helpers that shrink
/// or divide it stop at zero, so layouts degrade to empty areas on a tiny
/// terminal instead of producing nonsense.
public struct Rect: Hashable, Sendable {
    /// The top-left cell.
    public var origin: Point
    /// The number of columns and rows.
    public var size: Size

    /// Creates a rectangle at `origin` of `size`; negative sizes become 0.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
    }

    /// Creates a rectangle from its left column, top row, width and height.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The left column.
    public var x: Int { origin.x }
    /// The top row.
    public var y: Int { origin.y }
    /// The number of columns.
    public var width: Int { size.width }
    /// The number of rows.
    public var height: Int { size.height }
    /// The column just right of the rectangle (exclusive end).
    public var maxX: Int { origin.x + size.width }
    /// The row just below the rectangle (exclusive end).
    public var maxY: Int { origin.y + size.height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    /// Whether `point` is one of the rectangle's cells.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The cells this rectangle shares with `other` (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by the given number of cells on each side.
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        let width = max(0, size.width - left - right)
        let height = max(0, size.height - top - bottom)
        return Rect(
            x: x + min(left, size.width), y: y + min(top, size.height), width: width, height: height
        )
    }

    /// The rectangle shrunk by `dx` columns on the left and right and `dy` rows at top and bottom.
    public func insetBy(dx: Int, dy: Int) -> Rect {
        inset(top: dy, left: dx, bottom: dy, right: dx)
    }

    /// Splits off the top `height` rows (fewer when the rectangle is shorter).
    ///
    /// - Returns: The top rows, and the rest below them.
    public func dividedTop(_ height: Int) -> (top: Rect, rest: Rect) {
        let top = min(max(0, height), size.height)
        return (
            Rect(x: x, y: y, width: width, height: top),
            Rect(x: x, y: y + top, width: width, height: size.height - top)
        )
    }

    /// Splits off the bottom `height` rows (fewer when the rectangle is shorter).
    ///
    /// - Returns: The rest above, and the bottom rows.
    public func dividedBottom(_ height: Int) -> (rest: Rect, bottom: Rect) {
        let bottom = min(max(0, height), size.height)
        return (
            Rect(x: x, y: y, width: width, height: size.height - bottom),
            Rect(x: x, y: maxY - bottom, width: width, height: bottom)
        )
    }

    /// Splits the rectangle into `count` side-by-side columns, for panes.
    ///
    /// The columns are as equal as possible; the leftmost ones get the extra
    /// cells when the width does not divide evenly. `separator` columns are
    /// left free between neighbours (for a divider line). When there is not
    /// room for every column, the rightmost ones are empty.
    ///
    /// - Parameters:
    ///   - count: The number of columns; 0 or less gives no column.
    ///   - separator: The free columns between two neighbours.
    public func columns(_ count: Int, separator: Int = 0) -> [Rect] {
        guard count > 0 else { return [] }
        let gap = max(0, separator)
        let usable = max(0, size.width - gap * (count - 1))
        let base = usable / count
        let extra = usable % count
        var result: [Rect] = []
        result.reserveCapacity(count)
        var left = x
        for index in 0..<count {
            let width = base + (index < extra ? 1 : 0)
            let column = Rect(x: min(left, maxX), y: y, width: width, height: height)
            result.append(column.intersection(self))
            left += width + gap
        }
        return result
    }
}
