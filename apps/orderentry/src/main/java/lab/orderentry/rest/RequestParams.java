package lab.orderentry.rest;

import jakarta.ws.rs.BadRequestException;

/**
 * Parsing of path and query parameters. Parameters are taken as strings and parsed here, not
 * as JAX-RS Integer/Long parameters: JAX-RS answers an unparsable query or path parameter
 * with 404, and the contract wants 400 with a message saying what is wrong.
 */
final class RequestParams {

    private RequestParams() {
    }

    /** An id: a positive long. */
    static long id(String name, String value) {
        try {
            long id = Long.parseLong(value.trim());
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // answered below
        }
        throw new BadRequestException(name + " must be a positive integer, got '" + value + "'");
    }

    /** An int in [min, max]; absent (null or empty) means fallback. */
    static int intInRange(String name, String value, int min, int max, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        return intInRange(name, parse(name, value), min, max);
    }

    /** A required int in [min, max]. */
    static int requiredInt(String name, String value, int min, int max) {
        if (value == null || value.isBlank()) {
            throw new BadRequestException(name + " is required");
        }
        return intInRange(name, parse(name, value), min, max);
    }

    /** A body field that must be present and within [min, max]. */
    static <N extends Number> N field(String name, N value, long min, long max) {
        if (value == null) {
            throw new BadRequestException(name + " is required");
        }
        if (value.longValue() < min || value.longValue() > max) {
            throw new BadRequestException(name + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    private static int intInRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new BadRequestException(name + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    private static int parse(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new BadRequestException(name + " must be an integer, got '" + value + "'");
        }
    }
}
