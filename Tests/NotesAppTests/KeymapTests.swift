import Foundation
import Testing

@testable import NotesApp
@testable import TerminalUI

/// One keymap per mode: dispatch, the shortcut bar, the F1 help and the README all come from
/// it, so what they show is what the keys do.
@MainActor
@Suite struct KeymapTests {
    /// Every key a terminal can send that some keymap might take.
    static let keys: [Key] =
        [
            .up, .down, .left, .right, .home, .end, .controlHome, .controlEnd, .controlLeft,
            .controlRight, .pageUp, .pageDown, .insert, .delete, .controlDelete, .backspace,
            .controlBackspace, .altBackspace, .enter, .escape, .tab, .backTab,
        ] + (1...12).map { Key.function($0) }
        + "abcdefghijklmnopqrstuvwxyz0123456789<>,./".flatMap { character in
            [Key.control(character), .alt(character), .character(character)]
        } + [.character("Y"), .character("成")]
        + [
            Key.up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .controlLeft,
            .controlRight, .controlHome, .controlEnd, .delete, .function(3),
        ].map { Key.shift($0) }

    /// The bindings of a keymap that take `key`, besides a last one for any other key.
    func takers<Action>(_ key: Key, _ keymap: Keymap<Action>) -> [String] {
        keymap.bindings.filter { $0.keys != "Any other key" && $0.action(key) != nil }.map(\.keys)
    }

    @Test func noKeyIsTakenTwiceInOneMode() {
        for key in Self.keys {
            for takers in [
                takers(key, Keymaps.everywhere), takers(key, Keymaps.list),
                takers(key, Keymaps.editor), takers(key, Keymaps.search),
                takers(key, Keymaps.picker), takers(key, Keymaps.help),
                takers(key, Keymaps.history), takers(key, Keymaps.find),
            ] {
                #expect(takers.count <= 1, "\(key) is taken by \(takers)")
            }
        }
    }

    /// The keys shown in the bar do what their label says, in the mode that shows them.
    @Test func theBarShowsTheKeysOfWhatThePaneShows() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 24))
        let bar = { fixture.screen.split(separator: "\n").suffix(2).joined(separator: "\n") }
        #expect(
            bar() == """
                Del Delete  0-5 Rate  a Author  / Search  ^Z Undo  ^Y Redo  M-H History  ^N New
                Enter Open  ^W Next pane  ^T New pane  ^X Close pane  Esc Back  F1 Help  ^Q Quit
                """)
        fixture.press(.character("/"))
        // Esc clears a search being typed: the bar says so, and not "Esc Back".
        #expect(
            bar() == """
                Enter Keep  Esc Clear  ^Z Undo  ^Y Redo  M-H History  ^N New
                ^W Next pane  ^T New pane  ^X Close pane  F1 Help  ^Q Quit
                """)
        fixture.press(.escape)
        fixture.press(.enter)
        #expect(
            bar() == """
                ^C Copy  ^V Paste  ^F Find  ^Z Undo  ^Y Redo  M-H History  ^N New
                S-Tab Title/Body  ^X Cut  ^W Next pane  ^T New pane  Esc Back  F1 Help  ^Q Quit
                """)
        fixture.press(.control("f"))
        #expect(
            bar() == """
                F3 Next  S-F3 Previous  Enter Done  Esc Cancel  ^Z Undo  ^Y Redo  M-H History  ^N New
                ^W Next pane  ^T New pane  F1 Help  ^Q Quit
                """)
        fixture.press(.escape)
        fixture.press(.alt("h"))
        #expect(
            bar() == """
                Enter Go to  x Take back  Esc Close  ^Z Undo  ^Y Redo  M-H History  ^N New
                ^W Next pane  ^T New pane  ^X Close pane  F1 Help  ^Q Quit
                """)
    }

    /// The help is the keymaps: each mode's heading, and each binding's keys with what they do
    /// there (Up and Down move the cursor in an article, the selection in the list).
    @Test func theHelpListsEachModesKeys() throws {
        let help = HelpView.lines(width: 80)
        #expect(help[0] == "notes — keys   (Up Down PgUp PgDn scroll; any other key closes)")
        let titles = [
            Keymaps.everywhere.title, Keymaps.list.title, Keymaps.search.title,
            Keymaps.editor.title, Keymaps.find.title, Keymaps.history.title, Keymaps.picker.title,
            Keymaps.confirm.title, Keymaps.help.title,
        ]
        #expect(help.filter { !$0.isEmpty && !$0.hasPrefix(" ") }.dropFirst() == titles[...])
        let list = try #require(help.firstIndex(of: Keymaps.list.title))
        let editor = try #require(help.firstIndex(of: Keymaps.editor.title))
        #expect(help[list...].contains("  Up  Down            move the selection"))
        #expect(
            help[editor...].contains {
                $0.hasSuffix("move the cursor (Home, End: the line's start, end); with")
            })
        #expect(help.allSatisfy { $0.count <= KeyHelp.lineWidth }, "\(help)")
        // A long description wraps under its column.
        let author = try #require(help.firstIndex { $0.hasPrefix("  a ") })
        #expect(help[author + 1].hasPrefix(String(repeating: " ", count: 22)))
    }

    /// README's "Keys" section is written from the keymaps; NOTES_WRITE_README_KEYS=1 writes it.
    @Test func theReadmeListsTheKeymaps() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "README.md")
        let written = "\n" + KeyHelp.markdown + "\n\n"
        if ProcessInfo.processInfo.environment["NOTES_WRITE_README_KEYS"] == "1" {
            try write(written, into: url)
        }
        let readme = try String(contentsOf: url, encoding: .utf8)
        let section = try keysSection(of: readme)
        #expect(String(readme[section]) == written)
    }

    /// The text between README's keys markers.
    func keysSection(of readme: String) throws -> Range<String.Index> {
        let start = try #require(readme.range(of: "<!-- keys: written from the keymaps"))
        let startLine = try #require(readme[start.upperBound...].range(of: "-->\n"))
        let end = try #require(readme.range(of: "<!-- end of keys -->"))
        return startLine.upperBound..<end.lowerBound
    }

    func write(_ keys: String, into url: URL) throws {
        var readme = try String(contentsOf: url, encoding: .utf8)
        readme.replaceSubrange(try keysSection(of: readme), with: keys)
        try readme.write(to: url, atomically: true, encoding: .utf8)
    }
}
