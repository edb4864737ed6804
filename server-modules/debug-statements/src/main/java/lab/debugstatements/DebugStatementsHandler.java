package lab.debugstatements;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import org.jboss.logging.Logger;

/**
 * Debug statements in the hot path, with debug logging off (guide 7.4).
 *
 * <p>Installed as an Undertow custom filter on the default host, so it runs in front of every
 * request the application serves: {@value #STATEMENTS} debug statements a request, each with a
 * summary of the request whose {@code toString()} walks its headers. Their category sits at
 * WildFly's default INFO level, so none of them is ever written; what differs between the
 * styles is the work done before the logger finds that out:
 * <ul>
 *   <li>{@code unguarded}: {@code log.debug("..." + summary)}, the message built first;</li>
 *   <li>{@code guarded}: the same inside {@code if (log.isDebugEnabled())};</li>
 *   <li>{@code parameterized}: {@code log.debugf("...%s", summary)}, formatted only if enabled;</li>
 *   <li>{@code none}: no statement (the property unset).</li>
 * </ul>
 * The style is the system property {@value #STYLE_PROPERTY}, read on every request, so a
 * recipe switches it at runtime through the management model. Every response carries the
 * style that served it in the {@value #HEADER} header; an unknown style answers 500.
 */
public final class DebugStatementsHandler implements HttpHandler {

    public static final String STYLE_PROPERTY = "tl.debug_statements.style";
    public static final String HEADER = "X-Debug-Statements";
    static final int STATEMENTS = 20;

    private static final Logger LOG = Logger.getLogger("lab.debugstatements");
    private static final HttpString HEADER_NAME = new HttpString(HEADER);

    private final HttpHandler next;

    public DebugStatementsHandler(HttpHandler next) {
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String style = System.getProperty(STYLE_PROPERTY, "none");
        RequestSummary summary = new RequestSummary(exchange);
        switch (style) {
            case "unguarded" -> unguarded(summary);
            case "guarded" -> guarded(summary);
            case "parameterized" -> parameterized(summary);
            case "none" -> { }
            default -> {
                exchange.setStatusCode(500);
                exchange.getResponseSender().send(STYLE_PROPERTY + "=" + style
                        + " is not a style; allowed: unguarded, guarded, parameterized, none");
                return;
            }
        }
        exchange.getResponseHeaders().put(HEADER_NAME, style);
        next.handleRequest(exchange);
    }

    private static void unguarded(RequestSummary summary) {
        for (int step = 0; step < STATEMENTS; step++) {
            LOG.debug("step " + step + " of " + summary);
        }
    }

    private static void guarded(RequestSummary summary) {
        for (int step = 0; step < STATEMENTS; step++) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("step " + step + " of " + summary);
            }
        }
    }

    private static void parameterized(RequestSummary summary) {
        for (int step = 0; step < STATEMENTS; step++) {
            LOG.debugf("step %d of %s", step, summary);
        }
    }
}
