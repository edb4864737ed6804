package lab.debugstatements;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderValues;

/**
 * What a debug statement typically logs about a request: method, path, query and headers.
 * Its {@code toString()} is the expensive part of an unguarded statement, as the guide's
 * example object is (7.4): it walks every header each time it is called.
 */
final class RequestSummary {

    private final HttpServerExchange exchange;

    RequestSummary(HttpServerExchange exchange) {
        this.exchange = exchange;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(256)
                .append(exchange.getRequestMethod()).append(' ')
                .append(exchange.getRequestPath());
        if (!exchange.getQueryString().isEmpty()) {
            text.append('?').append(exchange.getQueryString());
        }
        text.append(" from ").append(exchange.getSourceAddress()).append(" headers={");
        for (HeaderValues header : exchange.getRequestHeaders()) {
            text.append(header.getHeaderName()).append('=').append(header).append(", ");
        }
        return text.append('}').toString();
    }
}
