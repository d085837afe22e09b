// How wide covers show (an <img>'s `sizes`, and the preload of a page's main cover), so the
// browser fetches the smallest sized copy that fills the box on that screen.

/** A book grid's cell: two columns on a phone and a tablet, then three and four (web-kit's .book-grid). */
export const GRID_COVER_SIZES = '(max-width: 899px) 46vw, (max-width: 1199px) 30vw, 18rem';

/** The book page's cover: a third of the screen beside the title on a phone and a tablet, at most 26rem beside the text (book-detail.css). */
export const DETAIL_COVER_SIZES = '(max-width: 899px) 34vw, 26rem';
