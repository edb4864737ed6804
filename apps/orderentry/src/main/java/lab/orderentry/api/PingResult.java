package lab.orderentry.api;

public record PingResult(String status) {
}
