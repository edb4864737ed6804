package lab.orderentry.service;

import jakarta.ejb.ApplicationException;

/**
 * A concurrent transaction changed the same order first (answered 409: the client may retry).
 * An application exception so that an expected race is not logged as a server error.
 */
@ApplicationException(rollback = true)
public class ConflictException extends RuntimeException {

    public ConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
