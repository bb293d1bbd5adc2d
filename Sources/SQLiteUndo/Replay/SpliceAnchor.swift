/// A splice found again in a text someone changed elsewhere since: by the bytes it replaced
/// and a few bytes on each side of them (its context), wherever they are now. What lets an undo
/// or a take-back of typing keep everyone else's edits before and after it, in any number of
/// places, where one splice of the whole text would cover the typing too.
enum SpliceAnchor {
    /// `text` with `own` replaced by `replacement`, at a place where `own` stands between its
    /// context (`before`, `after`); else where it follows `before`, or precedes `after` (an edit
    /// right beside it on the other side). A context that is the start (`atStart`) or the end
    /// (`atEnd`) of the text holds only there. Of several places, the one nearest `near`, where
    /// `own` was (as `patch` does). Nil when there is none: someone changed the splice's own
    /// bytes, or the bytes on both sides of it.
    static func replace(
        own: ArraySlice<UInt8>, before: ArraySlice<UInt8>, after: ArraySlice<UInt8>,
        atStart: Bool, atEnd: Bool, near: Int, with replacement: ArraySlice<UInt8>,
        in text: [UInt8]
    ) -> [UInt8]? {
        let anchors: [(before: Bool, after: Bool)] = [(true, true), (true, false), (false, true)]
        for anchor in anchors {
            let leading = anchor.before ? before : []
            let trailing = anchor.after ? after : []
            // An anchor of nothing finds every place.
            let anchoredBefore = anchor.before && (!before.isEmpty || atStart)
            let anchoredAfter = anchor.after && (!after.isEmpty || atEnd)
            guard anchoredBefore || anchoredAfter else { continue }
            let needle = Array(leading + own + trailing)
            guard
                let start = nearestPlace(
                    of: needle, in: text, to: near - leading.count,
                    where: { start in
                        (!(anchor.before && atStart) || start == 0)
                            && (!(anchor.after && atEnd) || start + needle.count == text.count)
                    })
            else { continue }
            let from = start + leading.count
            return Array(text[..<from] + replacement + text[(from + own.count)...])
        }
        return nil
    }

    /// Where `needle` starts in `text`, at the place nearest `expected` (among those
    /// `isAllowed` lets through).
    private static func nearestPlace(
        of needle: [UInt8], in text: [UInt8], to expected: Int, where isAllowed: (Int) -> Bool
    ) -> Int? {
        guard needle.count <= text.count else { return nil }
        var found: Int?
        for start in 0...(text.count - needle.count) where isAllowed(start) {
            guard text[start..<(start + needle.count)].elementsEqual(needle) else { continue }
            if let nearest = found, abs(nearest - expected) <= abs(start - expected) {
                // Places only get farther from here on.
                if start > expected { break }
                continue
            }
            found = start
        }
        return found
    }
}
