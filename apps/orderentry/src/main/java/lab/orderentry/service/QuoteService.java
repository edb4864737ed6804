package lab.orderentry.service;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import lab.orderentry.api.Quote;
import lab.orderentry.api.QuoteLine;
import lab.orderentry.api.QuoteRequest;

/**
 * Quote: prices the lines it is given, in memory. No database and no transaction, so what a
 * recipe measures is the invocation itself: with a remote view called by value, mostly the
 * copy of the request.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class QuoteService implements QuoteRemote, QuoteLocal {

    @Override
    public Quote price(QuoteRequest request) {
        BigDecimal total = BigDecimal.ZERO;
        int noteChars = 0;
        for (QuoteLine line : request.lines()) {
            total = total.add(line.unitPrice().multiply(BigDecimal.valueOf(line.quantity())));
            noteChars += line.note().length();
        }
        return new Quote(request.customerId(), request.lines().size(), noteChars,
                total.setScale(2, RoundingMode.HALF_UP), request.isCallersInstance() ? "reference" : "value");
    }
}
