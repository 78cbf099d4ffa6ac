// Fuzz target: the varlink framer and call decoder.
//
// The input is a byte stream as a client would send it. It is fed to a FrameDecoder in chunks whose sizes come
// from the input itself, and every complete frame is decoded as a VarlinkCall. A decoded call must encode back to
// a frame that decodes to the same call.
import JSON
import Varlink

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVarlink(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var decoder = FrameDecoder(maxMessageSize: 4096)
    var offset = 0
    var chunk = 1
    while offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        decoder.append(bytes[offset..<end])
        offset = end
        chunk = Int(bytes[end - 1] % 64) + 1
        while true {
            let frame: ArraySlice<UInt8>?
            do { frame = try decoder.nextFrame() } catch { return 0 }
            guard let frame else { break }
            guard let call = try? VarlinkCall(frame: frame) else { continue }
            var encoded: [UInt8] = []
            call.encode(into: &encoded)
            guard encoded.last == 0 else { fatalError("an encoded call must end with NUL") }
            let again: VarlinkCall
            do {
                again = try VarlinkCall(frame: encoded.dropLast())
            } catch {
                fatalError("a decoded call must re-encode to a valid frame: \(error)")
            }
            guard again == call else { fatalError("a call must survive encode/decode: \(call) vs \(again)") }
        }
    }
    return 0
}
