package lab.orderentry.model;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/**
 * Catalogue entry (reference data, never written by the application). @Cacheable marks it for
 * the second-level cache, which is on only when the persistence unit's shared cache mode is
 * ENABLE_SELECTIVE (system property tl.jpa.shared_cache_mode): the recipe's switch.
 */
@Entity
@Cacheable
@Table(name = "item")
public class Item {

    public static final String ASSEMBLY = "assembly";

    @Id
    private Long id;

    private String name;

    private int category;

    private BigDecimal price;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "supplier_id")
    private Supplier supplier;

    /** "assembly" (built from a bill of materials) or "component" (bought from a supplier). */
    private String kind;

    public Long getId() { return id; }
    public String getName() { return name; }
    public int getCategory() { return category; }
    public BigDecimal getPrice() { return price; }
    public Supplier getSupplier() { return supplier; }
    public String getKind() { return kind; }

    public boolean isAssembly() {
        return ASSEMBLY.equals(kind);
    }
}
