import Testing

@Suite struct PlaceholderJSONTests {}
