package lab.listings;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/** A catalogue product, mapped as an ordinary (writable) entity: what a listing loads when it
 *  goes through the persistence context. */
@Entity
@Table(name = "product")
public class Product {
    @Id
    private int id;
    private int category;
    private String name;
    private BigDecimal price;
    private String description;

    public int getId() { return id; }
    public int getCategory() { return category; }
    public String getName() { return name; }
    public BigDecimal getPrice() { return price; }
    public String getDescription() { return description; }
}
