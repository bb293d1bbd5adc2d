import TerminalUI

@testable import NotesApp

extension EditorBuffer {
    /// A buffer for `marked`, whose "|" shows where the cursor starts (it is not part of the text).
    init(marked: String, width: Int = 20, height: Int = 5) {
        // Bytes, not graphemes: a "|" before a combining mark is one grapheme with it.
        let bytes = Array(marked.utf8)
        let bar = bytes.firstIndex(of: UInt8(ascii: "|")) ?? bytes.count
        let before = String(decoding: bytes[..<bar], as: UTF8.self)
        let after = String(decoding: bytes[min(bar + 1, bytes.count)...], as: UTF8.self)
        self.init(
            text: before + after, cursorOffset: before.utf8.count,
            viewport: Size(width: width, height: height))
    }

    /// The rows on screen joined by "\n", with "|" where the cursor is.
    var screen: String {
        let top = scrollTop
        var rows: [String] = []
        var visual: VisualLine? = top
        while let current = visual, rows.count < viewport.height {
            let range = layout.range(of: current)
            var row = String(layout.substring(range))
            if current == cursorLocation.line {
                let split = row.utf8.index(
                    row.utf8.startIndex, offsetBy: cursorOffset - range.lowerBound)
                row.insert("|", at: split)
            }
            rows.append(row)
            visual = layout.visualLine(after: current)
        }
        return rows.joined(separator: "\n")
    }

    /// The text with "|" at the cursor.
    var marked: String {
        var marked = text
        marked.insert("|", at: cursor)
        return marked
    }
}
