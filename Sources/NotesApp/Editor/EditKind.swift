/// What an edit did to the text, and where, in UTF-8 offsets.
///
/// The app groups typing into undo runs with it: a run ends when the kind
/// switches between inserting and deleting.
enum EditKind: Hashable, Sendable {
    /// Text went in; the range is where it now is in the new text.
    case insert(Range<Int>)
    /// Text came out; the range is where it was in the old text.
    case delete(Range<Int>)

    /// Where the change starts: the same offset in the old and the new text.
    var offset: Int {
        switch self {
        case .insert(let range), .delete(let range): range.lowerBound
        }
    }

    /// Whether this is an insertion.
    var isInsert: Bool {
        if case .insert = self { return true }
        return false
    }
}
