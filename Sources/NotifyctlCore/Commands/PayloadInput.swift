import Foundation
import JSON

/// What a `send` or `explain` argument holds: a notification payload (a JSON object) or a link.
///
/// A file of JSON object text is a payload; a JSON string, or a file whose text is one line that reads as a link
/// (it starts with a scheme such as `shop:` or `https:`, or with `/`, and holds no space), is a link (routed with
/// `Resolve`). Anything else is an error that says where the JSON went wrong, as `file:line:column`.
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
            if let link = oneLineLink(bytes) { return .link(link) }
            let position = TextPosition(of: error.offset, in: bytes)
            throw .failure(
                LocalName.invalidInput,
                "\(SafeText.clean(shown)):\(position.line):\(position.column): invalid JSON: \(error.reason)",
                parameters: [
                    "file": .string(shown), "line": .int(position.line), "column": .int(position.column),
                    "reason": .string(error.reason),
                ],
                notes: [
                    "a payload file holds one JSON object; a file is sent as a link only when its text is one line "
                        + "that starts with a scheme (shop://…, https://…) or with /"
                ])
        }
        switch json {
        case .object(let object): return .payload(object)
        case .string(let link) where !link.isEmpty: return .link(link)
        default:
            let reason = "expected a notification payload (a JSON object) or a link, found \(json.kindName)"
            throw .failure(
                LocalName.invalidInput, "\(SafeText.clean(shown)): \(reason)",
                parameters: ["file": .string(shown), "line": nil, "column": nil, "reason": .string(reason)])
        }
    }

    /// The trimmed text when `bytes` read as a link: one line without spaces or control characters that starts
    /// with a URL scheme or with `/`.
    static func oneLineLink(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.properties.isWhitespace }),
            !trimmed.unicodeScalars.contains(where: SafeText.isControl)
        else { return nil }
        return isLink(trimmed) || trimmed.hasPrefix("/") ? trimmed : nil
    }
}
