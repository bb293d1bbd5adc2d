import NoteStore

/// What one frame shows, read from the app and its panes after they have loaded: the views
/// draw this value and nothing else, and write nothing.
struct ScreenState {
    let notebookName: String
    /// "window 4321" while another notes window runs on the notebook.
    let windowName: String?
    let panes: [PaneState]
    let focus: Int
    let overlay: NotesApp.Overlay?
    let message: String?
    /// Whether `message` answers a key that does nothing (it may take the undo/redo words'
    /// place).
    let messageAnswersAKey: Bool

    var focusedPane: PaneState { panes[focus] }
}

/// One pane as a frame shows it.
struct PaneState {
    let mode: Pane.Mode
    let query: ArticleQuery
    /// The rows loaded (those on screen), from `top`; `selected` and `total` count the list.
    let rows: [ArticleSummary]
    let top: Int
    let selected: Int
    let total: Int
    /// The rows an undo or redo just brought back.
    let highlighted: Set<Int64>
    /// The search being typed, or nil.
    let searchInput: String?
    let editor: ArticleEditor?
    /// The history panel, its lines on screen in words; nil when it is closed.
    let history: HistoryState?
    /// What undo and redo would do ("Set Rating"), or nil; `hasStack` is false under
    /// `--no-undo`.
    let undoActionName: String?
    let redoActionName: String?
    let hasStack: Bool
}

/// A history panel as a frame shows it: the panel, and each line on screen in words.
struct HistoryState {
    /// A line of the panel.
    enum Row: Equatable {
        /// The line between the undone steps and the done ones.
        case now
        /// A step: what it did ("Pane 2 · Set Rating · Art 012") and the value it set, kept
        /// whole when the words are cut ("★★★★☆"), how long ago, whether it is undone (dimmed),
        /// and whether it is on a branch (marked where the branch forks).
        case step(
            words: String, value: String = "", ago: String, isUndone: Bool,
            isOnBranch: Bool = false)
    }

    let panel: HistoryPanel
    /// The lines from `panel.top`, as many as the pane shows.
    let rows: [Row]
}
