import TerminalUI

/// Everything a key can ask the app to do.
enum Command: Equatable {
    case undo
    case redo
    case nextPane
    case previousPane
    case focusPane(Int)
    case newPane
    case closePane
    case moveUp
    case moveDown
    case pageUp
    case pageDown
    case moveToStart
    case moveToEnd
    case open
    case back
    case newArticle
    case deleteArticle
    case setRating(Int)
    case chooseAuthor
    case search
    case help
    case quit
    case suspend
    /// Ctrl-S out of habit: everything is already saved; says so.
    case save
    case widenPane
    case narrowPane
    case undoLayout
    case redoLayout
    case toggleMouse
}

extension Command {
    /// Whether the command moves in or acts on the pane's list (not the screen, the panes or
    /// the history): nothing to act on while the pane shows an article that is gone.
    var actsOnTheList: Bool {
        switch self {
        case .moveUp, .moveDown, .pageUp, .pageDown, .moveToStart, .moveToEnd, .open,
            .deleteArticle, .setRating, .chooseAuthor, .search:
            true
        default:
            false
        }
    }
}

/// The default keys (DESIGN.md), shown by the help screen.
enum Keymap {
    /// The command for a key in the list or article view, or nil when the key means nothing there.
    static func command(for key: Key, inList: Bool) -> Command? {
        switch key {
        case .control("z"), .alt("u"): return .undo
        case .control("y"), .alt("e"): return .redo
        case .control("w"): return .nextPane
        case .tab where inList: return .nextPane
        case .backTab: return .previousPane
        case .alt(let digit) where ("1"..."9").contains(digit):
            return digit.wholeNumberValue.map { .focusPane($0 - 1) }
        case .control("t"): return .newPane
        case .control("x"): return .closePane
        case .up: return .moveUp
        case .down: return .moveDown
        case .pageUp: return .pageUp
        case .pageDown: return .pageDown
        case .home, .controlHome: return .moveToStart
        case .end, .controlEnd: return .moveToEnd
        case .enter where inList: return .open
        case .escape: return .back
        case .control("n"): return .newArticle
        case .delete where inList: return .deleteArticle
        case .character(let digit) where inList && ("0"..."5").contains(digit):
            return digit.wholeNumberValue.map { .setRating($0) }
        case .character("a") where inList: return .chooseAuthor
        case .character("/") where inList: return .search
        case .function(1): return .help
        case .control("q"): return .quit
        case .control("s"): return .save
        case .alt(">"), .alt("."): return .widenPane
        case .alt("<"), .alt(","): return .narrowPane
        case .alt("z"): return .undoLayout
        case .alt("y"): return .redoLayout
        case .alt("m"): return .toggleMouse
        case .alt("s"): return .suspend
        default: return nil
        }
    }
}
