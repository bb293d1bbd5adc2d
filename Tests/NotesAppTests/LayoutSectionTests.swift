import Foundation
import Testing

/// README's "Layout" section names every folder of the package, and only folders that exist:
/// a folder added, moved or removed without the section following fails here.
@Suite struct LayoutSectionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The folders the section names, as paths from the package's root. A line that starts at
    /// the left names a folder, then its siblings after commas ("Sources/CSQLite3, CNCursesW");
    /// an indented `Name/` line names a folder inside the last one a line at the left named;
    /// other indented lines go on with a description.
    static func namedFolders() throws -> [String] {
        let readme = try String(
            contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Layout\n"))
        let start = try #require(readme[section.upperBound...].range(of: "```\n"))
        let end = try #require(readme[start.upperBound...].range(of: "```"))
        var folders: [String] = []
        var top = ""
        for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let names = line.trimmingCharacters(in: .whitespaces)
                .components(separatedBy: "  ")[0]
            if !line.hasPrefix(" ") {
                let paths = names.components(separatedBy: ", ")
                let parent = (paths[0] as NSString).deletingLastPathComponent
                let named =
                    [paths[0]] + paths.dropFirst().map { parent.isEmpty ? $0 : parent + "/" + $0 }
                folders += named
                top = named.last ?? ""
            } else if line.hasPrefix("  "), !line.hasPrefix("   "), names.hasSuffix("/") {
                folders.append(top + "/" + names.dropLast())
            }
        }
        return folders
    }

    /// The folders the section must name: Resources, and every folder in Sources and Tests and
    /// one level inside them.
    static func packageFolders() throws -> [String] {
        let files = FileManager.default
        func folders(in path: String) throws -> [String] {
            try files.contentsOfDirectory(atPath: root.appendingPathComponent(path).path)
                .filter { name in
                    var isFolder: ObjCBool = false
                    let full = root.appendingPathComponent(path).appendingPathComponent(name).path
                    return files.fileExists(atPath: full, isDirectory: &isFolder)
                        && isFolder.boolValue
                }
                .map { path + "/" + $0 }
        }
        var all = ["Resources"]
        for top in ["Sources", "Tests"] {
            for folder in try folders(in: top) {
                all.append(folder)
                all += try folders(in: folder)
            }
        }
        return all.sorted()
    }

    @Test func theLayoutSectionNamesEveryFolderAndOnlyFoldersThatExist() throws {
        let named = try Self.namedFolders()
        #expect(named.count > 20)
        #expect(Set(named).count == named.count, "named twice: \(named)")
        let missing = Set(try Self.packageFolders()).subtracting(named)
        #expect(missing.isEmpty, "folders README's Layout does not name: \(missing.sorted())")
        let gone = Set(named).subtracting(try Self.packageFolders())
        #expect(gone.isEmpty, "folders README's Layout names that do not exist: \(gone.sorted())")
    }
}
