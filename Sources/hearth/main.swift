import HearthApp
print(AppPlaceholder.migrationCount)
