package lab.orderentry.rest;

import jakarta.ejb.EJB;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import lab.orderentry.api.ConfigReport;
import lab.orderentry.service.ConfigService;

/** Config: the settings in effect (see ConfigService). */
@Path("/config")
@Produces(MediaType.APPLICATION_JSON)
public class ConfigResource {

    @EJB
    private ConfigService config;

    @GET
    public ConfigReport config() {
        return config.report();
    }
}
