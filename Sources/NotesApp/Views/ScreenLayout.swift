import TerminalUI

/// Where everything goes on a screen of a given size: a title bar, the panes side by side
/// (each a header line and its rows), the status line and two lines of shortcuts.
struct ScreenLayout {
    static let minimumSize = Size(width: 40, height: 10)
    static let minimumPaneWidth = 16

    let size: Size
    let paneCount: Int
    /// The panes' relative widths (equal when nil).
    var layout: PaneLayout?

    init(size: Size, paneCount: Int, layout: PaneLayout? = nil) {
        self.size = size
        self.paneCount = paneCount
        self.layout = layout
    }

    var isTooSmall: Bool {
        size.width < Self.minimumSize.width || size.height < Self.minimumSize.height
            || paneCount > Self.panesThatFit(width: size.width)
    }

    /// How many panes fit side by side in `width` columns, with a separator each.
    static func panesThatFit(width: Int) -> Int {
        width / widthNeeded(byPanes: 1)
    }

    /// The columns `count` panes need at the least, with a separator each.
    static func widthNeeded(byPanes count: Int) -> Int {
        count * (minimumPaneWidth + 1)
    }

    var titleBar: Rect { Rect(x: 0, y: 0, width: size.width, height: 1) }
    var statusLine: Rect { Rect(x: 0, y: size.height - 3, width: size.width, height: 1) }
    var shortcutBar: Rect { Rect(x: 0, y: size.height - 2, width: size.width, height: 2) }

    /// The panes' area, one column between panes for the separator.
    var panes: [Rect] {
        let area = Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 4))
        guard let layout, layout.stackIDs.count == paneCount else {
            return area.columns(paneCount, separator: 1)
        }
        return layout.columns(in: area)
    }

    /// The pane's header line.
    func header(_ index: Int) -> Rect {
        let pane = panes[index]
        return Rect(x: pane.x, y: pane.y, width: pane.width, height: 1)
    }

    /// The pane's content below its header.
    func content(_ index: Int) -> Rect {
        let pane = panes[index]
        return Rect(x: pane.x, y: pane.y + 1, width: pane.width, height: max(0, pane.height - 1))
    }

    func listHeight(_ index: Int) -> Int { content(index).height }

    func paneIndex(at point: Point) -> Int? {
        panes.firstIndex { $0.contains(point) }
    }

    /// The list row under a point of the pane's content, if any.
    func listRow(at point: Point, pane index: Int) -> Int? {
        let rect = content(index)
        return rect.contains(point) ? point.y - rect.y : nil
    }
}
