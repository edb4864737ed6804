package lab.units;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * A stock movement, the row a bulk load appends. Cacheable because an application of this kind
 * reads its movements in its short transactions: the "oltp" unit caches it, the "batch" unit
 * has no second-level cache. Ids come 50 at a time from the sequence, so Hibernate can batch
 * the inserts.
 */
@Entity
@Table(name = "movement")
@Cacheable
public class Movement {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "movement_seq")
    @SequenceGenerator(name = "movement_seq", sequenceName = "movement_seq", allocationSize = 50)
    private Long id;

    @Column(nullable = false)
    private int item;

    @Column(nullable = false)
    private int quantity;

    @Column(nullable = false)
    private OffsetDateTime moved;

    @Column(nullable = false, length = 20)
    private String reason;

    protected Movement() {
    }

    public Movement(int item, int quantity, OffsetDateTime moved, String reason) {
        this.item = item;
        this.quantity = quantity;
        this.moved = moved;
        this.reason = reason;
    }
}
