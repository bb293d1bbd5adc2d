/// Which columns of a tracked table a migration renamed, found by comparing the columns the
/// engine knew with the table's columns now.
///
/// The rule: `ALTER TABLE … RENAME COLUMN` keeps a column's position among its neighbours and
/// its declared type, `ADD COLUMN` only appends at the end, and `DROP COLUMN` removes. So the
/// columns present before and after under the same name are anchors, which both lists hold in
/// the same order; between two anchors (and after the last), a column that is gone and a new
/// column of the same declared type, taken in order, are one column renamed. A new column left
/// over at the end was added. The one ambiguity: dropping the last column and adding a column of
/// the same type in one migration reads as renaming it (its older history then undoes into the
/// new column).
enum ColumnRenames {
    /// A column as the rule sees it.
    struct Described: Equatable {
        let name: String
        let declaredType: String
    }

    /// The renamed columns: the new name of each, mapped to its old name.
    static func detect(before: [Described], after: [Described]) -> [String: String] {
        let afterNames = Set(after.map(\.name))
        let beforeNames = Set(before.map(\.name))
        let anchorsBefore = before.map(\.name).filter(afterNames.contains)
        let anchorsAfter = after.map(\.name).filter(beforeNames.contains)
        // Columns reordered by other means (a table rebuilt by hand): no rename is guessed.
        guard anchorsBefore == anchorsAfter else { return [:] }
        let gone = gaps(before, anchors: afterNames)
        let new = gaps(after, anchors: beforeNames)
        var renames: [String: String] = [:]
        for (goneRun, newRun) in zip(gone, new) {
            var candidates = goneRun[...]
            for column in newRun {
                guard
                    let match = candidates.firstIndex(where: {
                        $0.declaredType.uppercased() == column.declaredType.uppercased()
                    })
                else { continue }
                renames[column.name] = candidates[match].name
                candidates = candidates[(match + 1)...]
            }
        }
        return renames
    }

    /// The runs of columns that are not anchors: before the first anchor, between each two, and
    /// after the last (one more run than anchors).
    private static func gaps(_ columns: [Described], anchors: Set<String>) -> [[Described]] {
        var runs: [[Described]] = [[]]
        for column in columns {
            if anchors.contains(column.name) {
                runs.append([])
            } else {
                runs[runs.count - 1].append(column)
            }
        }
        return runs
    }
}
