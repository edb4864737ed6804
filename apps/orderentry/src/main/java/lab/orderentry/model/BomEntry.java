package lab.orderentry.model;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** One line of a bill of materials: an assembly needs quantity units of a component. */
@Entity
@Table(name = "bom")
public class BomEntry {

    @Id
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "assembly_id")
    private Item assembly;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "component_id")
    private Item component;

    private int quantity;

    public Long getId() { return id; }
    public Item getAssembly() { return assembly; }
    public Item getComponent() { return component; }
    public int getQuantity() { return quantity; }
}
