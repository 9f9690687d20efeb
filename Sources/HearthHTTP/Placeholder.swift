public enum HTTPPlaceholder {}
