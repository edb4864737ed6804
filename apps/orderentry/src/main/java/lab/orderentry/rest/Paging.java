package lab.orderentry.rest;

/** The paging limits shared by CustomerStatus and ItemBrowse (pages are 0-based). */
final class Paging {

    static final int MAX_SIZE = 100;
    static final int DEFAULT_SIZE = 10;
    /** Keeps page * size far from int overflow. */
    static final int MAX_PAGE = 100_000;

    private Paging() {
    }
}
