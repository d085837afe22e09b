import { TESTIMONIALS } from '../../../config/site-content';

export function Testimonials() {
  return (
    <section className="page-section testimonials" aria-labelledby="testimonials-heading">
      <div className="container">
        <p className="eyebrow">Readers say</p>
        <h2 id="testimonials-heading" className="section-heading">
          What our readers say
        </h2>
        <ul className="testimonials__list">
          {TESTIMONIALS.map((item) => (
            <li key={item.name} className="testimonials__item">
              <figure className="testimonials__figure">
                <div className="testimonials__stars" role="img" aria-label="5 out of 5 stars">
                  ★★★★★
                </div>
                <blockquote className="testimonials__quote">
                  <p>“{item.quote}”</p>
                </blockquote>
                <figcaption className="testimonials__who">
                  <span className="testimonials__name">{item.name}</span>
                  <span className="testimonials__role">{item.role}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
