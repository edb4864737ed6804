package lab.orderentry.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Reference data: who a component is bought from. */
@Entity
@Table(name = "supplier")
public class Supplier {

    @Id
    private Long id;

    private String name;

    @Column(name = "lead_days")
    private int leadDays;

    public Long getId() { return id; }
    public String getName() { return name; }
    public int getLeadDays() { return leadDays; }
}
