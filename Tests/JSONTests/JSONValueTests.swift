import JSON
import Testing

@Suite struct JSONValueTests {
    @Test func accessorsReturnPayloadsOfTheirOwnKindOnly() {
        let value: JSON = ["s": "text", "i": 3, "d": 4.0, "f": 4.5, "b": true, "a": [1], "o": ["k": nil], "n": nil]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["i"]?.intValue == 3)
        #expect(value["d"]?.intValue == 4)
        #expect(value["f"]?.intValue == nil)
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue?.keys == ["k"])
        #expect(value["n"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.intValue == nil)
        #expect(JSON.int(1)["key"] == nil)
    }

    @Test(
        arguments: [
            (JSON.null, "null"), (true, "boolean"), (1, "number"), (1.5, "number"), ("s", "string"), ([], "array"),
            ([:], "object"),
        ] as [(JSON, String)])
    func kindNamesAreWordsForMessages(value: JSON, name: String) {
        #expect(value.kindName == name)
    }

    @Test func objectSubscriptReplacesAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 10
        object["c"] = 3
        #expect(object.keys == ["a", "b", "c"])
        #expect(object.values == [10, 2, 3])
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object.count == 2)
        object["zzz"] = nil
        #expect(object.count == 2)
        #expect(!object.isEmpty)
        #expect(JSONObject().isEmpty)
    }

    @Test func repeatedKeysInAnInitializerKeepTheLastValue() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func iterationFollowsKeyOrder() {
        let object: JSONObject = ["z": 1, "y": 2, "x": 3]
        #expect(object.map(\.0) == ["z", "y", "x"])
        #expect(object.map(\.1) == [1, 2, 3])
    }
}
