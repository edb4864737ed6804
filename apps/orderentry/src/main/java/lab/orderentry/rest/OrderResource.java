package lab.orderentry.rest;

import jakarta.ejb.EJB;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;
import lab.orderentry.api.ChangeOrderRequest;
import lab.orderentry.api.ChangeOrderResult;
import lab.orderentry.api.NewOrderRequest;
import lab.orderentry.api.NewOrderResult;
import lab.orderentry.api.OrderStatus;
import lab.orderentry.service.OrderService;

/** NewOrder, OrderStatus and ChangeOrder. */
@Path("/orders")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class OrderResource {

    static final int MAX_LINES = 100;
    static final int MAX_QUANTITY = 1000;

    @EJB
    private OrderService orders;

    @POST
    public Response newOrder(NewOrderRequest request) {
        if (request == null) {
            throw new BadRequestException("a JSON body {\"customerId\":C,\"lines\":[{\"itemId\":I,\"quantity\":Q},...]} is required");
        }
        long customerId = RequestParams.field("customerId", request.customerId(), 1, Long.MAX_VALUE);
        List<NewOrderRequest.Line> lines = request.lines();
        if (lines == null || lines.isEmpty() || lines.size() > MAX_LINES) {
            throw new BadRequestException("lines must hold 1.." + MAX_LINES + " entries, got "
                    + (lines == null ? "none" : lines.size()));
        }
        for (int i = 0; i < lines.size(); i++) {
            NewOrderRequest.Line line = lines.get(i);
            if (line == null) {
                throw new BadRequestException("lines[" + i + "] is null");
            }
            RequestParams.field("lines[" + i + "].itemId", line.itemId(), 1, Long.MAX_VALUE);
            RequestParams.field("lines[" + i + "].quantity", line.quantity(), 1, MAX_QUANTITY);
        }
        NewOrderResult result = orders.newOrder(customerId, lines);
        return Response.created(URI.create("orders/" + result.orderId())).entity(result).build();
    }

    @GET
    @Path("/{id}")
    public OrderStatus orderStatus(@PathParam("id") String id) {
        return orders.orderStatus(RequestParams.id("order id", id));
    }

    @PUT
    @Path("/{id}")
    public ChangeOrderResult changeOrder(@PathParam("id") String id, ChangeOrderRequest request) {
        long orderId = RequestParams.id("order id", id);
        if (request == null) {
            throw new BadRequestException("a JSON body {\"lineNo\":L,\"quantity\":Q} is required");
        }
        int lineNo = RequestParams.field("lineNo", request.lineNo(), 1, MAX_LINES);
        int quantity = RequestParams.field("quantity", request.quantity(), 1, MAX_QUANTITY);
        return orders.changeOrder(orderId, lineNo, quantity);
    }
}
