/// The declared name a misspelt one most likely meant: the "did you mean" of config findings, the daemon's errors
/// and command lines.
public enum NameSuggestion {
    /// The name in `names` closest to `word` (letter case aside), when it is close enough to be a likely typo: at
    /// most one edit per three letters, at least one, at most three.
    public static func closest(to word: String, in names: [String]) -> String? {
        // Suggestions are for typos in names; long texts and huge lists are not worth the quadratic work.
        guard word.utf8.count <= 64, names.count <= 5_000 else { return nil }
        let scored = names.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, min(3, word.count / 3)) else { return nil }
        return best.0
    }

    /// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
