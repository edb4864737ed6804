package lab.orderentry.api;

public record BulkLoadResult(int rows, long millis) {
}
