import Testing

@Suite struct PlaceholderCoordinatorGraphTests {}
