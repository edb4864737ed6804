package lab.orderentry.service;

import jakarta.ejb.ApplicationException;

/** The request is well-formed but not allowed, e.g. a work order for a component (answered 400). */
@ApplicationException(rollback = true)
public class InvalidRequestException extends RuntimeException {

    public InvalidRequestException(String message) {
        super(message);
    }
}
