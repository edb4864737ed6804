package lab.orderentry.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.LocalDate;

/** Reference data loaded by data.sql; the application only reads it. */
@Entity
@Table(name = "customer")
public class Customer {

    @Id
    private Long id;

    private String name;

    @Column(name = "credit_limit")
    private BigDecimal creditLimit;

    /** Fraction taken off an order's gross amount, 0 .. 0.25. */
    private BigDecimal discount;

    private BigDecimal balance;

    private LocalDate since;

    public Long getId() { return id; }
    public String getName() { return name; }
    public BigDecimal getCreditLimit() { return creditLimit; }
    public BigDecimal getDiscount() { return discount; }
    public BigDecimal getBalance() { return balance; }
    public LocalDate getSince() { return since; }
}
