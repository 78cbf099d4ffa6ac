import Foundation
import JSON

/// What a `send` or `explain` argument holds: a notification payload (a JSON object) or a link.
///
/// A file of JSON object text is a payload; a JSON string or a one-line text file is a link (routed with
/// `Resolve`); anything else is an error that says where the JSON went wrong, as `file:line:column`.
public enum PayloadInput: Sendable, Hashable {
    /// A notification payload, for `Route`.
    case payload(JSONObject)
    /// A link, for `Resolve`.
    case link(String)

    /// An argument of `explain`: `-` or a path is a payload file; text that starts with a URL scheme
    /// (`shop://…`, `https://…`, `shop:/…`) is a link.
    static func isLink(_ argument: String) -> Bool {
        guard argument != "-", let colon = argument.firstIndex(of: ":") else { return false }
        let scheme = argument[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        let schemeOK = scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        return schemeOK && argument[colon...].count > 1
    }

    /// Reads `bytes` of the file `name` (`-` for standard input).
    static func read(_ bytes: [UInt8], name: String) throws(NotifyctlError) -> PayloadInput {
        let shown = name == "-" ? "<stdin>" : name
        let json: JSON
        do throws(JSONError) {
            json = try JSON.parse(bytes)
        } catch {
            if let link = oneLineText(bytes) { return .link(link) }
            let (line, column) = position(of: error.offset, in: bytes)
            throw .failure("\(shown):\(line):\(column): invalid JSON: \(error.reason)")
        }
        switch json {
        case .object(let object): return .payload(object)
        case .string(let link) where !link.isEmpty: return .link(link)
        default:
            throw .failure(
                "\(shown): expected a notification payload (a JSON object) or a link, found \(json.kindName)")
        }
    }

    /// Trimmed text when `bytes` can be a plain-text link: not JSON-looking, one line, not empty.
    static func oneLineText(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, !"{[\"".contains(first) else { return nil }
        guard !trimmed.unicodeScalars.contains(where: SafeText.isControl) else { return nil }
        return trimmed
    }

    /// The 1-based line and column of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
