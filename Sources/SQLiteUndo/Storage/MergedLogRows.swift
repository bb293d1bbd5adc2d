import SQLiteDatabase

/// Rows read from several cursors of the log, each in the order its rows took effect, merged
/// into one order: by when each took effect (a row's `seq`, or the moment of a flip), then, for
/// flips with no log row between them, by the flip's order.
final class MergedLogRows {
    private let cursors: [RowCursor]
    private var heads: [Row?]
    private let timeColumn: Int
    private let flipOrderColumn: Int
    private let newestFirst: Bool

    /// Merges `cursors`, whose rows hold when they took effect at `timeColumn` and the flip's
    /// order (nil for a row not flipped, read as 0) at `flipOrderColumn`.
    init(_ cursors: [RowCursor], timeColumn: Int, flipOrderColumn: Int, newestFirst: Bool) throws {
        self.cursors = cursors
        self.timeColumn = timeColumn
        self.flipOrderColumn = flipOrderColumn
        self.newestFirst = newestFirst
        heads = try cursors.map { try $0.next() }
    }

    /// The next row of them all, in the merged order; nil when every cursor is read.
    func next() throws -> Row? {
        var first: (index: Int, order: (Double, Int64))?
        for (index, head) in heads.enumerated() {
            guard let head else { continue }
            let order = (
                try head.decode(at: timeColumn, as: Double.self),
                try head.decode(at: flipOrderColumn, as: Int64?.self) ?? 0
            )
            let comesFirst = first.map { newestFirst ? order > $0.order : order < $0.order }
            if comesFirst ?? true { first = (index, order) }
        }
        guard let first else { return nil }
        let row = heads[first.index]
        heads[first.index] = try cursors[first.index].next()
        return row
    }
}
