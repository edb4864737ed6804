package lab.orderentry.rest;

import jakarta.ejb.EJBException;
import jakarta.json.bind.JsonbException;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PessimisticLockException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;
import lab.orderentry.api.ErrorResult;
import lab.orderentry.service.ConflictException;
import lab.orderentry.service.InvalidRequestException;
import lab.orderentry.service.NotFoundException;

/**
 * Every error is answered {"error": "..."}: 400 for bad input, 404 for an unknown id, 409 for
 * a lost race on the same order, 500 (logged) only for what the server got wrong.
 */
public final class ErrorMappers {

    private static final Logger LOG = Logger.getLogger("lab.orderentry");

    private ErrorMappers() {
    }

    static Response error(Response.Status status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(new ErrorResult(message)).build();
    }

    @Provider
    public static class NotFound implements ExceptionMapper<NotFoundException> {
        @Override
        public Response toResponse(NotFoundException e) {
            return error(Response.Status.NOT_FOUND, e.getMessage());
        }
    }

    @Provider
    public static class Conflict implements ExceptionMapper<ConflictException> {
        @Override
        public Response toResponse(ConflictException e) {
            return error(Response.Status.CONFLICT, e.getMessage());
        }
    }

    @Provider
    public static class InvalidRequest implements ExceptionMapper<InvalidRequestException> {
        @Override
        public Response toResponse(InvalidRequestException e) {
            return error(Response.Status.BAD_REQUEST, e.getMessage());
        }
    }

    /** JAX-RS's own: our BadRequestExceptions, unknown paths (404), wrong methods (405), media types (415). */
    @Provider
    public static class WebApplication implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            Response.StatusType status = e.getResponse().getStatusInfo();
            String message = e.getMessage() != null ? e.getMessage() : status.getReasonPhrase();
            Response.ResponseBuilder answer = Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new ErrorResult(message));
            // keep e.g. the Allow header of a 405
            e.getResponse().getHeaders().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("Content-Type")) {
                    values.forEach(v -> answer.header(name, v));
                }
            });
            return answer.build();
        }
    }

    /** A body that is not JSON, or JSON of the wrong shape (e.g. a string where a number belongs). */
    @Provider
    public static class MalformedBody implements ExceptionMapper<ProcessingException> {
        @Override
        public Response toResponse(ProcessingException e) {
            return error(Response.Status.BAD_REQUEST, "malformed JSON body: " + rootMessage(e));
        }
    }

    @Provider
    public static class MalformedJson implements ExceptionMapper<JsonbException> {
        @Override
        public Response toResponse(JsonbException e) {
            return error(Response.Status.BAD_REQUEST, "malformed JSON body: " + rootMessage(e));
        }
    }

    /** A system exception out of a bean: a locking conflict is the client's to retry, the rest is ours. */
    @Provider
    public static class Ejb implements ExceptionMapper<EJBException> {
        @Override
        public Response toResponse(EJBException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof OptimisticLockException || t instanceof PessimisticLockException) {
                    return error(Response.Status.CONFLICT, "concurrent update, retry: " + t.getMessage());
                }
            }
            return Unexpected.logged(e);
        }
    }

    @Provider
    public static class Unexpected implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            return logged(e);
        }

        static Response logged(Throwable e) {
            LOG.log(Level.SEVERE, "request failed", e);
            return error(Response.Status.INTERNAL_SERVER_ERROR, "internal error: " + rootMessage(e));
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
