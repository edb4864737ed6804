package lab.orderentry.service;

import jakarta.ejb.Local;
import lab.orderentry.api.Quote;
import lab.orderentry.api.QuoteRequest;

/** Quote through a local business interface: always by reference. */
@Local
public interface QuoteLocal {

    Quote price(QuoteRequest request);
}
