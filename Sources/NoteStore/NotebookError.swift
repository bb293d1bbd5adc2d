/// Why a notebook edit was refused; nothing was changed.
public enum NotebookError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A rating outside 0...5.
    case ratingOutOfRange(Int)
    /// No article has this id (it may have been deleted in another pane).
    case articleNotFound(id: Int64)
    /// No author has this id (it may have been deleted in another pane).
    case authorNotFound(id: Int64)
    /// An embedded demo data file could not be read: the build is broken.
    case damagedResource(name: String, reason: String)

    /// A message for the status line.
    public var description: String {
        switch self {
        case .ratingOutOfRange(let rating):
            return "a rating is from 0 to 5, not \(rating); nothing was changed"
        case .articleNotFound(let id):
            return "article \(id) no longer exists; nothing was changed"
        case .authorNotFound(let id):
            return "author \(id) no longer exists; nothing was changed"
        case .damagedResource(let name, let reason):
            return "the built-in file \(name) is damaged (\(reason)); nothing was changed"
        }
    }
}
