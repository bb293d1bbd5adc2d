import TerminalUI
import Testing

@Suite struct GeometryTests {
    @Test func columnsShareTheWidthLeftmostFirst() {
        let area = Rect(x: 0, y: 1, width: 80, height: 22)
        #expect(
            area.columns(3, separator: 1) == [
                Rect(x: 0, y: 1, width: 26, height: 22),
                Rect(x: 27, y: 1, width: 26, height: 22),
                Rect(x: 54, y: 1, width: 26, height: 22),
            ])
        #expect(
            Rect(x: 2, y: 0, width: 10, height: 5).columns(3) == [
                Rect(x: 2, y: 0, width: 4, height: 5),
                Rect(x: 6, y: 0, width: 3, height: 5),
                Rect(x: 9, y: 0, width: 3, height: 5),
            ])
        #expect(area.columns(0) == [])
    }

    @Test func columnsOnATinyAreaAreEmptyNotNegative() {
        let columns = Rect(x: 0, y: 0, width: 3, height: 2).columns(3, separator: 1)
        #expect(columns.map(\.width) == [1, 0, 0])
        #expect(columns.allSatisfy { $0.height == 2 })
    }

    @Test func insetAndDivide() {
        let area = Rect(x: 1, y: 2, width: 10, height: 6)
        #expect(area.insetBy(dx: 1, dy: 1) == Rect(x: 2, y: 3, width: 8, height: 4))
        #expect(area.inset(top: 1) == Rect(x: 1, y: 3, width: 10, height: 5))
        #expect(area.insetBy(dx: 9, dy: 9).isEmpty)
        #expect(
            area.dividedTop(1) == (
                Rect(x: 1, y: 2, width: 10, height: 1), Rect(x: 1, y: 3, width: 10, height: 5)
            ))
        #expect(
            area.dividedBottom(2) == (
                Rect(x: 1, y: 2, width: 10, height: 4), Rect(x: 1, y: 6, width: 10, height: 2)
            ))
        #expect(area.dividedBottom(20).rest.isEmpty)
    }

    @Test func containsAndIntersection() {
        let area = Rect(x: 1, y: 1, width: 3, height: 2)
        #expect(area.contains(Point(x: 1, y: 1)))
        #expect(area.contains(Point(x: 3, y: 2)))
        #expect(!area.contains(Point(x: 4, y: 2)))
        #expect(
            area.intersection(Rect(x: 2, y: 0, width: 10, height: 2))
                == Rect(x: 2, y: 1, width: 2, height: 1))
        #expect(area.intersection(Rect(x: 9, y: 9, width: 1, height: 1)).isEmpty)
    }
}
