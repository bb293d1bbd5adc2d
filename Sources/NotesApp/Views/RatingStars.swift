/// A rating as the list and the open article show it: filled stars for its value, then hollow
/// ones up to five ("★★★★☆"; "☆☆☆☆☆" unrated).
enum RatingStars {
    static func text(for rating: Int) -> String {
        let filled = min(max(rating, 0), 5)
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
    }
}
