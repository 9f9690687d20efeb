public enum SupportPlaceholder {}
