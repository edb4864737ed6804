package lab.orderentry.rest;

import jakarta.ejb.EJB;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import lab.orderentry.api.ItemPage;
import lab.orderentry.service.CatalogService;

/** ItemBrowse. */
@Path("/items")
@Produces(MediaType.APPLICATION_JSON)
public class ItemResource {

    @EJB
    private CatalogService catalog;

    @GET
    public ItemPage browse(@QueryParam("category") String category, @QueryParam("page") String page,
                           @QueryParam("size") String size) {
        int categoryNo = RequestParams.requiredInt("category", category, 1, Integer.MAX_VALUE);
        int pageNo = RequestParams.intInRange("page", page, 0, Paging.MAX_PAGE, 0);
        int pageSize = RequestParams.intInRange("size", size, 1, Paging.MAX_SIZE, Paging.DEFAULT_SIZE);
        return catalog.browse(categoryNo, pageNo, pageSize);
    }
}
