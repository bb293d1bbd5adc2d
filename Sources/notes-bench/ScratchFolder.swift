import Foundation

/// A private temporary folder for the run's database files, removed when the run ends.
final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("notes-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of a file named `name` in the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
