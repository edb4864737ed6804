package lab.orderentry.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** REST base: /orderentry/api. Resources and providers in this package are found by scanning. */
@ApplicationPath("/api")
public class OrderEntryApplication extends Application {
}
