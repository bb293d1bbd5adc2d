import Foundation
import Synchronization

/// A fresh, empty folder under the system temporary directory, removed with everything in it
/// when the last reference to it goes, so a test's files never outlive the test and two tests
/// never share a file.
///
/// Keep the folder (a stored property, or `withExtendedLifetime`) for as long as anything uses
/// a path inside it.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL
    /// Whether the folder stays after release (`keep()`).
    private let isKept = Mutex(false)

    /// Creates the folder `<prefix>-<UUID>` under the system temporary directory.
    ///
    /// - Parameter prefix: The start of the folder's name, telling which tests left it when one
    ///   is kept.
    public init(prefix: String = "notes-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder (a file name, or a relative path such as `a/b.db`);
    /// nothing is created.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Leaves the folder in place after release: for a failed run whose files are worth a look.
    public func keep() { isKept.withLock { $0 = true } }

    /// Removes the folder unless it is kept. Write permission is given back first to the folder
    /// and every folder inside it, since a test may take it away to check that a write is
    /// refused, and a folder without it cannot be emptied.
    deinit {
        guard !isKept.withLock({ $0 }) else { return }
        let files = FileManager.default
        _ = try? files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        if let inside = files.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey]) {
            for case let item as URL in inside
            where (try? item.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
                _ = try? files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: item.path)
            }
        }
        try? files.removeItem(at: url)
    }
}
