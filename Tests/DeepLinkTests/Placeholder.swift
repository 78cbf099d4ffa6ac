import Testing

@Suite struct PlaceholderDeepLinkTests {}
