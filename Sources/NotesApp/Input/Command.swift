/// What a key asks of the app in the list, or anywhere outside an overlay (`Keymaps`).
enum Command: Equatable, Sendable {
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
    /// Alt-H, F2: the focused pane's history panel, or the open article's.
    case history
    /// Alt-- / Alt-=: back or forward in time through the pane's states, across branches.
    case backInTime
    case forwardInTime
}
