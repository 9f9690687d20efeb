public enum AppPlaceholder {
    public static var migrationCount: Int { EmbeddedFiles.migrations.count }
}
