package lab.orderentry.rest;

import jakarta.ejb.EJB;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import lab.orderentry.api.BulkLoadResult;
import lab.orderentry.service.BulkLoadService;

/** BulkLoad. */
@Path("/bulk")
@Produces(MediaType.APPLICATION_JSON)
public class BulkResource {

    @EJB
    private BulkLoadService bulk;

    @POST
    @Path("/movements")
    public BulkLoadResult movements(@QueryParam("rows") String rows) {
        return bulk.loadMovements(RequestParams.requiredInt("rows", rows, 1, BulkLoadService.MAX_ROWS));
    }
}
