// How wide covers show (an <img>'s `sizes`, and the preload of a page's main cover), so the
// browser fetches the smallest sized copy that fills the box on that screen.

/** A book grid's cell: one column on a phone, then two, three and four (web-kit's .book-grid). */
export const GRID_COVER_SIZES = '(max-width: 639px) calc(100vw - 2rem), (max-width: 899px) 45vw, (max-width: 1199px) 30vw, 18rem';

/** The book page's cover: the screen's width less its margins on a phone, at most 26rem (book-detail.css). */
export const DETAIL_COVER_SIZES = '(max-width: 479px) calc(100vw - 2rem), 26rem';
