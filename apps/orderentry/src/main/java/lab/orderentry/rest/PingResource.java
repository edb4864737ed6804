package lab.orderentry.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import lab.orderentry.api.PingResult;

/** Ping: the web and REST layers only, no bean and no database (the floor of every latency). */
@Path("/ping")
@Produces(MediaType.APPLICATION_JSON)
public class PingResource {

    private static final PingResult OK = new PingResult("ok");

    @GET
    public PingResult ping() {
        return OK;
    }
}
