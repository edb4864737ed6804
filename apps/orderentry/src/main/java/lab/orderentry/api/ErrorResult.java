package lab.orderentry.api;

/** Body of every 4xx/5xx answer: {"error": "..."}. */
public record ErrorResult(String error) {
}
