package lab.orderentry.service;

import jakarta.ejb.ApplicationException;

/**
 * An id in the request names nothing (answered 404). An application exception, so the
 * container rolls back and rethrows it as is instead of wrapping it in an EJBException.
 */
@ApplicationException(rollback = true)
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}
