package lab.orderentry.api;

import jakarta.json.bind.annotation.JsonbProperty;
import java.util.List;

/** GET /api/config: the settings in effect, read back from the running unit and JVM. */
public record ConfigReport(Hibernate hibernate, App app, Ejb ejb, Jvm jvm) {

    public record Hibernate(
            @JsonbProperty("jdbc.batch_size") int jdbcBatchSize,
            @JsonbProperty("order_inserts") boolean orderInserts,
            @JsonbProperty("order_updates") boolean orderUpdates,
            @JsonbProperty("jdbc.fetch_size") int jdbcFetchSize,
            @JsonbProperty("second_level_cache") boolean secondLevelCache,
            @JsonbProperty("shared_cache_mode") String sharedCacheMode) {
    }

    public record App(
            @JsonbProperty("bulk_flush_every") int bulkFlushEvery,
            @JsonbProperty("log_each_transaction") boolean logEachTransaction,
            @JsonbProperty("quote_view") String quoteView) {
    }

    /** in_vm_remote_pass_by_value: observed on a probe call, not read from the model. */
    public record Ejb(@JsonbProperty("in_vm_remote_pass_by_value") boolean inVmRemotePassByValue) {
    }

    public record Jvm(String version, int availableProcessors, long maxHeapBytes,
                      List<String> garbageCollectors, List<String> inputArguments) {
    }
}
