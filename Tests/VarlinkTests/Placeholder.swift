import Testing

@Suite struct PlaceholderVarlinkTests {}
