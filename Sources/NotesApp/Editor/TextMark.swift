import TerminalUI

/// Bytes of a field drawn in their own style: the selection, or what a find matched.
struct TextMark: Equatable, Sendable {
    /// UTF-8 offsets into the field's text.
    var range: Range<Int>
    var style: CellStyle
}
