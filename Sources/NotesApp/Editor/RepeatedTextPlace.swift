/// Where an insertion or a deletion stands in a run of repeated text: typing " XYZ" after
/// "hello" in "hello world" gives the text that typing "XYZ " after "hello " gives, so the
/// change read from the texts has two places (and more in "aaa"). The place nearest the cursor
/// is the one the cursor made: an undo's cursor stands at the end of what it deletes (the
/// typing it takes back), a redo's where it inserts.
enum RepeatedTextPlace {
    /// `range` of `text` replaced with `inserted`, moved along the repeated text to the place
    /// that ends at `cursor` (a deletion) or starts there (an insertion), when it can stand
    /// there; as it is otherwise, and for a change that both deletes and inserts. Moves over
    /// ASCII bytes only, so that a place is always between characters.
    static func nearest(
        _ range: Range<Int>, of text: String, replacedWith inserted: String, cursor: Int
    ) -> (range: Range<Int>, inserted: String) {
        guard range.isEmpty != inserted.isEmpty else { return (range, inserted) }
        // Read in place: a body may be megabytes, the window moves a few bytes.
        let utf8 = text.utf8
        let bytes = (count: utf8.count, at: { utf8[utf8.index(utf8.startIndex, offsetBy: $0)] })
        // What the change puts in or takes out, and where it goes, as the window moves.
        var moving = range.isEmpty ? Array(inserted.utf8) : range.map(bytes.at)
        let count = moving.count
        let wanted = range.isEmpty ? cursor : cursor - count
        var start = range.lowerBound
        let isASCII = { (byte: UInt8) in byte < 0x80 }
        // A deletion's window slides over the text itself; an insertion's carries its bytes.
        func canMove(left: Bool) -> Bool {
            if left {
                guard start > 0, isASCII(bytes.at(start - 1)), isASCII(moving[count - 1]) else {
                    return false
                }
                return bytes.at(start - 1) == moving[count - 1]
            }
            let after = range.isEmpty ? start : start + count
            guard after < bytes.count, isASCII(bytes.at(after)), isASCII(moving[0]) else {
                return false
            }
            return bytes.at(after) == moving[0]
        }
        while start != wanted, canMove(left: wanted < start) {
            if wanted < start {
                start -= 1
                moving = [bytes.at(start)] + moving.dropLast()
            } else {
                moving =
                    Array(moving.dropFirst()) + [bytes.at(range.isEmpty ? start : start + count)]
                start += 1
            }
        }
        guard start == wanted else { return (range, inserted) }
        return range.isEmpty
            ? (start..<start, String(decoding: moving, as: UTF8.self))
            : (start..<(start + count), "")
    }
}
