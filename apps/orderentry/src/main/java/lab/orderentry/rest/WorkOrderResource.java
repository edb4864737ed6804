package lab.orderentry.rest;

import jakarta.ejb.EJB;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import lab.orderentry.api.WorkOrderRequest;
import lab.orderentry.api.WorkOrderResult;
import lab.orderentry.service.ManufacturingService;

/** ScheduleWorkOrder. */
@Path("/workorders")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class WorkOrderResource {

    static final int MAX_QUANTITY = 1000;

    @EJB
    private ManufacturingService manufacturing;

    @POST
    public Response schedule(WorkOrderRequest request) {
        if (request == null) {
            throw new BadRequestException("a JSON body {\"itemId\":A,\"quantity\":Q} is required");
        }
        long itemId = RequestParams.field("itemId", request.itemId(), 1, Long.MAX_VALUE);
        int quantity = RequestParams.field("quantity", request.quantity(), 1, MAX_QUANTITY);
        WorkOrderResult result = manufacturing.schedule(itemId, quantity);
        return Response.created(URI.create("workorders/" + result.workOrderId())).entity(result).build();
    }
}
