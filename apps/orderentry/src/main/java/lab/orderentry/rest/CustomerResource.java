package lab.orderentry.rest;

import jakarta.ejb.EJB;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import lab.orderentry.api.CustomerStatus;
import lab.orderentry.service.OrderService;

/** CustomerStatus. */
@Path("/customers")
@Produces(MediaType.APPLICATION_JSON)
public class CustomerResource {

    @EJB
    private OrderService orders;

    @GET
    @Path("/{id}/orders")
    public CustomerStatus customerStatus(@PathParam("id") String id, @QueryParam("page") String page,
                                         @QueryParam("size") String size) {
        long customerId = RequestParams.id("customer id", id);
        int pageNo = RequestParams.intInRange("page", page, 0, Paging.MAX_PAGE, 0);
        int pageSize = RequestParams.intInRange("size", size, 1, Paging.MAX_SIZE, Paging.DEFAULT_SIZE);
        return orders.customerStatus(customerId, pageNo, pageSize);
    }
}
