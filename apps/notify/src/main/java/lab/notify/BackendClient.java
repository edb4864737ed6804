package lab.notify;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The web tier's side of the back end: one HTTP call for a list of users, answering each
 * user's news. One client for the whole app (its connections are pooled and reused), as a
 * service client would be today; the post's SOAP client is the same kind of call.
 */
final class BackendClient {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private BackendClient() {
    }

    /** Each user's news ("count latest-id"), or an empty map if the call failed (counted). */
    static Map<Integer, String> fetch(List<Integer> users) {
        if (users.isEmpty()) {
            return Map.of();
        }
        String body = users.stream().map(String::valueOf).collect(Collectors.joining(","));
        HttpRequest request = HttpRequest.newBuilder(URI.create(Settings.BACKEND_URL))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        Figures.CALLS.incrementAndGet();
        try {
            HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the back end answered " + response.statusCode());
            }
            Map<Integer, String> news = new HashMap<>();
            for (String line : response.body().split("\n")) {  // "user count latest-id"
                int space = line.indexOf(' ');
                if (space > 0) {
                    news.put(Integer.parseInt(line.substring(0, space)), line.substring(space + 1));
                }
            }
            Figures.USERS_FETCHED.addAndGet(users.size());
            return news;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();  // the session ended: its poller stops
            return Map.of();
        } catch (Exception e) {
            Figures.failed(e);
            return Map.of();
        }
    }
}
