package lab.paging;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/** An offer of the catalogue, mapped so that a JPQL query can name it; the searches select
 *  three of its columns into rows (OfferRow) and never load the entity itself. */
@Entity
@Table(name = "offer")
public class Offer {
    @Id
    private int id;
    private int category;
    private String title;
    private BigDecimal price;
    private String detail;

    public int getId() { return id; }
    public int getCategory() { return category; }
    public String getTitle() { return title; }
    public BigDecimal getPrice() { return price; }
    public String getDetail() { return detail; }
}
