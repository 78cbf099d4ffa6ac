import Testing

@testable import Varlink

@Suite struct FrameDecoderTests {
    private func frames(_ decoder: inout FrameDecoder) throws -> [String] {
        var result: [String] = []
        while let frame = try decoder.nextFrame() { result.append(String(decoding: frame, as: UTF8.self)) }
        return result
    }

    @Test func byteByByteReadsYieldEachFrameOnceComplete() throws {
        let stream = Array("{\"a\":1}\0{\"b\":2}\0".utf8)
        var decoder = FrameDecoder()
        var seen: [String] = []
        for byte in stream {
            decoder.append([byte])
            seen += try frames(&decoder)
        }
        #expect(seen == ["{\"a\":1}", "{\"b\":2}"])
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func aFramePutBackIsReturnedAgainBeforeTheOnesAfterIt() throws {
        var decoder = FrameDecoder()
        decoder.append(Array("{\"a\":1}\0{\"b\":2}\0{\"c\"".utf8))
        let first = try #require(try decoder.nextFrame())
        let second = try #require(try decoder.nextFrame())
        #expect(String(decoding: second, as: UTF8.self) == "{\"b\":2}")
        decoder.unread(second)
        #expect(decoder.bufferedByteCount == 12)
        decoder.append(Array(":3}\0".utf8))  // the bytes after it arrive later: they stay behind it
        #expect(try frames(&decoder) == ["{\"b\":2}", "{\"c\":3}"])
        #expect(String(decoding: first, as: UTF8.self) == "{\"a\":1}")
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func manyFramesInOneReadAreAllYielded() throws {
        var decoder = FrameDecoder()
        var stream: [UInt8] = []
        for i in 0..<100 { stream += Array("{\"i\":\(i)}".utf8) + [0] }
        decoder.append(stream)
        let all = try frames(&decoder)
        #expect(all.count == 100)
        #expect(all.first == "{\"i\":0}")
        #expect(all.last == "{\"i\":99}")
    }

    @Test func aPartialFrameStaysBufferedUntilItsNulArrives() throws {
        var decoder = FrameDecoder()
        decoder.append(Array("{\"a\":1}\0{\"b\"".utf8))
        #expect(try frames(&decoder) == ["{\"a\":1}"])
        #expect(decoder.bufferedByteCount == 4)
        decoder.append(Array(":2}\0".utf8))
        #expect(try frames(&decoder) == ["{\"b\":2}"])
    }

    @Test func anEmptyFrameIsYieldedAsEmpty() throws {
        var decoder = FrameDecoder()
        decoder.append([0, 0x7B, 0x7D, 0])
        #expect(try frames(&decoder) == ["", "{}"])
    }

    @Test func aFrameOfExactlyTheLimitIsAccepted() throws {
        var decoder = FrameDecoder(maxMessageSize: 8)
        decoder.append(Array("12345678".utf8))
        #expect(try decoder.nextFrame() == nil)
        decoder.append([0])
        #expect(try frames(&decoder) == ["12345678"])
    }

    @Test func anOversizeFrameFailsBeforeItsNulArrives() throws {
        var decoder = FrameDecoder(maxMessageSize: 8)
        decoder.append(Array("123456789".utf8))
        let error = #expect(throws: VarlinkProtocolError.self) { try decoder.nextFrame() }
        #expect(error?.code == .messageTooLarge)
        #expect(error?.size == 9)
        // The stream cannot be resynchronised: the decoder keeps failing.
        decoder.append([0])
        #expect(throws: VarlinkProtocolError.self) { try decoder.nextFrame() }
    }

    @Test func anOversizeFrameArrivingWithItsNulFails() throws {
        var decoder = FrameDecoder(maxMessageSize: 8)
        decoder.append(Array("{}\0123456789\0{}\0".utf8))
        #expect(try decoder.nextFrame().map(Array.init) == Array("{}".utf8))
        let error = #expect(throws: VarlinkProtocolError.self) { try decoder.nextFrame() }
        #expect(error?.code == .messageTooLarge)
        #expect(error?.size == 9)
    }

    @Test func manySmallFramesInOneReadMayExceedTheLimitTogether() throws {
        var decoder = FrameDecoder(maxMessageSize: 16)
        let stream = Array(repeating: Array("{\"k\":123}".utf8) + [0], count: 50).flatMap { $0 }
        decoder.append(stream)
        #expect(try frames(&decoder).count == 50)
    }

    @Test func consumedBytesAreDroppedSoTheBufferStaysBounded() throws {
        var decoder = FrameDecoder(maxMessageSize: 1024)
        let frame = Array(repeating: UInt8(ascii: "x"), count: 100) + [0]
        for _ in 0..<10_000 {
            decoder.append(frame[..<60])
            #expect(try decoder.nextFrame() == nil)
            decoder.append(frame[60...])
            #expect(try decoder.nextFrame()?.count == 100)
        }
        #expect(decoder.bufferedByteCount == 0)
    }
}
