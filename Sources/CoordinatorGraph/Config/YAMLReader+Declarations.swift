/// Lets Swift declarations, page expressions and link patterns be written in YAML without quotes.
///
/// The config language writes `product(id: String): /products/{id}` and
/// `ORDER_SHIPPED: account.order(id: $orderId)` as plain YAML, although strict YAML ends a plain
/// scalar at `: ` and, inside `[...]` or `{...}`, at `,`, `{` and `}`. Before libyaml reads the text,
/// these characters are swapped for private-use placeholders (one character each, so every line and
/// column stays where it was) in two places, each on a single line:
///
/// - inside `( … )` that directly follows a name (`offer(`, `account.order(`), up to the matching `)`;
/// - the braces of a `{name}` that directly follows text (`/offers/{id}`, `?page={page}`), as opposed to
///   a flow mapping's `{`, which follows a space, `:`, `,`, `[` or `{`.
///
/// Every scalar read back has the placeholders restored, so quoted values, comments and anything else
/// that happened to be swapped read exactly as written. A text that already holds a placeholder
/// character is left alone.
enum YAMLDeclarations {
    /// Characters that are swapped, and their placeholders U+E000…U+E007 (UTF-8 `EE 80 80`…`EE 80 87`).
    static let swapped: [UInt8] = Array(" :,{}[]#".utf8)

    /// The text with placeholders, or `nil` when nothing needs swapping (or the text already holds one).
    static func protect(_ bytes: [UInt8]) -> [UInt8]? {
        guard needsProtection(bytes), !containsPlaceholder(bytes) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            protectLine(bytes[lineStart..<lineEnd], into: &out)
            if lineEnd < bytes.count { out.append(UInt8(ascii: "\n")) }
            lineStart = lineEnd + 1
        }
        return out
    }

    /// `s` with every placeholder turned back into the character it stands for.
    static func restore(_ s: String) -> String {
        guard s.utf8.contains(0xEE) else { return s }
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            if (0xE000...0xE007).contains(scalar.value) {
                out.append(Unicode.Scalar(swapped[Int(scalar.value - 0xE000)]))
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func needsProtection(_ bytes: [UInt8]) -> Bool {
        bytes.contains(UInt8(ascii: "(")) || bytes.contains(UInt8(ascii: "{"))
    }

    private static func containsPlaceholder(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0xEE, bytes[i + 1] == 0x80, bytes[i + 2] <= 0x87 { return true }
            i += 1
        }
        return false
    }

    private static func protectLine(_ line: ArraySlice<UInt8>, into out: inout [UInt8]) {
        let line = Array(line)
        var marks = [Bool](repeating: false, count: line.count)
        var i = 0
        while i < line.count {
            let c = line[i]
            if c == UInt8(ascii: "("), i > 0, isNameByte(line[i - 1]), let close = matchingParen(line, from: i) {
                for k in (i + 1)..<close where swapped.contains(line[k]) { marks[k] = true }
                i = close + 1
                continue
            }
            if c == UInt8(ascii: "{"), i > 0, !opensFlowMapping(after: line[i - 1]),
                let close = closingBrace(line, from: i)
            {
                marks[i] = true
                marks[close] = true
                i = close + 1
                continue
            }
            i += 1
        }
        for (k, byte) in line.enumerated() {
            if marks[k], let index = swapped.firstIndex(of: byte) {
                out.append(contentsOf: [0xEE, 0x80, 0x80 + UInt8(index)])
            } else {
                out.append(byte)
            }
        }
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
    }

    private static func opensFlowMapping(after b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == UInt8(ascii: ":") || b == UInt8(ascii: ",") || b == UInt8(ascii: "[")
            || b == UInt8(ascii: "{")
    }

    /// The index of the `)` that closes the `(` at `open`, skipping `"…"` string literals; `nil` when it is
    /// not on this line.
    private static func matchingParen(_ line: [UInt8], from open: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for k in open..<line.count {
            let b = line[k]
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "(") {
                depth += 1
            } else if b == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { return k }
            }
        }
        return nil
    }

    /// The `}` closing a `{name}` that opens at `open`, when the name holds no space, brace or comma.
    private static func closingBrace(_ line: [UInt8], from open: Int) -> Int? {
        var k = open + 1
        while k < line.count {
            switch line[k] {
            case UInt8(ascii: "}"): return k > open + 1 ? k : nil
            case UInt8(ascii: "{"), UInt8(ascii: ","), 0x20, 0x09: return nil
            default: k += 1
            }
        }
        return nil
    }
}
