/// The keys written out from the keymaps: the F1 help's lines, the README's key tables and the
/// hints of the help and the author picker. Nothing here names a key itself.
enum KeyHelp {
    /// The keymaps in the order the help lists them.
    static let sections: [(title: String, rows: [(keys: String, help: String)])] = [
        section(Keymaps.everywhere), section(Keymaps.list), section(Keymaps.search),
        section(Keymaps.editor), section(Keymaps.find), section(Keymaps.history),
        section(Keymaps.picker),
        section(Keymaps.confirm),
        section(Keymaps.help),
    ]

    private static func section<Action: Sendable>(_ keymap: Keymap<Action>) -> (
        title: String, rows: [(keys: String, help: String)]
    ) {
        (keymap.title, keymap.bindings.map { ($0.keys, $0.help) })
    }

    /// Shortcuts as a one-line hint: "Enter choose · Del delete · Esc cancel".
    static func hint(_ shortcuts: [Shortcut], separator: String) -> String {
        shortcuts.map { "\($0.key) \($0.label)" }.joined(separator: separator)
    }

    /// The width of the keys' column, the most a line of the help takes, and the least the
    /// column of what a key does takes beside the keys.
    static let keysWidth = 20
    static let lineWidth = 78
    static let helpColumnWidth = 24

    /// The F1 help in lines of at most `width` columns (and `lineWidth`): a title line with the
    /// help's own keys, then one section per keymap, each key with what it does, wrapped under
    /// its column; where the two columns do not fit, what a key does goes under it.
    static func lines(width: Int) -> [String] {
        let width = min(lineWidth, max(width, 12))
        let helpWidth = width - 2 - keysWidth
        var lines = fitted(
            "notes — keys   (\(hint(Keymaps.help.shortcuts, separator: "; ")))", width)
        lines.append("")
        for section in sections {
            lines += fitted(section.title, width)
            for row in section.rows {
                let keysAlone = wrap(row.keys, width: width - 2).map { "  " + $0 }
                guard helpWidth >= helpColumnWidth else {
                    lines += keysAlone + wrap(row.help, width: width - 4).map { "    " + $0 }
                    continue
                }
                var wrapped = wrap(row.help, width: helpWidth)
                if row.keys.count < keysWidth {
                    let keys = row.keys.padding(toLength: keysWidth, withPad: " ", startingAt: 0)
                    lines.append("  " + keys + wrapped.removeFirst())
                } else {
                    // Keys as wide as their column: what they do starts on the next line.
                    lines += keysAlone
                }
                let indent = String(repeating: " ", count: 2 + keysWidth)
                lines += wrapped.map { indent + $0 }
            }
            lines.append("")
        }
        return Array(lines.dropLast())
    }

    /// `text` as one line when it fits in `width`, else wrapped.
    private static func fitted(_ text: String, _ width: Int) -> [String] {
        text.count <= width ? [text] : wrap(text, width: width)
    }

    /// The keys as Markdown, one table per keymap: README's "Keys" section.
    static var markdown: String {
        sections.map { section in
            let rows = section.rows.map { row in
                let keys = row.keys.components(separatedBy: "  ").map { "`\($0)`" }
                return "| \(keys.joined(separator: " ")) | \(row.help) |"
            }
            return (["**\(section.title)**", "", "| Keys | |", "| --- | --- |"] + rows)
                .joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// Words of `text` in lines of at most `width` characters (a longer word gets a line).
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        return lines + [line]
    }
}
