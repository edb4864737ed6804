package lab.orderentry.rest;

import jakarta.ejb.EJB;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import lab.orderentry.api.Quote;
import lab.orderentry.api.QuoteLine;
import lab.orderentry.api.QuoteRequest;
import lab.orderentry.service.AppConfig;
import lab.orderentry.service.QuoteLocal;
import lab.orderentry.service.QuoteRemote;

/**
 * Quote: builds a request of the asked shape here (not from a JSON body, whose parsing would
 * dwarf the cost being measured) and prices it through the view tl.app.quote_view names.
 */
@Path("/quotes")
@Produces(MediaType.APPLICATION_JSON)
public class QuoteResource {

    static final int MAX_LINES = 1000;
    static final int MAX_NOTE_CHARS = 10_000;
    private static final int ITEMS = 2000;

    @EJB
    private QuoteRemote remote;

    @EJB
    private QuoteLocal local;

    @EJB
    private AppConfig config;

    @GET
    public Quote quote(@QueryParam("customerId") String customerId, @QueryParam("lines") String lines,
                       @QueryParam("noteChars") String noteChars) {
        long customer = RequestParams.id("customerId", customerId);
        int lineCount = RequestParams.intInRange("lines", lines, 1, MAX_LINES, 10);
        int chars = RequestParams.intInRange("noteChars", noteChars, 0, MAX_NOTE_CHARS, 100);
        QuoteRequest request = new QuoteRequest(customer, lines(customer, lineCount, chars));
        return config.quoteViewIsLocal() ? local.price(request) : remote.price(request);
    }

    /**
     * Deterministic lines. Every note is its own String: serialization writes a repeated
     * reference once, so shared notes would shrink the copy the recipe is about.
     */
    private static List<QuoteLine> lines(long customer, int count, int noteChars) {
        List<QuoteLine> result = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long item = 1 + (customer * 31 + i * 37L) % ITEMS;
            char[] note = new char[noteChars];
            Arrays.fill(note, (char) ('a' + i % 26));
            result.add(new QuoteLine(item, 1 + i % 10, BigDecimal.valueOf(100 + item % 900, 2), new String(note)));
        }
        return result;
    }
}
