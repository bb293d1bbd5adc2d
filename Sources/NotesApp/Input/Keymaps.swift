import TerminalUI

/// Every key of notes, one keymap per mode (DESIGN.md's keys). The app's dispatch, the shortcut
/// bar, the F1 help and the author picker's and the help's own hints are all built from these.
enum Keymaps {
    /// Keys that work in every pane, whatever it shows (outside the picker and the help). A
    /// mode's own keymap is tried first.
    static let everywhere = Keymap<Command>(
        title: "Everywhere (each pane has its own undo history, kept in the notebook)",
        bindings: [
            KeyBinding(
                [.control("z"), .alt("u")], .undo, keys: "Ctrl-Z  Alt-U",
                help: "undo the focused pane's last action",
                shortcuts: [Shortcut(key: "^Z", label: "Undo", row: 0)]),
            KeyBinding(
                [.control("y"), .alt("e")], .redo, keys: "Ctrl-Y  Alt-E", help: "redo it",
                shortcuts: [Shortcut(key: "^Y", label: "Redo", row: 0)]),
            KeyBinding(
                [.alt("-")], .backInTime, keys: "Alt--",
                help: "back in time: the pane's state before its last step, on any branch "
                    + "(steps undone before a new action are kept)"),
            KeyBinding(
                [.alt("=")], .forwardInTime, keys: "Alt-=",
                help: "forward in time: the pane's next state, on any branch"),
            KeyBinding(
                [.alt("h"), .function(2)], .history, keys: "Alt-H  F2",
                help: "the focused pane's history (in an open article: every pane's steps "
                    + "that touched it): go back to any step, or take back one",
                shortcuts: [Shortcut(key: "M-H", label: "History", row: 0)]),
            KeyBinding(
                [.control("n")], .newArticle, keys: "Ctrl-N", help: "new article",
                shortcuts: [Shortcut(key: "^N", label: "New", row: 0)]),
            KeyBinding(
                [.control("w")], .nextPane, keys: "Ctrl-W", help: "next pane",
                shortcuts: [Shortcut(key: "^W", label: "Next pane", row: 1)]),
            KeyBinding([.backTab], .previousPane, keys: "Shift-Tab", help: "previous pane"),
            KeyBinding(keys: "Alt-1 .. Alt-9", help: "go to pane N") { key in
                guard case .alt(let digit) = key, ("1"..."9").contains(digit) else { return nil }
                return digit.wholeNumberValue.map { .focusPane($0 - 1) }
            },
            KeyBinding(
                [.control("t")], .newPane, keys: "Ctrl-T", help: "open a new pane",
                shortcuts: [Shortcut(key: "^T", label: "New pane", row: 1)]),
            KeyBinding(
                [.control("x"), .alt("x")], .closePane, keys: "Ctrl-X  Alt-X",
                help: "close the focused pane (in an open article Ctrl-X cuts: Alt-X)",
                shortcuts: [Shortcut(key: "^X", label: "Close pane", row: 1)]),
            KeyBinding(
                [.alt(">"), .alt(".")], .widenPane, keys: "Alt->",
                help: "widen the focused pane"),
            KeyBinding(
                [.alt("<"), .alt(",")], .narrowPane, keys: "Alt-<",
                help: "narrow the focused pane"),
            KeyBinding(
                [.alt("z")], .undoLayout, keys: "Alt-Z",
                help: "undo a layout change (a closed pane comes back with its undo history)"),
            KeyBinding([.alt("y")], .redoLayout, keys: "Alt-Y", help: "redo a layout change"),
            KeyBinding(
                [.escape], .back, keys: "Esc",
                help: "back to the list; in the list, clear the search",
                shortcuts: [Shortcut(key: "Esc", label: "Back", row: 1)]),
            KeyBinding(
                [.function(1)], .help, keys: "F1", help: "this help",
                shortcuts: [Shortcut(key: "F1", label: "Help", row: 1)]),
            KeyBinding(
                [.control("s")], .save, keys: "Ctrl-S",
                help: "notes saves every change as you make it; this just says so"),
            KeyBinding(
                [.alt("m")], .toggleMouse, keys: "Alt-M",
                help: "mouse on/off (off: the terminal's own text selection)"),
            KeyBinding([.alt("s")], .suspend, keys: "Alt-S", help: "suspend (back with fg)"),
            KeyBinding(
                [.control("q")], .quit, keys: "Ctrl-Q", help: "quit",
                shortcuts: [Shortcut(key: "^Q", label: "Quit", row: 1)]),
        ])

    /// Keys of the article list, where letters, digits and Delete are commands.
    static let list = Keymap<Command>(
        title: "In the list",
        bindings: [
            KeyBinding(
                [.delete, .controlDelete], .deleteArticle, keys: "Delete",
                help: "delete the selected article",
                shortcuts: [Shortcut(key: "Del", label: "Delete", row: 0)]),
            KeyBinding(
                keys: "0 .. 5", help: "set the rating",
                shortcuts: [Shortcut(key: "0-5", label: "Rate", row: 0)]
            ) { key in
                guard case .character(let digit) = key, ("0"..."5").contains(digit) else {
                    return nil
                }
                return digit.wholeNumberValue.map { .setRating($0) }
            },
            KeyBinding(
                [.character("a")], .chooseAuthor, keys: "a",
                help: "set the author: type to filter, Enter to choose or create, Delete to "
                    + "delete an author and their articles (asks first)",
                shortcuts: [Shortcut(key: "a", label: "Author", row: 0)]),
            KeyBinding(
                [.character("/")], .search, keys: "/",
                help: "search as you type: a word finds the start of a word; Chinese, "
                    + "Japanese, Korean and Thai are found anywhere in a run of text",
                shortcuts: [Shortcut(key: "/", label: "Search", row: 0)]),
            KeyBinding(
                [.enter], .open, keys: "Enter", help: "open the selected article",
                shortcuts: [Shortcut(key: "Enter", label: "Open", row: 1)]),
            KeyBinding(
                [.up: .moveUp, .down: .moveDown], keys: "Up  Down", help: "move the selection"),
            KeyBinding(
                [.pageUp: .pageUp, .pageDown: .pageDown], keys: "PgUp  PgDn",
                help: "a page up / down"),
            KeyBinding(
                [
                    .home: .moveToStart, .end: .moveToEnd, .controlHome: .moveToStart,
                    .controlEnd: .moveToEnd,
                ],
                keys: "Home  End", help: "first / last article (also Ctrl-Home  Ctrl-End)"),
            KeyBinding([.tab], .nextPane, keys: "Tab", help: "next pane (as Ctrl-W)"),
        ])

    /// Keys of an open article, where letters, digits and Delete edit the text.
    static let editor = Keymap<EditorAction>(
        title: "In an open article (every change is saved as you type)",
        bindings: [
            .characters(help: "typed into the title or the body"),
            KeyBinding(
                [.enter], .enter, keys: "Enter", help: "title: go to the body; body: a new line"),
            KeyBinding(
                [.tab], .tab, keys: "Tab",
                help: "title: go to the body; body: type a tab (shown as 4 spaces)"),
            KeyBinding(
                [.backTab], .switchField, keys: "Shift-Tab",
                help: "switch between the title and the body",
                shortcuts: [Shortcut(key: "S-Tab", label: "Title/Body", row: 1)]),
            KeyBinding(
                [.backspace: .deleteBackward, .delete: .deleteForward], keys: "Backspace  Delete",
                help: "delete the character before / after the cursor"),
            KeyBinding(
                [
                    .controlBackspace: .deleteWordBackward, .altBackspace: .deleteWordBackward,
                    .controlDelete: .deleteWordForward,
                ],
                keys: "Ctrl-Backspace  Ctrl-Delete",
                help: "delete the word before / after the cursor (also Alt-Backspace)"),
            KeyBinding(
                moves.mapValues { (motion: Motion) -> EditorAction in .move(motion) },
                keys: "Arrows  Home  End  PgUp  PgDn",
                help: "move the cursor (Home, End: the line's start, end); with Ctrl, Left and "
                    + "Right go by words, Home and End to the text's start and end"),
            KeyBinding(
                [
                    .alt("b"): .move(.wordLeft), .alt("f"): .move(.wordRight),
                    .control("a"): .move(.lineStart), .control("e"): .move(.lineEnd),
                ] as [Key: EditorAction],
                keys: "Alt-B  Alt-F  Ctrl-A  Ctrl-E",
                help: "word left / right, start / end of the line (as in nano)"),
            KeyBinding(
                keys: "Shift with a move",
                help: "select (Shift-Arrows, Shift-Home/End/PgUp/PgDn, Ctrl-Shift-Left/Right by "
                    + "words; with the mouse on, drag); typing or pasting replaces the selection, "
                    + "Backspace and Delete delete it"
            ) { key in
                guard case .shift(let unshifted) = key, let motion = moves[unshifted] else {
                    return nil
                }
                return .select(motion)
            },
            KeyBinding(
                [.control("c")], .copy, keys: "Ctrl-C",
                help: "copy the selection (nothing selected: the line), also to the "
                    + "terminal's clipboard where it takes it",
                shortcuts: [Shortcut(key: "^C", label: "Copy", row: 0)]),
            KeyBinding(
                [.control("x")], .cut, keys: "Ctrl-X",
                help: "cut the selection (nothing selected: the line; cuts in a row add up)",
                shortcuts: [Shortcut(key: "^X", label: "Cut", row: 1)]),
            KeyBinding(
                [.control("v")], .paste, keys: "Ctrl-V", help: "paste what was copied or cut",
                shortcuts: [Shortcut(key: "^V", label: "Paste", row: 0)]),
            KeyBinding(
                [.control("f")], .find, keys: "Ctrl-F",
                help: "find in the article: type, Enter stays at the match, Esc goes back",
                shortcuts: [Shortcut(key: "^F", label: "Find", row: 0)]),
            KeyBinding(
                [
                    .function(3): .findNext, .control("g"): .findNext,
                    .shift(.function(3)): .findPrevious,
                ] as [Key: EditorAction],
                keys: "F3  Shift-F3  Ctrl-G", help: "next / previous match (Ctrl-G: next)"),
        ])

    /// The editor's move keys; with Shift they select.
    static let moves: [Key: Motion] = [
        .left: .left, .right: .right, .up: .up, .down: .down, .home: .lineStart, .end: .lineEnd,
        .pageUp: .pageUp, .pageDown: .pageDown, .controlLeft: .wordLeft,
        .controlRight: .wordRight, .controlHome: .textStart, .controlEnd: .textEnd,
    ]

    /// Keys while the find prompt of an open article is open.
    static let find = Keymap<FindAction>(
        title: "While finding in an article (Ctrl-F)",
        bindings: [
            .characters(help: "typed into what to find; the cursor goes to the first match"),
            KeyBinding(
                [.backspace, .controlBackspace], .erase, keys: "Backspace",
                help: "erase a character"),
            KeyBinding(
                [
                    .function(3): .next, .control("g"): .next, .down: .next, .control("f"): .next,
                    .shift(.function(3)): .previous, .up: .previous,
                ] as [Key: FindAction],
                keys: "F3  Shift-F3  Down  Up", help: "next / previous match",
                shortcuts: [
                    Shortcut(key: "F3", label: "Next", row: 0),
                    Shortcut(key: "S-F3", label: "Previous", row: 0),
                ]),
            KeyBinding(
                [.enter], .done, keys: "Enter", help: "stay at the match",
                shortcuts: [Shortcut(key: "Enter", label: "Done", row: 0)]),
            KeyBinding(
                [.escape], .cancel, keys: "Esc", help: "back to where the cursor was",
                shortcuts: [Shortcut(key: "Esc", label: "Cancel", row: 0)]),
        ])

    /// Keys while a search is typed; the list's keys work as well.
    static let search = Keymap<SearchAction>(
        title: "While typing a search (the list's other keys work too)",
        bindings: [
            .characters(help: "typed into the search; the list follows"),
            KeyBinding(
                [.backspace, .controlBackspace], .erase, keys: "Backspace",
                help: "erase a character"),
            KeyBinding(
                [.enter], .keep, keys: "Enter", help: "keep the search",
                shortcuts: [Shortcut(key: "Enter", label: "Keep", row: 0)]),
            KeyBinding(
                [.escape], .clear, keys: "Esc", help: "clear the search",
                shortcuts: [Shortcut(key: "Esc", label: "Clear", row: 0)]),
        ])

    /// Keys of a pane's history panel (Alt-H); the keys that work everywhere work too.
    static let history = Keymap<HistoryAction>(
        title: "In the history panel (newest step at the top; undone steps dimmed above “now”)",
        bindings: [
            KeyBinding(
                [.up: .up, .down: .down], keys: "Up  Down",
                help: "select a step; the status line says what taking it back would do"),
            KeyBinding(
                [.pageUp: .pageUp, .pageDown: .pageDown], keys: "PgUp  PgDn",
                help: "a page up / down"),
            KeyBinding(
                [.home: .top, .end: .bottom, .controlHome: .top, .controlEnd: .bottom],
                keys: "Home  End", help: "newest / oldest step"),
            KeyBinding(
                [.enter], .goTo, keys: "Enter",
                help: "go to that point: undo (or redo) every step above it, in one go",
                shortcuts: [Shortcut(key: "Enter", label: "Go to", row: 0)]),
            KeyBinding(
                [.character("x"), .delete, .controlDelete], .takeBack, keys: "x  Delete",
                help: "take back only that step, keeping every later one (what later steps "
                    + "changed stays); a new step Ctrl-Z undoes",
                shortcuts: [Shortcut(key: "x", label: "Take back", row: 0)]),
            KeyBinding(
                [.escape, .alt("h"), .function(2)], .close, keys: "Esc  Alt-H",
                help: "close the history",
                shortcuts: [Shortcut(key: "Esc", label: "Close", row: 0)]),
        ])

    /// Keys of the author picker (a box over the panes).
    static let picker = Keymap<PickerAction>(
        title: "In the author picker",
        bindings: [
            .characters(help: "filter the authors by name"),
            KeyBinding(
                [.backspace, .controlBackspace], .erase, keys: "Backspace",
                help: "erase a character"),
            KeyBinding(
                [.up: .up, .down: .down], keys: "Up  Down", help: "move the choice"),
            KeyBinding(
                [.enter], .choose, keys: "Enter",
                help: "set the article's author, or create the one typed",
                shortcuts: [Shortcut(key: "Enter", label: "choose", row: 0)]),
            KeyBinding(
                [.delete, .controlDelete], .deleteAuthor, keys: "Delete",
                help: "delete the author and their articles (asks first)",
                shortcuts: [Shortcut(key: "Del", label: "delete", row: 0)]),
            KeyBinding(
                [.escape], .cancel, keys: "Esc", help: "close the picker",
                shortcuts: [Shortcut(key: "Esc", label: "cancel", row: 0)]),
        ])

    /// Keys while the picker asks whether to delete an author.
    static let confirm = Keymap<ConfirmAction>(
        title: "When asked to delete an author",
        bindings: [
            KeyBinding(
                [.character("y"), .character("Y")], .confirm, keys: "y",
                help: "delete the author and their articles"),
            KeyBinding(keys: "Any other key", help: "keep them") { _ in .cancel },
        ])

    /// Keys of this help screen; its title line shows the shortcuts.
    static let help = Keymap<HelpAction>(
        title: "In this help",
        bindings: [
            KeyBinding(
                [.up: .lineUp, .down: .lineDown], keys: "Up  Down", help: "scroll a line",
                shortcuts: [Shortcut(key: "Up Down PgUp PgDn", label: "scroll", row: 0)]),
            KeyBinding(
                [.pageUp: .pageUp, .pageDown: .pageDown], keys: "PgUp  PgDn", help: "scroll a page"),
            KeyBinding(
                [.home: .top, .end: .bottom], keys: "Home  End", help: "top / bottom"),
            KeyBinding(
                keys: "Any other key", help: "close the help",
                shortcuts: [Shortcut(key: "any other key", label: "closes", row: 0)]
            ) { _ in .close },
        ])
}
