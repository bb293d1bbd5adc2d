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

    /// The width of the keys' column, and of a whole line of the help.
    static let keysWidth = 20
    static let lineWidth = 78

    /// The F1 help: a title line with the help's own keys, then one section per keymap, each
    /// key with what it does, wrapped under its column.
    static let lines: [String] = {
        var lines = [
            "notes — keys   (\(hint(Keymaps.help.shortcuts, separator: "; ")))", "",
        ]
        for section in sections {
            lines.append(section.title)
            for row in section.rows {
                let wrapped = wrap(row.help, width: lineWidth - 2 - keysWidth)
                let keys = row.keys.padding(toLength: keysWidth, withPad: " ", startingAt: 0)
                lines.append("  " + keys + wrapped[0])
                let indent = String(repeating: " ", count: 2 + keysWidth)
                lines += wrapped.dropFirst().map { indent + $0 }
            }
            lines.append("")
        }
        return Array(lines.dropLast())
    }()

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
