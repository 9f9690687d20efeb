public enum GraphQLPlaceholder {}
